// Turns a message text sent with `parse_mode` into what Telegram stores: the visible text plus
// entities. Telegram rejects malformed markup with "can't parse entities", and a bot that only
// ever ran against a lenient emulator would break on the real API, so the errors matter as much
// as the happy path. Offsets are UTF-16 code units (JS string indexes), as in the Bot API.
import type { MessageEntity } from "grammy/types";

export type ParseMode = "HTML" | "MarkdownV2" | "Markdown";

export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

/** Thrown for malformed markup; `message` is the part after "Bad Request: can't parse entities: ". */
export class EntityParseError extends Error {}

/** Resolves Telegram's case-insensitive parse_mode names; undefined for an unknown mode. */
export function normaliseParseMode(mode: string): ParseMode | undefined {
  switch (mode.toLowerCase()) {
    case "html":
      return "HTML";
    case "markdownv2":
      return "MarkdownV2";
    case "markdown":
      return "Markdown";
    default:
      return undefined;
  }
}

export function parseFormattedText(raw: string, mode: ParseMode): FormattedText {
  const parsed =
    mode === "HTML" ? parseHtml(raw) : parseMarkdown(raw, mode === "MarkdownV2" ? "v2" : "legacy");
  parsed.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return parsed;
}

const byteOffset = (raw: string, index: number): number => Buffer.byteLength(raw.slice(0, index));

// ---------------------------------------------------------------- HTML

const simpleHtmlTags: Record<string, MessageEntity.CommonMessageEntity["type"]> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  code: "code",
};

interface OpenHtmlTag {
  name: string;
  start: number;
  attributes: Record<string, string>;
}

function parseHtml(raw: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenHtmlTag[] = [];
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === "&") {
      const match = /^&(lt|gt|amp|quot|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/.exec(
        raw.slice(i, i + 12),
      );
      if (match) {
        text += decodeHtmlEntity(match[1]!, match[2], match[3]);
        i += match[0].length;
        continue;
      }
      text += ch;
      i++;
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i++;
      continue;
    }
    const close = raw.indexOf(">", i);
    if (close === -1) {
      throw new EntityParseError(
        `Can't find end of the tag starting at byte offset ${byteOffset(raw, i)}`,
      );
    }
    const inner = raw.slice(i + 1, close);
    if (inner.startsWith("/")) {
      const name = inner.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (!open || (name !== "" && name !== open.name)) {
        throw new EntityParseError(
          open
            ? `Unmatched end tag at byte offset ${byteOffset(raw, i)}, expected "</${open.name}>", found "<${inner}>"`
            : `Unexpected end tag at byte offset ${byteOffset(raw, i)}`,
        );
      }
      closeHtmlTag(open, text.length, stack, entities);
    } else {
      stack.push(openHtmlTag(raw, i, inner, text.length));
    }
    i = close + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) {
    throw new EntityParseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  }
  return { text, entities };
}

function decodeHtmlText(value: string): string {
  return value.replace(
    /&(lt|gt|amp|quot|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g,
    (_all: string, name: string, decimal?: string, hex?: string) =>
      decodeHtmlEntity(name, decimal, hex),
  );
}

function decodeHtmlEntity(name: string, decimal?: string, hex?: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
  if (name in named) return named[name]!;
  const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? "", 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

function openHtmlTag(raw: string, at: number, inner: string, start: number): OpenHtmlTag {
  const nameMatch = /^([a-zA-Z][a-zA-Z0-9-]*)/.exec(inner);
  if (!nameMatch) {
    throw new EntityParseError(
      `Unsupported start tag "${inner.split(/\s/)[0] ?? ""}" at byte offset ${byteOffset(raw, at)}`,
    );
  }
  const name = nameMatch[1]!.toLowerCase();
  const attributes: Record<string, string> = {};
  const attributePattern = /([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const attr of inner.slice(nameMatch[0].length).matchAll(attributePattern)) {
    attributes[attr[1]!.toLowerCase()] = decodeHtmlText(attr[2] ?? attr[3] ?? attr[4] ?? "");
  }
  const supported =
    name in simpleHtmlTags ||
    name === "a" ||
    name === "pre" ||
    name === "blockquote" ||
    name === "tg-emoji" ||
    (name === "span" && attributes.class === "tg-spoiler");
  if (!supported) {
    throw new EntityParseError(
      `Unsupported start tag "${name}" at byte offset ${byteOffset(raw, at)}`,
    );
  }
  return { name, start, attributes };
}

function closeHtmlTag(
  tag: OpenHtmlTag,
  end: number,
  stack: OpenHtmlTag[],
  entities: MessageEntity[],
): void {
  const length = end - tag.start;
  if (length === 0) return; // Telegram drops empty entities.
  const base = { offset: tag.start, length };
  const simple = simpleHtmlTags[tag.name];
  if (tag.name === "code" && stack.at(-1)?.name === "pre") {
    // <pre><code class="language-x"> is one pre entity carrying the language.
    const language = /^language-(.+)$/.exec(tag.attributes.class ?? "")?.[1];
    if (language) stack.at(-1)!.attributes["data-language"] = language;
    return;
  }
  if (simple) entities.push({ ...base, type: simple });
  else if (tag.name === "span") entities.push({ ...base, type: "spoiler" });
  else if (tag.name === "a" && tag.attributes.href)
    entities.push({ ...base, type: "text_link", url: tag.attributes.href });
  else if (tag.name === "pre") {
    const language = tag.attributes["data-language"];
    entities.push(language ? { ...base, type: "pre", language } : { ...base, type: "pre" });
  } else if (tag.name === "blockquote")
    entities.push({
      ...base,
      type: "expandable" in tag.attributes ? "expandable_blockquote" : "blockquote",
    });
  else if (tag.name === "tg-emoji" && tag.attributes["emoji-id"])
    entities.push({ ...base, type: "custom_emoji", custom_emoji_id: tag.attributes["emoji-id"] });
}

// ---------------------------------------------------------------- Markdown

const reservedV2 = new Set("_*[]()~`>#+-=|{}.!");

type MarkdownMarker = "*" | "_" | "__" | "~" | "||" | "[";

const markerEntity: Record<
  Exclude<MarkdownMarker, "[">,
  MessageEntity.CommonMessageEntity["type"]
> = {
  "*": "bold",
  _: "italic",
  __: "underline",
  "~": "strikethrough",
  "||": "spoiler",
};

interface OpenMarker {
  marker: MarkdownMarker;
  start: number;
  rawIndex: number;
}

function parseMarkdown(raw: string, flavour: "v2" | "legacy"): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenMarker[] = [];
  const v2 = flavour === "v2";
  const unclosed = (rawIndex: number) =>
    new EntityParseError(
      `Can't find end of the entity starting at byte offset ${byteOffset(raw, rawIndex)}`,
    );
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === "\\" && i + 1 < raw.length && (v2 || "_*`[".includes(raw[i + 1]!))) {
      text += raw[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const block = raw.startsWith("```", i);
      const fence = block ? "```" : "`";
      const end = findClosingFence(raw, i + fence.length, fence, v2);
      if (end === -1) throw unclosed(i);
      let body = raw.slice(i + fence.length, end);
      let language: string | undefined;
      if (block) {
        const firstLine = /^([^\s`]+)\n/.exec(body);
        if (firstLine) {
          language = firstLine[1];
          body = body.slice(firstLine[0].length);
        } else if (body.startsWith("\n")) body = body.slice(1);
      }
      if (v2) body = body.replace(/\\([\\`])/g, "$1");
      const offset = text.length;
      text += body;
      if (body.length > 0) {
        entities.push(
          !block
            ? { type: "code", offset, length: body.length }
            : language
              ? { type: "pre", offset, length: body.length, language }
              : { type: "pre", offset, length: body.length },
        );
      }
      i = end + fence.length;
      continue;
    }
    if (ch === "]" && stack.some((m) => m.marker === "[")) {
      const open = stack.pop();
      if (open?.marker !== "[") throw unclosed(open?.rawIndex ?? i);
      if (raw[i + 1] !== "(") {
        if (v2) throw reservedError(ch);
        text = `${text.slice(0, open.start)}[${text.slice(open.start)}]`;
        i++;
        continue;
      }
      const urlEnd = findUrlEnd(raw, i + 2);
      if (urlEnd === -1) throw unclosed(open.rawIndex);
      const url = raw.slice(i + 2, urlEnd).replace(/\\([\\)])/g, "$1");
      if (text.length > open.start) {
        entities.push({
          type: "text_link",
          offset: open.start,
          length: text.length - open.start,
          url,
        });
      }
      i = urlEnd + 1;
      continue;
    }
    const marker = readMarker(raw, i, v2);
    if (marker) {
      const openIndex = stack.findIndex((m) => m.marker === marker);
      if (marker !== "[" && openIndex !== -1) {
        const [open] = stack.splice(openIndex, 1);
        if (text.length > open!.start) {
          entities.push({
            type: markerEntity[marker],
            offset: open!.start,
            length: text.length - open!.start,
          });
        }
      } else {
        stack.push({ marker, start: text.length, rawIndex: i });
      }
      i += marker.length;
      continue;
    }
    if (v2 && ch === ">" && (i === 0 || raw[i - 1] === "\n")) {
      // A quote runs to the end of its line; consecutive quoted lines form one block quote.
      const start = text.length;
      const previous = entities.at(-1);
      const extend =
        previous?.type === "blockquote" && previous.offset + previous.length + 1 === start;
      i++;
      const lineEnd = raw.indexOf("\n", i);
      const line = parseMarkdown(raw.slice(i, lineEnd === -1 ? raw.length : lineEnd), "v2");
      text += line.text;
      for (const entity of line.entities)
        entities.push({ ...entity, offset: entity.offset + start });
      if (extend && previous) previous.length = text.length - previous.offset;
      else if (line.text.length > 0)
        entities.push({ type: "blockquote", offset: start, length: line.text.length });
      i = lineEnd === -1 ? raw.length : lineEnd;
      continue;
    }
    if (v2 && reservedV2.has(ch)) throw reservedError(ch);
    text += ch;
    i++;
  }
  const open = stack.pop();
  if (open) throw unclosed(open.rawIndex);
  return { text, entities };
}

function reservedError(ch: string): EntityParseError {
  return new EntityParseError(
    `Character '${ch}' is reserved and must be escaped with the preceding '\\'`,
  );
}

function readMarker(raw: string, i: number, v2: boolean): MarkdownMarker | undefined {
  const ch = raw[i];
  if (ch === "*" || ch === "[") return ch;
  if (ch === "_") return v2 && raw[i + 1] === "_" ? "__" : "_";
  if (!v2) return undefined;
  if (ch === "~") return "~";
  if (ch === "|" && raw[i + 1] === "|") return "||";
  return undefined;
}

function findClosingFence(raw: string, from: number, fence: string, v2: boolean): number {
  for (let j = from; j < raw.length; j++) {
    if (v2 && raw[j] === "\\") {
      j++;
      continue;
    }
    if (raw.startsWith(fence, j)) return j;
  }
  return -1;
}

function findUrlEnd(raw: string, from: number): number {
  for (let j = from; j < raw.length; j++) {
    if (raw[j] === "\\") {
      j++;
      continue;
    }
    if (raw[j] === ")") return j;
  }
  return -1;
}
