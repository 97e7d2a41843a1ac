// A multipart/form-data body as the Bot API reads it (grammY switches to multipart to upload a
// file: sendDocument with an InputFile). Fields are text; a file part stands in for the field that
// names it `attach://<part name>`. Read here rather than with Request.formData(): grammY writes
// `filename=` unquoted and the part headers without spaces, which Telegram accepts.

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
