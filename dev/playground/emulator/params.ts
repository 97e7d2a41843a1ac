// Reads Bot API parameters: the query string and a JSON body, or a multipart body (grammY's
// upload of a file: a document the bot sends). In multipart each field is text, JSON where it is
// an object (reply_markup), and `attach://<part>` stands for the uploaded part.
import { parseMultipart, type UploadedFile } from "../../../src/whatsapp/multipart.ts";

export type { UploadedFile } from "../../../src/whatsapp/multipart.ts";

export type RawParams = Record<string, unknown>;

export class ParamsError extends Error {}

export async function readParams(request: Request): Promise<RawParams> {
  const params: RawParams = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method === "GET" || request.method === "HEAD") return params;
  const type = request.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    return { ...params, ...multipartParams(new Uint8Array(await request.arrayBuffer()), type) };
  }
  const body = await request.text();
  if (body.trim() === "") return params;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ParamsError("can't parse JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ParamsError("JSON body must be an object");
  }
  return { ...params, ...(parsed as RawParams) };
}

/** A multipart body's fields, objects parsed from their JSON and attached files in their place. */
function multipartParams(body: Uint8Array, type: string): RawParams {
  const parsed = parseMultipart(body, type);
  if (!parsed) throw new ParamsError("can't parse multipart body");
  const out: RawParams = {};
  for (const [key, value] of Object.entries(parsed.fields)) {
    const attached = /^attach:\/\/(.+)$/.exec(value);
    if (attached) {
      const file: UploadedFile | undefined = parsed.files[attached[1] as string];
      if (!file) throw new ParamsError(`no part ${attached[1]} for ${key}`);
      out[key] = file;
    } else if (/^[[{]/.test(value)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else out[key] = value;
  }
  return out;
}
