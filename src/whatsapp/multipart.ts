// A multipart/form-data body as grammY writes it to upload a file (sendDocument, sendPhoto with an
// InputFile): read by the WhatsApp router, which carries it out on WhatsApp, and by the Bot API
// emulator (dev/). Fields are text; a file part stands in for the field that names it
// `attach://<part name>`. A reader of its own, since grammY writes `filename=` unquoted and the
// part headers without spaces, which Telegram accepts.

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

/** A file as the call log shows it: its name and size, not its bytes. */
function uploaded(filename: string, bytes: Uint8Array): UploadedFile {
  const file = { filename, bytes };
  Object.defineProperty(file, "toJSON", {
    value: () => ({ filename, size: bytes.length }),
    enumerable: false,
  });
  return file;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The parts of a multipart body: text fields, and files by part name. */
export function parseMultipart(
  body: Uint8Array,
  contentType: string,
): { fields: Record<string, string>; files: Record<string, UploadedFile> } | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return null;
  const delimiter = new TextEncoder().encode(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  const dec = new TextDecoder();
  let at = indexOf(body, delimiter, 0);
  if (at < 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    if (body[start] === 45 && body[start + 1] === 45) break; // "--": the closing delimiter
    const headEnd = indexOf(body, new TextEncoder().encode("\r\n\r\n"), start);
    const next = indexOf(body, delimiter, start);
    if (headEnd < 0 || next < 0) return null;
    const head = dec.decode(body.subarray(start, headEnd));
    const content = body.subarray(headEnd + 4, next - 2); // the CRLF before the delimiter
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    const filename = /filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(head);
    if (name !== undefined) {
      if (filename) files[name] = uploaded(filename[1] ?? filename[2] ?? "", content.slice());
      else fields[name] = dec.decode(content);
    }
    at = next;
  }
  return { fields, files };
}

/**
 * A Bot API call's multipart body as its payload: fields parsed from JSON where they are objects
 * (reply_markup), `attach://<part>` replaced by the uploaded file. Null when it is not multipart.
 */
export function multipartPayload(
  body: Uint8Array,
  contentType: string,
): Record<string, unknown> | null {
  const parsed = parseMultipart(body, contentType);
  if (!parsed) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed.fields)) {
    const attached = /^attach:\/\/(.+)$/.exec(value);
    if (attached) out[key] = parsed.files[attached[1] as string] ?? value;
    else if (/^[[{]/.test(value)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else out[key] = value;
  }
  return out;
}
