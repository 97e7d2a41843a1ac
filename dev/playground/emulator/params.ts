// Reads Bot API parameters: the query string and a JSON body, which is all grammY sends (it
// switches to multipart only to upload files, and the bot uploads none).

export type RawParams = Record<string, unknown>;

export class ParamsError extends Error {}

export async function readParams(request: Request): Promise<RawParams> {
  const params: RawParams = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method === "GET" || request.method === "HEAD") return params;
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
