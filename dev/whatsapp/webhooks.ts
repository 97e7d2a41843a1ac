// Meta → product: webhook POSTs as Meta sends them. The JSON has every non-ASCII character
// escaped as \uXXXX and `X-Hub-Signature-256` is the HMAC of exactly those bytes, so a product
// that checks the signature over re-serialised JSON fails on Devanagari. One phone's webhooks go
// out one at a time, in order; anything not answered 200 is retried after short delays, then
// given up (logged). Redirects are not followed (Meta does not). Faults: drop, delay, duplicate.
import { createHmac } from "node:crypto";
import type { StandInLogger, WebhookDelivery, WebhookKind } from "./types.ts";

/** JSON with every character above U+007F escaped as \uXXXX (astral ones as surrogate pairs). */
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function signature(appSecret: string, bytes: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(bytes, "utf8").digest("hex")}`;
}

interface Counted {
  n: number;
  kind?: WebhookKind;
}

export interface WebhookSenderOptions {
  appSecret: string;
  url?: string;
  now: () => number;
  logger?: StandInLogger;
  retryDelaysMs: number[];
  timeoutMs: number;
}

export class WebhookSender {
  url: string | undefined;
  private urlSet: Promise<void>;
  private resolveUrl: () => void = () => {};
  private readonly chains = new Map<string, Promise<void>>();
  private readonly pending = new Set<Promise<void>>();
  private readonly log: WebhookDelivery[] = [];
  private readonly controller = new AbortController();
  private drop: Counted = { n: 0 };
  private duplicate: Counted = { n: 0 };
  private delayMs = 0;

  constructor(private readonly opts: WebhookSenderOptions) {
    this.urlSet = new Promise((resolve) => {
      this.resolveUrl = resolve;
    });
    if (opts.url) this.setUrl(opts.url);
  }

  setUrl(url: string): void {
    this.url = url;
    this.resolveUrl();
  }

  deliveries(): WebhookDelivery[] {
    return [...this.log];
  }

  dropNext(n: number, kind?: WebhookKind): void {
    this.drop = { n, kind };
  }

  duplicateNext(n: number, kind?: WebhookKind): void {
    this.duplicate = { n, kind };
  }

  setDelay(ms: number): void {
    this.delayMs = Math.max(0, ms);
  }

  /** Queues one webhook for phone `key`; its bytes are fixed now (the signature covers them). */
  enqueue(key: string, kind: WebhookKind, payload: unknown): void {
    if (this.controller.signal.aborted) return;
    const bytes = metaJson(payload);
    if (take(this.drop, kind)) {
      this.opts.logger?.info({ key, kind }, "stand-in: webhook dropped (fault)");
      return;
    }
    const copies = take(this.duplicate, kind) ? 2 : 1;
    const run = async () => {
      for (let i = 0; i < copies; i++) await this.deliver(bytes);
    };
    if (this.delayMs > 0) {
      // Delayed webhooks go out on their own: a later one may overtake an earlier one.
      const delay = this.delayMs;
      this.track(sleep(delay, this.controller.signal).then(run));
      return;
    }
    const next = (this.chains.get(key) ?? Promise.resolve()).then(run);
    this.chains.set(key, next);
    this.track(next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  close(): void {
    this.controller.abort();
    this.resolveUrl();
  }

  private track(p: Promise<void>): void {
    const tracked = p.catch((error) => this.opts.logger?.warn({ error }, "stand-in: webhook"));
    this.pending.add(tracked);
    void tracked.then(() => this.pending.delete(tracked));
  }

  /** POSTs until answered 200, retrying after each delay; gives up after the last. */
  private async deliver(bytes: string): Promise<void> {
    const signal = this.controller.signal;
    if (!this.url) await Promise.race([this.urlSet, abortion(signal)]);
    const delays = this.opts.retryDelaysMs;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1] ?? 0, signal);
      if (signal.aborted || !this.url) return;
      const status = await this.post(this.url, bytes, signal);
      this.log.push({ at: this.opts.now(), status, body: bytes });
      if (status === 200) return;
    }
    this.opts.logger?.warn({ url: this.url }, "stand-in: webhook given up after retries");
  }

  private async post(url: string, bytes: string, signal: AbortSignal): Promise<number> {
    try {
      const response = await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signature(this.opts.appSecret, bytes),
        },
        body: bytes,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.opts.timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } catch {
      return 0;
    }
  }
}

function take(counter: Counted, kind: WebhookKind): boolean {
  if (counter.n <= 0 || (counter.kind !== undefined && counter.kind !== kind)) return false;
  counter.n--;
  return true;
}

function abortion(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
