import type { ApiAnswer } from "./bot-api-failure.ts";
import { followSignal, untilAborted } from "./call-signal.ts";
import { multipartPayload } from "./multipart.ts";

/**
 * The Bot API client's `fetch` in front of the WhatsApp router: a call's method and payload read
 * from grammY's request (JSON, or the multipart of an upload), answered by the router, or handed on
 * to the real fetch when it is Telegram's ("pass").
 */

type Payload = Record<string, unknown>;
/** The router's answer to a call; `signal` aborts when the Bot API client gives up on it. */
export type Answer = (
  method: string,
  payload: Payload,
  signal?: AbortSignal,
) => Promise<ApiAnswer | "pass" | { pass: Payload }>;

const asResponse = (a: ApiAnswer) =>
  new Response(JSON.stringify(a), { headers: { "content-type": "application/json" } });

/** A header name `Headers` accepts (an HTTP token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * Whether `Headers` keeps a value as it is: bytes (no character above U+00FF), no NUL, CR or LF,
 * no space or tab at either end.
 */
function keptValue(value: string): boolean {
  const ends = [value.charCodeAt(0), value.charCodeAt(value.length - 1)];
  if (value.length > 0 && ends.some((c) => c === 0x09 || c === 0x20)) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x00 || c === 0x0a || c === 0x0d || c > 0xff) return false;
  }
  return true;
}

/**
 * The header from a plain object of headers, as `new Headers(headers).get(name)` answers it, or
 * "unsure" when that might differ: a name in two spellings, a value `Headers` would trim or
 * refuse, a name it would refuse, a value not a string.
 */
function plainHeader(headers: Record<string, unknown>, name: string): string | null | "unsure" {
  const wanted = name.toLowerCase();
  let found: string | null = null;
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (!TOKEN.test(key) || typeof value !== "string" || !keptValue(value)) return "unsure";
    if (key.toLowerCase() !== wanted) continue;
    if (found !== null) return "unsure";
    found = value;
  }
  return found;
}

/**
 * A request header from fetch's init, whatever form grammY gave them in. grammY's JSON calls carry
 * a plain object of two headers: read there, since building a `Headers` for it (which validates
 * and copies every one) cost more than the rest of this wrapper on every Bot API call. Anything
 * else, or a plain object it cannot answer for certain, goes through `Headers` as before.
 */
export function headerOf(headers: RequestInit["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  if (Object.getPrototypeOf(headers) === Object.prototype) {
    const found = plainHeader(headers as Record<string, unknown>, name);
    if (found !== "unsure") return found ?? undefined;
  }
  return new Headers(headers).get(name) ?? undefined;
}

/** A request body (grammY's multipart stream) as bytes. */
async function bodyBytes(body: NonNullable<RequestInit["body"]>): Promise<Uint8Array> {
  if (typeof body === "object" && Symbol.asyncIterator in body) {
    const chunks: Uint8Array[] = [];
    for await (const c of body as AsyncIterable<Uint8Array | string>)
      chunks.push(typeof c === "string" ? Buffer.from(c) : c);
    return new Uint8Array(Buffer.concat(chunks));
  }
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * The answer, given up (its sends cut) when the Bot API client aborts the call: boundedRetry's
 * per-attempt timeout, which the notifier's send lock is sized on.
 */
async function answerUntil(answer: Answer, method: string, p: Payload, given: unknown) {
  const cut = followSignal(given);
  if (!cut) return answer(method, p);
  try {
    return await untilAborted(answer(method, p, cut.signal), cut.signal, method);
  } finally {
    cut.release();
  }
}

/**
 * Telegram's answer to a message carried to a released account's other chat: a refusal of that
 * chat (403: the bot blocked; 400 chat not found) is the carried chat's, not the address's, so it
 * becomes a 400 not delivered (dead-lettered, on the order's timeline), never a chat gone, which
 * would mark the released chat inactive and drop its account's later pushes unrecorded.
 */
async function carriedAnswer(r: Response): Promise<Response> {
  if (r.status !== 403 && r.status !== 400) return r;
  const a = (await r
    .clone()
    .json()
    .catch(() => null)) as { description?: unknown } | null;
  const said = typeof a?.description === "string" ? a.description : "";
  if (r.status === 400 && !/chat not found|user is deactivated|PEER_ID_INVALID/i.test(said))
    return r;
  return asResponse({
    ok: false,
    error_code: 400,
    description: `Bad Request: not delivered: the released account's other chat refused it (${r.status})`,
  });
}

export const botApiFetch =
  (answer: Answer) =>
  (real: typeof fetch): typeof fetch =>
    (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const method = url.slice(url.lastIndexOf("/") + 1);
      let payload: Payload = {};
      const type = headerOf(init?.headers, "content-type");
      if (type?.startsWith("multipart/form-data") && init?.body) {
        // grammY's upload (sendDocument): read once, handed on as bytes when it is Telegram's.
        const bytes = await bodyBytes(init.body);
        const parsed = multipartPayload(bytes, type);
        const a = parsed ? await answerUntil(answer, method, parsed, init.signal) : "pass";
        // The router hands an upload on only as it came (chat-calls.ts `telegramCarries`).
        if (a === "pass" || "pass" in a) return real(input, { ...init, body: bytes });
        return asResponse(a);
      }
      if (typeof init?.body === "string") {
        try {
          payload = JSON.parse(init.body) as Payload;
        } catch {
          return real(input, init);
        }
      }
      const a = await answerUntil(answer, method, payload, init?.signal);
      if (a === "pass") return real(input, init);
      // Handed on to another chat (a released WhatsApp account's Telegram chat: chat-calls.ts).
      if ("pass" in a)
        return carriedAnswer(await real(input, { ...init, body: JSON.stringify(a.pass) }));
      return asResponse(a);
    }) as typeof fetch;
