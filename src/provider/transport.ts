import { setTimeout as delay } from "node:timers/promises";
import { Agent, type Dispatcher, request } from "undici";
import type { z } from "zod";
import {
  ProviderAuthError,
  ProviderError,
  ProviderInvalidRequestError,
  ProviderMalformedResponseError,
  ProviderNetworkError,
  ProviderRateLimitedError,
  ProviderRejectedError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from "./errors.ts";
import { parseJsonPreservingBigInts } from "./json.ts";
import { messageOf, readEnvelope } from "./schemas.ts";

/**
 * One HTTP exchange with the aggregator and everything around it that is not about an endpoint:
 * timeouts, the body cap, the token's redaction, HTTP status -> typed error, and the retry policy
 * of the calls that may be repeated (every one but execute, see execute.ts).
 */

export interface ProviderLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export type Method = "GET" | "POST";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** How an endpoint reads a refusal (a 4xx other than 401/429, or a 2xx error envelope). */
export type Refusal = (endpoint: string, raw: RawResponse, json: unknown) => ProviderError;

export interface TransportOptions {
  baseUrl: string;
  token: string;
  lookupTimeoutMs: number;
  maxRetries: number;
  backoffBaseMs: number;
  maxBackoffMs: number;
  maxRetryAfterMs: number;
  maxResponseBytes: number;
  logger: ProviderLogger | undefined;
  dispatcher: Dispatcher | undefined;
  sleep: ((ms: number) => Promise<void>) | undefined;
  random: (() => number) | undefined;
}

/** Thrown inside send when the body exceeds the cap; mapped to a malformed response. */
class BodyTooLarge extends Error {}

const MESSAGE_LIMIT = 300;

/** Retry-After as milliseconds: delta-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // HTTP-dates start with the day name ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 850, asctime)
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

export type Transport = ReturnType<typeof createTransport>;

/** What one exchange needs: where, with which token, through which connections, how much. */
interface Wire {
  baseUrl: string;
  token: string;
  dispatcher: Dispatcher;
  maxResponseBytes: number;
  logger: ProviderLogger | undefined;
  /** Redacts the token and clips: what may reach a message or a log line. */
  clean: (text: string) => string;
}

export function createTransport(opts: TransportOptions) {
  let base: URL;
  try {
    base = new URL(opts.baseUrl);
  } catch {
    throw new TypeError("provider baseUrl is not a URL");
  }
  const { token, logger } = opts;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const random = opts.random ?? Math.random;
  const ownsDispatcher = opts.dispatcher === undefined;
  const wire: Wire = {
    baseUrl: `${base.origin}${base.pathname.replace(/\/+$/, "")}`,
    token,
    dispatcher:
      opts.dispatcher ??
      new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, connections: 32 }),
    maxResponseBytes: opts.maxResponseBytes,
    logger,
    clean: cleaner(token),
  };
  const { clean } = wire;

  /** How long to wait before retry number `n` (0-based) after `error`; null: do not retry. */
  function retryDelay(error: ProviderError, n: number): number | null {
    if (!error.retryable || n >= opts.maxRetries) return null;
    if (error instanceof ProviderRateLimitedError && error.retryAfterMs !== null) {
      return error.retryAfterMs <= opts.maxRetryAfterMs ? error.retryAfterMs : null;
    }
    return Math.floor(random() * Math.min(opts.maxBackoffMs, opts.backoffBaseMs * 2 ** n));
  }

  /** A repeatable call: typed errors, bounded retries with backoff (or the provider's Retry-After). */
  async function call<S extends z.ZodType>(
    method: Method,
    path: string,
    body: unknown,
    schema: S,
    refusal?: Refusal,
  ): Promise<z.output<S>> {
    for (let n = 0; ; n++) {
      try {
        const raw = await send(wire, method, path, body, opts.lookupTimeoutMs);
        return readAnswer(wire, `${method} ${path}`, raw, schema, refusal);
      } catch (err) {
        const error = asProviderError(err, `${method} ${path}`, clean);
        const wait = retryDelay(error, n);
        const fields = { endpoint: error.endpoint, kind: error.kind, httpStatus: error.httpStatus };
        if (wait === null) {
          logger?.warn({ ...fields, attempts: n + 1 }, "provider call failed");
          throw error;
        }
        logger?.warn(
          { ...fields, attempt: n + 1, retryInMs: wait },
          "provider call failed; retrying",
        );
        await sleep(wait);
      }
    }
  }

  return {
    send: (method: Method, path: string, body: unknown, timeoutMs: number) =>
      send(wire, method, path, body, timeoutMs),
    call,
    clean,
    parseBody,
    providerMessageOf: (text: string) => providerMessageOf(text, clean),
    errorForStatus: (endpoint: string, raw: RawResponse) => errorForStatus(endpoint, raw, clean),
    zodDetail: (error: z.ZodError) => zodDetail(error, clean),
    /** The caller's arguments, or ProviderInvalidRequestError (then nothing is sent). */
    validate<S extends z.ZodType>(endpoint: string, schema: S, value: unknown): z.output<S> {
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        throw new ProviderInvalidRequestError({ endpoint, detail: zodDetail(parsed.error, clean) });
      }
      return parsed.data;
    },
    asProviderError: (err: unknown, endpoint: string) => asProviderError(err, endpoint, clean),
    /** Destroys the transport's own dispatcher (an injected one is left to its owner). */
    async close() {
      if (ownsDispatcher) await wire.dispatcher.destroy();
    },
  };
}

/** The token must never reach a message or a log line, even if the provider echoes it. */
function cleaner(token: string): (text: string) => string {
  const redact = (text: string): string =>
    token.length > 0 ? text.split(token).join("[redacted]") : text;
  const clip = (text: string): string =>
    text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : text;
  return (text) => clip(redact(text));
}

/** One HTTP exchange, body read completely within the timeout. */
async function send(
  wire: Wire,
  method: Method,
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<RawResponse> {
  const endpoint = `${method} ${path}`;
  const headers: Record<string, string> = {
    "x-auth-token": wire.token,
    accept: "application/json",
  };
  if (method === "POST") headers["content-type"] = "application/json";
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const started = Date.now();
  try {
    const res = await request(`${wire.baseUrl}${path}`, {
      method,
      headers,
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
      dispatcher: wire.dispatcher,
      signal: controller.signal,
    });
    const text = await readCapped(res.body, wire.maxResponseBytes);
    wire.logger?.debug(
      { endpoint, httpStatus: res.statusCode, durationMs: Date.now() - started },
      "provider response",
    );
    return { status: res.statusCode, headers: res.headers, text };
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      throw new ProviderMalformedResponseError({
        endpoint,
        detail: `body larger than ${wire.maxResponseBytes} bytes`,
      });
    }
    if (timedOut) throw new ProviderTimeoutError({ endpoint, timeoutMs });
    throw new ProviderNetworkError({ endpoint, detail: wire.clean(networkDetail(err)) });
  } finally {
    clearTimeout(timer);
  }
}

/** The whole body as text, or BodyTooLarge as soon as it passes the cap (the rest is not read). */
async function readCapped(
  body: AsyncIterable<unknown> & { destroy(): unknown },
  maxBytes: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > maxBytes) {
      body.destroy();
      throw new BodyTooLarge();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON of a body, or a reason why it is not JSON. */
function parseBody(text: string): { ok: true; json: unknown } | { ok: false; detail: string } {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") return { ok: false, detail: "empty body" };
  try {
    return { ok: true, json: parseJsonPreservingBigInts(trimmed) };
  } catch {
    return {
      ok: false,
      detail: trimmed.startsWith("<") ? "HTML instead of JSON" : "body is not JSON",
    };
  }
}

function providerMessageOf(text: string, clean: (t: string) => string): string | undefined {
  const parsed = parseBody(text);
  const message = parsed.ok ? messageOf(parsed.json) : null;
  return message === null ? undefined : clean(message);
}

/** The error a non-2xx response stands for. */
function errorForStatus(
  endpoint: string,
  raw: RawResponse,
  clean: (t: string) => string,
): ProviderError {
  const init = {
    endpoint,
    httpStatus: raw.status,
    providerMessage: providerMessageOf(raw.text, clean),
  };
  if (raw.status === 401) return new ProviderAuthError(init);
  if (raw.status === 429) {
    return new ProviderRateLimitedError({
      ...init,
      retryAfterMs: parseRetryAfter(raw.headers["retry-after"]),
    });
  }
  if (raw.status >= 400 && raw.status < 500) return new ProviderRejectedError(init);
  if (raw.status >= 500 && raw.status < 600) return new ProviderUnavailableError(init);
  return new ProviderMalformedResponseError({ ...init, detail: "unexpected HTTP status" });
}

function zodDetail(error: z.ZodError, clean: (t: string) => string): string {
  return clean(
    flattenIssues(error.issues, [])
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; "),
  );
}

function asProviderError(
  err: unknown,
  endpoint: string,
  clean: (t: string) => string,
): ProviderError {
  if (err instanceof ProviderError) return err;
  // Not expected: every path above throws typed errors. Keep the promise of "never raw".
  const detail = err instanceof Error ? err.message : String(err);
  return new ProviderMalformedResponseError({ endpoint, detail: clean(detail) });
}

/** One attempt's answer: the success envelope's data read by `schema`, or a typed error. */
function readAnswer<S extends z.ZodType>(
  wire: Wire,
  endpoint: string,
  raw: RawResponse,
  schema: S,
  refusal: Refusal | undefined,
): z.output<S> {
  const { clean } = wire;
  if (raw.status < 200 || raw.status >= 300) {
    const refused = raw.status >= 400 && raw.status < 500 && ![401, 429].includes(raw.status);
    if (!refusal || !refused) throw errorForStatus(endpoint, raw, clean);
    const parsed = parseBody(raw.text);
    throw refusal(endpoint, raw, parsed.ok ? parsed.json : undefined);
  }
  const parsed = parseBody(raw.text);
  const malformed = (detail: string) =>
    new ProviderMalformedResponseError({ endpoint, httpStatus: raw.status, detail });
  if (!parsed.ok) throw malformed(parsed.detail);
  const envelope = readEnvelope(parsed.json);
  if (envelope.outcome === "error") {
    if (refusal) throw refusal(endpoint, raw, parsed.json);
    throw new ProviderRejectedError({
      endpoint,
      httpStatus: raw.status,
      providerMessage: clean(envelope.message) || undefined,
    });
  }
  if (envelope.outcome === "unrecognised") {
    throw malformed("neither a success nor an error envelope");
  }
  const data = schema.safeParse(envelope.data);
  if (!data.success) throw malformed(zodDetail(data.error, clean));
  return data.data;
}

/** A short, secret-free description of a transport failure (error code and message). */
function networkDetail(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${code}: ${current.message}` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(" <- ") : String(err);
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/** Union failures name the first alternative's own issues, which say what was actually wrong. */
function flattenIssues(issues: readonly Issue[], prefix: PropertyKey[]): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    const first = issue.code === "invalid_union" ? issue.errors?.[0] : undefined;
    return first && first.length > 0 ? flattenIssues(first, path) : [{ ...issue, path }];
  });
}
