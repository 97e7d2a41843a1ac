// Reads Bot API parameters the ways Telegram accepts them: query string, JSON body,
// application/x-www-form-urlencoded and multipart/form-data. grammY writes multipart headers
// as `content-disposition:form-data;name="x"` (no spaces, unquoted filename), which the
// platform's FormData parser rejects, hence the small tolerant parser below.

/** A file part of a multipart upload; the emulator keeps only its description. */
export interface UploadedFile {
  upload: true;
  filename: string;
  size: number;
}

export type RawParams = Record<string, unknown>;

export class ParamsError extends Error {}

// Fields Telegram expects as JSON-serialised strings in form submissions.
const jsonFields = new Set([
  "reply_markup",
  "reply_parameters",
  "entities",
  "caption_entities",
  "link_preview_options",
  "commands",
  "scope",
  "menu_button",
  "allowed_updates",
  "media",
  "message_ids",
]);

export async function readParams(request: Request): Promise<RawParams> {
  const url = new URL(request.url);
  const params: RawParams = {};
  for (const [key, value] of url.searchParams) params[key] = value;
  if (request.method === "GET" || request.method === "HEAD") return decodeJsonFields(params);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const body = Buffer.from(await request.arrayBuffer());
  if (body.length === 0) return decodeJsonFields(params);
  if (type.startsWith("multipart/form-data")) {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(
      request.headers.get("content-type") ?? "",
    );
    const name = boundary?.[1] ?? boundary?.[2];
    if (!name) throw new ParamsError("multipart body without boundary");
    Object.assign(params, parseMultipart(body, name));
    return decodeJsonFields(params);
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [key, value] of new URLSearchParams(body.toString("utf8"))) params[key] = value;
    return decodeJsonFields(params);
  }
  // Telegram treats anything else as JSON; grammY always sends application/json.
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ParamsError("can't parse JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ParamsError("JSON body must be an object");
  }
  return { ...params, ...(parsed as RawParams) };
}

function decodeJsonFields(params: RawParams): RawParams {
  for (const [key, value] of Object.entries(params)) {
    if (!jsonFields.has(key) || typeof value !== "string") continue;
    try {
      params[key] = JSON.parse(value);
    } catch {
      throw new ParamsError(`can't parse ${key} JSON object`);
    }
  }
  return params;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

export function parseMultipart(body: Buffer, boundary: string): RawParams {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: RawParams = {};
  const files = new Map<string, UploadedFile>();
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    let start = position + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing "--"
    if (body.subarray(start, start + 2).equals(CRLF)) start += 2;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    let end = next;
    if (body.subarray(end - 2, end).equals(CRLF)) end -= 2;
    const part = body.subarray(start, end);
    const headerEnd = part.indexOf(HEADER_END);
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const content = part.subarray(headerEnd + HEADER_END.length);
      const disposition = /content-disposition\s*:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
      const name = /name\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(
        disposition.replace(/filename\s*=\s*(?:"[^"]*"|[^;\s]+)/i, ""),
      );
      const filename = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
      const key = name?.[1] ?? name?.[2];
      if (key !== undefined) {
        if (filename) {
          files.set(key, {
            upload: true,
            filename: filename[1] ?? filename[2] ?? "",
            size: content.length,
          });
        } else {
          fields[key] = content.toString("utf8");
        }
      }
    }
    position = next;
  }
  // grammY names a file part with a random id and refers to it as "attach://<id>".
  const referenced = new Set<string>();
  for (const [key, value] of Object.entries(fields)) {
    const attached = typeof value === "string" && /^attach:\/\/(.+)$/.exec(value)?.[1];
    if (attached && files.has(attached)) {
      fields[key] = files.get(attached);
      referenced.add(attached);
    }
  }
  for (const [key, file] of files) if (!referenced.has(key) && !(key in fields)) fields[key] = file;
  return fields;
}
