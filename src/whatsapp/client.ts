import { Counter, Histogram, type Registry } from "prom-client";
import { Agent, FormData, request } from "undici";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import { NEVER_CONNECTED } from "../telegram/api.ts";
import { parseMetaError, RETRYABLE_CODES, sentNothing, WhatsAppApiError } from "./errors.ts";
import type { WaOutbound } from "./types.ts";

export { WA_ERROR, WhatsAppApiError } from "./errors.ts";

export interface WhatsAppClientOptions {
  /** https://graph.facebook.com, or a stand-in. */
  apiRoot: string;
  /** Pinned, e.g. "v24.0". */
  apiVersion: string;
  phoneNumberId: string;
  /** The system user's token: sent in the Authorization header only, never logged. */
  accessToken: string;
  /** Per attempt, the answer's body included. */
  timeoutMs: number;
  /** Attempts in all (>= 1), for the failures that are safe to repeat. */
  attempts: number;
  /** The longest pause between two attempts. */
  maxBackoffMs: number;
  /**
   * Awaited before every attempt of a send: the integrator's throughput / pair-rate pacing. Gives
   * up when the send's signal aborts (the send then goes nowhere).
   */
  pace?: (to: string, signal?: AbortSignal) => Promise<void>;
  registry?: Registry;
  logger: Logger;
  now?: () => number;
}

export interface SendOptions {
  /** The wamid this message replies to (shown quoted). */
  context?: string;
  /** Echoed back on this message's status webhooks. */
  bizOpaque?: string;
  signal?: AbortSignal;
}

/** A file to upload as WhatsApp media (a document the chat sends: a receipt, a statement). */
export interface MediaFile {
  bytes: Uint8Array;
  filename: string;
  mimeType: string;
}

export interface WhatsAppClient {
  send(to: string, body: WaOutbound, opts?: SendOptions): Promise<{ wamid: string }>;
  /** POST /{phone-number-id}/media (multipart): the media id a `document` message then names. */
  upload(file: MediaFile): Promise<{ id: string }>;
  /** Marks a received message (and those before it) read; with `typing`, shows the indicator. */
  markRead(wamid: string, typing?: boolean): Promise<void>;
}

function neverConnected(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown; cause?: { code?: unknown } } };
  const code = e?.code ?? e?.cause?.code ?? e?.cause?.cause?.code;
  return typeof code === "string" && NEVER_CONNECTED.has(code);
}

const sendReplySchema = z.object({ messages: z.array(z.object({ id: z.string().min(1) })).min(1) });

function sendMetrics(registry: Registry | undefined) {
  if (!registry) return { done() {} };
  const reuse = <T>(name: string, make: () => T): T =>
    (registry.getSingleMetric(name) as T | undefined) ?? make();
  const sends = reuse(
    "whatsapp_sends_total",
    () =>
      new Counter({
        name: "whatsapp_sends_total",
        help: "WhatsApp sends by outcome (after retries)",
        labelNames: ["result"],
        registers: [registry],
      }),
  );
  const errors = reuse(
    "whatsapp_send_errors_total",
    () =>
      new Counter({
        name: "whatsapp_send_errors_total",
        help: "WhatsApp sends that failed, by Meta's error code (network, timeout or http_<status> without one)",
        labelNames: ["code"],
        registers: [registry],
      }),
  );
  const latency = reuse(
    "whatsapp_send_duration_seconds",
    () =>
      new Histogram({
        name: "whatsapp_send_duration_seconds",
        help: "Time of a WhatsApp send, retries and pacing included",
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [registry],
      }),
  );
  return {
    done(seconds: number, err?: unknown) {
      latency.observe(seconds);
      sends.inc({ result: err ? "error" : "ok" });
      if (err) errors.inc({ code: errorLabel(err) });
    },
  };
}

function errorLabel(err: unknown): string {
  if (!(err instanceof WhatsAppApiError)) return "other";
  if (err.code !== undefined) return String(err.code);
  if (err.status === 0) return err.mayHaveArrived ? "timeout_or_reset" : "network";
  return `http_${err.status}`;
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** One attempt's outcome: an answer (any status), or the request's own failure. */
type Attempt =
  | { kind: "answer"; status: number; body: unknown }
  | { kind: "failed"; timedOut: boolean; err: unknown };

interface CallSpec {
  payload: Record<string, unknown>;
  /** A media upload: sent as multipart to /media, in place of the JSON payload to /messages. */
  media?: MediaFile;
  /** Safe to repeat after a lost answer or a 5xx (mark-read); a send is not. */
  idempotent: boolean;
  /** Awaited before each attempt. */
  before?: (signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
}

/** What one attempt needs: where, with which token, how long, and how to tell it. */
interface Target {
  url: string;
  accessToken: string;
  timeoutMs: number;
  attempts: number;
}

/** An error message is built from Meta's and Node's texts: a token echoed there is cut out. */
const scrubbed = (t: Target, s: string) =>
  t.accessToken ? s.split(t.accessToken).join("[redacted]") : s;

/** Meta's media upload: the file, its type, and the product's name. */
function mediaForm(file: MediaFile): FormData {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", file.mimeType);
  form.set("file", new Blob([Buffer.from(file.bytes)], { type: file.mimeType }), file.filename);
  return form;
}

/** Connections to the Cloud API, kept alive between calls (as the global fetch's were). */
const POOL = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

async function attemptOnce(
  t: Target,
  payload: Record<string, unknown>,
  signal?: AbortSignal,
  media?: MediaFile,
): Promise<Attempt> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, t.timeoutMs);
  try {
    // undici's request on a kept-alive pool, not the global fetch: the same exchange at a fraction
    // of the CPU (no WHATWG Request/Response/stream objects; issue 31 profiled fetch at about a
    // fifth of a WhatsApp step's CPU).
    const res = await request(media ? t.url.replace(/\/messages$/, "/media") : t.url, {
      method: "POST",
      headers: media
        ? { authorization: `Bearer ${t.accessToken}` }
        : { authorization: `Bearer ${t.accessToken}`, "content-type": "application/json" },
      body: media ? mediaForm(media) : JSON.stringify(payload),
      signal: signal ? AbortSignal.any([ctl.signal, signal]) : ctl.signal,
      dispatcher: POOL,
    });
    // Meta does not redirect its API; a redirect would carry the token elsewhere: refused, as
    // fetch's redirect "error" refuses it (the request went out: it may have arrived).
    if (res.statusCode >= 300 && res.statusCode < 400) {
      await res.body.dump();
      throw new Error(`redirect refused (${res.statusCode})`);
    }
    // The body is read under the same timer: an answer that stalls mid-body is a lost answer.
    const text = await res.body.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { kind: "answer", status: res.statusCode, body };
  } catch (err) {
    return { kind: "failed", timedOut, err };
  } finally {
    clearTimeout(timer);
  }
}

/** The request's own failure: never connected (safe to repeat) or lost (may have arrived). */
function failureOf(t: Target, a: Attempt & { kind: "failed" }, n: number, idempotent: boolean) {
  const never = !a.timedOut && neverConnected(a.err);
  const why = a.timedOut
    ? `timed out after ${t.timeoutMs} ms`
    : scrubbed(t, a.err instanceof Error ? `${a.err.message}${causeOf(a.err)}` : String(a.err));
  const note = never || idempotent ? "" : "; not repeated: it may have arrived";
  return new WhatsAppApiError(
    `WhatsApp API request failed: ${why} (attempt ${n} of ${t.attempts}${note})`,
    { status: 0, mayHaveArrived: !never },
  );
}

/**
 * The pacing before an attempt (`before`). The caller's signal aborting, there or already, cuts
 * the call before this attempt goes out: nothing of it reached Meta (an earlier attempt is
 * repeated only when it did not reach Meta either).
 */
async function waitToSend(t: Target, spec: CallSpec, n: number): Promise<void> {
  const cut = () =>
    new WhatsAppApiError(
      `WhatsApp API request cut before it was sent (attempt ${n} of ${t.attempts})`,
      { status: 0, mayHaveArrived: false },
    );
  if (spec.signal?.aborted) throw cut();
  try {
    await spec.before?.(spec.signal);
  } catch (err) {
    if (spec.signal?.aborted) throw cut();
    throw err;
  }
  if (spec.signal?.aborted) throw cut();
}

/** A non-2xx answer, with Meta's code when its error body says one. */
function refusalOf(t: Target, a: Attempt & { kind: "answer" }, n: number) {
  const meta = parseMetaError(a.body);
  const sub = meta?.subcode !== undefined ? `/${meta.subcode}` : "";
  const codes = meta?.code !== undefined ? ` code ${meta.code}${sub}` : "";
  const text = meta?.message ? `: ${scrubbed(t, meta.message)}` : "";
  return new WhatsAppApiError(
    `WhatsApp API ${a.status}${codes}${text} (attempt ${n} of ${t.attempts})`,
    {
      status: a.status,
      code: meta?.code,
      subcode: meta?.subcode,
      details: meta?.details !== undefined ? scrubbed(t, meta.details) : undefined,
      // A 5xx may come after the message went out, unless Meta's code says it took nothing.
      mayHaveArrived: a.status >= 500 && !sentNothing(meta?.code),
    },
  );
}

/**
 * The Cloud API's send and mark-read, bounded like src/telegram/api.ts: `attempts` in all, each
 * within `timeoutMs`. Repeated: a connection never made, and Meta's "not now" codes (130429
 * throughput, 131056 pair rate), after an exponential pause capped at maxBackoffMs. Not repeated:
 * a send whose answer was lost (timeout after it went out, reset) or was a 5xx (one whose code says
 * Meta took nothing, sentNothing in errors.ts, is no lost answer): it may have
 * arrived and there is no idempotency key, so the caller decides (mayHaveArrived). Every other 4xx
 * (131047 outside the 24 h window, 100 bad parameter, 190 token...) is thrown at once.
 */
export function createWhatsAppClient(opts: WhatsAppClientOptions): WhatsAppClient {
  const t: Target = {
    url: `${opts.apiRoot.replace(/\/+$/, "")}/${opts.apiVersion}/${opts.phoneNumberId}/messages`,
    accessToken: opts.accessToken,
    timeoutMs: opts.timeoutMs,
    attempts: Math.max(1, opts.attempts),
  };
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const metrics = sendMetrics(opts.registry);
  const backoff = (attempt: number) => Math.min(opts.maxBackoffMs, 250 * 2 ** (attempt - 1));

  /** Attempts within the bounds; returns the 2xx answer's body or throws WhatsAppApiError. */
  async function call(spec: CallSpec): Promise<unknown> {
    for (let n = 1; ; n++) {
      const last = n >= t.attempts;
      await waitToSend(t, spec, n);
      const a = await attemptOnce(t, spec.payload, spec.signal, spec.media);
      let err: WhatsAppApiError;
      let again: boolean;
      if (a.kind === "failed") {
        err = failureOf(t, a, n, spec.idempotent);
        // The caller gave up: not repeated, whatever the cause.
        again = !spec.signal?.aborted && (!err.mayHaveArrived || spec.idempotent);
      } else if (a.status >= 200 && a.status < 300) {
        return a.body;
      } else {
        err = refusalOf(t, a, n);
        again =
          (err.code !== undefined && RETRYABLE_CODES.has(err.code)) ||
          (spec.idempotent && a.status >= 500);
      }
      if (last || !again) throw err;
      log.warn(
        { status: err.status, code: err.code, attempt: n },
        "whatsapp api: attempt failed; trying again",
      );
      await pause(backoff(n), spec.signal);
    }
  }

  return {
    async send(to, body, sendOpts = {}) {
      const started = now();
      const payload: Record<string, unknown> = {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to,
        ...body,
      };
      if (sendOpts.context) payload.context = { message_id: sendOpts.context };
      if (sendOpts.bizOpaque) payload.biz_opaque_callback_data = sendOpts.bizOpaque;
      try {
        const reply = sendReplySchema.safeParse(
          await call({
            payload,
            idempotent: false,
            before: opts.pace
              ? (signal) => opts.pace?.(to, signal) ?? Promise.resolve()
              : undefined,
            signal: sendOpts.signal,
          }),
        );
        if (!reply.success)
          throw new WhatsAppApiError("WhatsApp API answered 2xx without a message id", {
            status: 200,
            mayHaveArrived: true,
          });
        metrics.done((now() - started) / 1000);
        return { wamid: reply.data.messages[0]?.id ?? "" };
      } catch (err) {
        metrics.done((now() - started) / 1000, err);
        throw err;
      }
    },

    async upload(file) {
      // Repeating an upload whose answer was lost costs only an unused media id.
      const body = await call({ payload: {}, media: file, idempotent: true });
      const id = (body as { id?: unknown } | undefined)?.id;
      if (typeof id !== "string" || id === "")
        throw new WhatsAppApiError("WhatsApp media upload answered 2xx without an id", {
          status: 200,
          mayHaveArrived: false,
        });
      return { id };
    },

    async markRead(wamid, typing = false) {
      const payload: Record<string, unknown> = {
        messaging_product: "whatsapp",
        status: "read",
        message_id: wamid,
      };
      if (typing) payload.typing_indicator = { type: "text" };
      await call({ payload, idempotent: true });
    },
  };
}

function causeOf(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) return ` (${(cause as { code?: string }).code ?? cause.message})`;
  return "";
}
