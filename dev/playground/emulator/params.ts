// Reads Bot API parameters: the query string and a JSON body, or a multipart form, which grammY
// sends to upload a file (a shop's QR code): its text fields are read as Telegram reads them (a
// keyboard as JSON), its files as bytes, and "attach://<name>" names another part.

export type RawParams = Record<string, unknown>;

export class ParamsError extends Error {}

export async function readParams(request: Request): Promise<RawParams> {
  const params: RawParams = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method === "GET" || request.method === "HEAD") return params;
  if (request.headers.get("content-type")?.includes("multipart/form-data")) {
    return { ...params, ...(await readForm(request)) };
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

async function readForm(request: Request): Promise<RawParams> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new ParamsError("can't parse multipart body");
  }
  const parts = new Map<string, unknown>();
  for (const [name, value] of form.entries()) {
    parts.set(name, typeof value === "string" ? value : new Uint8Array(await value.arrayBuffer()));
  }
  const out: RawParams = {};
  for (const [name, value] of parts) {
    if (typeof value !== "string") {
      out[name] = value;
      continue;
    }
    const attached = /^attach:\/\/(.+)$/.exec(value)?.[1];
    if (attached !== undefined) out[name] = parts.get(attached);
    else if (/^[[{]/.test(value)) out[name] = jsonField(name, value);
    else out[name] = value;
  }
  return out;
}

function jsonField(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new ParamsError(`can't parse field ${name}`);
  }
}
