import { cutLabel, fitTitles, graphemes, looksLikeAmount, wasCut } from "./labels.ts";
import type { NumberedChoice } from "./typed-choice.ts";
import type { WaListRow, WaOutbound } from "./types.ts";

/**
 * One Bot API message (its text and inline keyboard) as WhatsApp Cloud API messages, within the
 * Cloud API's limits (../../shared/spec/whatsapp-notes.md §2): no buttons -> text, 1-3 -> reply
 * buttons, 4-10 -> one list, more -> several lists. Nothing is dropped: a text too long for a body
 * goes ahead as text messages, and every button becomes exactly one button or row. Pure and
 * deterministic, so the channel can re-render a message and get the same bodies.
 */

export { fitTitles } from "./labels.ts";
export { type NumberedChoice, typedChoice } from "./typed-choice.ts";

export interface RenderInput {
  /** The message text (plain; the bot uses no parse_mode). */
  text: string;
  /** The inline keyboard's callback buttons, by row; [] for none. */
  rows: { label: string; data: string }[][];
  /** The list's opener label in the chat's language (e.g. "Choose"); fitted to 20. */
  opener: string;
  /**
   * false: never number list rows, for a question that takes typed numbers the labels do not
   * show (a month typed as "3"). Default: numbered unless a label reads as an amount.
   */
  numbered?: boolean;
}

export interface Rendered {
  /** In send order; usually one. */
  messages: WaOutbound[];
  /** When list rows are numbered: typing `n` means that button. [] otherwise. */
  choices: NumberedChoice[];
}

/** The Cloud API's limits the renderer keeps (whatsapp-notes.md §2). */
export const LIMITS = {
  text: 4096,
  body: 1024,
  buttons: 3,
  buttonTitle: 20,
  rows: 10,
  rowTitle: 24,
  description: 72,
  opener: 20,
} as const;

/** What the later list messages of a long keyboard say: the first one carries the text. */
const MORE_BODY = "…";

type Button = { label: string; data: string };

/** The keyboard's own navigation (Back, Cancel, paging): kept in the last message, never an answer. */
export function isNavigation(data: string): boolean {
  return data === "bk" || data === "x" || data.startsWith("p:");
}

/** Where to cut `text` (longer than `max`): a line break, else a space, else between graphemes. */
function cutPoint(text: string, max: number): number {
  const line = text.lastIndexOf("\n", max);
  let space = -1;
  for (let i = Math.min(max, text.length - 1); i > 0; i--) {
    if (/\s/u.test(text[i] ?? "")) {
      space = i;
      break;
    }
  }
  // A break in the first half would leave a short message and one more to send: prefer a later one.
  const half = max / 2;
  if (line >= half) return line;
  if (space >= half) return space;
  if (line > 0) return line;
  if (space > 0) return space;
  let at = 0;
  for (const g of graphemes(text)) {
    if (at + g.length > max) break;
    at += g.length;
  }
  return at > 0 ? at : max;
}

/**
 * `text` in pieces of at most `max` units, cut at line breaks (else at spaces, never inside a
 * grapheme when avoidable); only whitespace at the cuts is dropped. Blank text gives no pieces.
 */
export function splitText(text: string, max: number = LIMITS.text): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const at = cutPoint(rest, max);
    const piece = rest.slice(0, at).trimEnd();
    if (piece.trim() !== "") pieces.push(piece);
    rest = rest.slice(at).replace(/^\s+/u, "");
  }
  if (rest.trim() !== "") pieces.push(rest);
  return pieces;
}

/** The first index >= `from` where a tail of `text` may start: after a line break, a space, or a grapheme. */
function tailStart(text: string, from: number): number {
  const line = text.indexOf("\n", from - 1);
  if (line >= 0 && line < text.length - 1) return line + 1;
  for (let i = Math.max(from, 1); i < text.length; i++) {
    if (/\s/u.test(text[i - 1] ?? "") && !/\s/u.test(text[i] ?? "")) return i;
  }
  let at = 0;
  for (const g of graphemes(text)) {
    if (at >= from) return at;
    at += g.length;
  }
  return from;
}

/**
 * An interactive message's body (1..1024) and the text to send before it. A text that fits is
 * the body; a longer one goes ahead as text messages except its last paragraph, which becomes
 * the body (or, when that paragraph alone is too long, as much of its end as fits).
 */
export function splitBody(text: string): { lead: string[]; body: string } {
  const whole = text.trimEnd();
  if (whole.trim() === "") return { lead: [], body: MORE_BODY };
  if (whole.length <= LIMITS.body) return { lead: [], body: whole };
  const breaks = [...whole.matchAll(/\n[^\S\n]*\n\s*/gu)];
  const last = breaks.at(-1);
  let start: number;
  if (last?.index !== undefined && whole.length - (last.index + last[0].length) <= LIMITS.body) {
    start = last.index + last[0].length;
  } else {
    start = tailStart(whole, whole.length - LIMITS.body);
  }
  return {
    lead: splitText(whole.slice(0, start).trimEnd()),
    body: whole.slice(start).trim() || MORE_BODY,
  };
}

const textMessage = (body: string): WaOutbound => ({
  type: "text",
  text: { body, preview_url: false },
});

function replyButtons(text: string, buttons: Button[]): WaOutbound[] {
  const { lead, body } = splitBody(text);
  const titles = fitTitles(
    buttons.map((b) => b.label),
    LIMITS.buttonTitle,
  );
  const message: WaOutbound = {
    type: "interactive",
    interactive: {
      type: "button",
      body: { text: body },
      action: {
        buttons: buttons.map((b, i) => ({
          type: "reply",
          reply: { id: b.data, title: titles[i] ?? "…" },
        })),
      },
    },
  };
  return [...lead.map(textMessage), message];
}

/**
 * The buttons in lists of at most 10 rows, navigation (Back, Cancel, paging) in the last one.
 * Ten or fewer stay in their own order; more keep answers first and navigation at the end.
 */
export function listChunks<B extends Button>(buttons: B[]): B[][] {
  if (buttons.length <= LIMITS.rows) return [buttons];
  const nav = buttons.filter((b) => isNavigation(b.data));
  const ordered = [...buttons.filter((b) => !isNavigation(b.data)), ...nav];
  const count = Math.ceil(ordered.length / LIMITS.rows);
  const remainder = ordered.length - LIMITS.rows * (count - 1);
  const lastSize = Math.min(LIMITS.rows, Math.max(nav.length, remainder));
  const front = ordered.slice(0, ordered.length - lastSize);
  const chunks: B[][] = [];
  for (let i = 0; i < front.length; i += LIMITS.rows) chunks.push(front.slice(i, i + LIMITS.rows));
  chunks.push(ordered.slice(ordered.length - lastSize));
  return chunks;
}

/** One list's rows; numbered from `first` when `numbered`. */
function listRows(chunk: Button[], numbered: boolean, first: number): WaListRow[] {
  const describe = (label: string, title: string): Partial<WaListRow> =>
    wasCut(label, title) && label.trim() !== ""
      ? { description: cutLabel(label, LIMITS.description) }
      : {};
  if (!numbered) {
    const titles = fitTitles(
      chunk.map((b) => b.label),
      LIMITS.rowTitle,
    );
    return chunk.map((b, i) => {
      const title = titles[i] ?? "…";
      return { id: b.data, title, ...describe(b.label, title) };
    });
  }
  return chunk.map((b, i) => {
    const prefix = `${first + i}. `;
    const fitted = cutLabel(b.label, LIMITS.rowTitle - prefix.length);
    return { id: b.data, title: prefix + fitted, ...describe(b.label, fitted) };
  });
}

function listMessages(input: RenderInput, buttons: Button[]): Rendered {
  const answers = buttons.filter((b) => !isNavigation(b.data));
  const numbered = input.numbered !== false && !answers.some((b) => looksLikeAmount(b.label));
  const opener = fitTitles([input.opener], LIMITS.opener)[0] ?? "…";
  const { lead, body } = splitBody(input.text);
  const messages: WaOutbound[] = lead.map(textMessage);
  const choices: NumberedChoice[] = [];
  let next = 1;
  for (const [i, chunk] of listChunks(buttons).entries()) {
    const rows = listRows(chunk, numbered, next);
    if (numbered) {
      chunk.forEach((b, j) => {
        choices.push({ n: next + j, data: b.data, label: b.label });
      });
    }
    next += chunk.length;
    messages.push({
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: i === 0 ? body : MORE_BODY },
        action: { button: opener, sections: [{ rows }] },
      },
    });
  }
  return { messages, choices };
}

/**
 * One button per callback data: WhatsApp refuses a message whose ids repeat, and a keyboard may
 * repeat one (a pager of two pages: "‹" and "›" both lead to the other page). The last one
 * stays, in its place: "›" reads as "more".
 */
export function uniqueButtons<B extends Button>(buttons: B[]): B[] {
  return buttons.filter((b, i) => !buttons.slice(i + 1).some((later) => later.data === b.data));
}

/** The WhatsApp messages that say what one Bot API message says, and the typed numbers they offer. */
export function renderMessage(input: RenderInput): Rendered {
  const buttons = uniqueButtons(input.rows.flat());
  if (buttons.length === 0)
    return { messages: splitText(input.text).map(textMessage), choices: [] };
  if (buttons.length <= LIMITS.buttons) {
    return { messages: replyButtons(input.text, buttons), choices: [] };
  }
  return listMessages(input, buttons);
}
