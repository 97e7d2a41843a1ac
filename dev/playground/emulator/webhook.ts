// Webhook mode: every update is POSTed to the bot's URL instead of waiting for getUpdates.
// Like Telegram, deliveries run in parallel up to max_connections but one chat's updates go
// one at a time and in order; a non-2xx answer or a network error is retried a few times
// before the update is given up. Webhook replies (a method in the answer body) are not
// executed: the bot never answers that way (grammY's canUseWebhookReply is off).
import type { Update } from "grammy/types";
import type { UpdateQueue } from "./updates.ts";

export interface WebhookConfig {
  url: string;
  secretToken?: string;
  maxConnections: number;
}

export interface WebhookDelivererOptions {
  /** Waits before each retry; the number of entries is the number of retries. */
  retryDelaysMs: number[];
  timeoutMs: number;
  now: () => number;
  onDelivered: (update: Update) => void;
  onFailed: (update: Update, error: string) => void;
}

export interface WebhookStatus {
  config: WebhookConfig | undefined;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export class WebhookDeliverer {
  private config: WebhookConfig | undefined;
  private readonly inFlight = new Set<Update>();
  private readonly busyChats = new Set<string>();
  private controller = new AbortController();
  private lastError: { date: number; message: string } | undefined;

  constructor(
    private readonly queue: UpdateQueue,
    private readonly options: WebhookDelivererOptions,
  ) {}

  get active(): boolean {
    return this.config !== undefined;
  }

  status(): WebhookStatus {
    return {
      config: this.config,
      lastErrorDate: this.lastError?.date,
      lastErrorMessage: this.lastError?.message,
    };
  }

  set(config: WebhookConfig): void {
    this.stopDeliveries();
    this.config = config;
    this.pump();
  }

  /** Stops delivering; undelivered updates stay queued for getUpdates. */
  unset(): void {
    this.stopDeliveries();
    this.config = undefined;
    this.lastError = undefined;
  }

  private stopDeliveries(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.inFlight.clear();
    this.busyChats.clear();
  }

  pump(): void {
    const config = this.config;
    if (!config) return;
    for (const update of this.queue.deliverable()) {
      if (this.inFlight.size >= config.maxConnections) return;
      if (this.inFlight.has(update)) continue;
      const chat = chatKey(update);
      if (this.busyChats.has(chat)) continue;
      this.inFlight.add(update);
      this.busyChats.add(chat);
      void this.deliver(update, config, this.controller.signal).then((outcome) => {
        const current = !signalAborted(this.controller.signal, config, this.config);
        if (current) {
          this.inFlight.delete(update);
          this.busyChats.delete(chat);
          this.queue.remove(update);
        }
        // Reported once out of the queue, so whoever hears of it sees the queue as it is now.
        if (outcome === "delivered") this.options.onDelivered(update);
        else if (outcome !== "aborted") this.options.onFailed(update, outcome.failed);
        if (current) this.pump();
      });
    }
  }

  /** Tries an update a few times, until it is delivered, given up, or delivery stops. */
  private async deliver(
    update: Update,
    config: WebhookConfig,
    signal: AbortSignal,
  ): Promise<"delivered" | "aborted" | { failed: string }> {
    const delays = this.options.retryDelaysMs;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1] ?? 0, signal);
      if (signal.aborted) return "aborted";
      const error = await this.attempt(update, config, signal);
      if (error === undefined) return "delivered";
      if (signal.aborted) return "aborted";
      this.lastError = { date: Math.floor(this.options.now() / 1000), message: error };
    }
    return { failed: this.lastError?.message ?? "delivery failed" };
  }

  /** One POST; undefined on success, else Telegram's wording of what went wrong. */
  private async attempt(
    update: Update,
    config: WebhookConfig,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (config.secretToken) headers["x-telegram-bot-api-secret-token"] = config.secretToken;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(config.url, {
        method: "POST",
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      return timeout.aborted
        ? "Read timeout expired"
        : `Connection refused: ${error instanceof Error ? error.message : String(error)}`;
    }
    // Read to the end, as Telegram does, so the delivery ends when the bot's answer does.
    await response.text().catch(() => "");
    if (!response.ok) {
      return `Wrong response from the webhook: ${response.status} ${response.statusText}`.trim();
    }
    return undefined;
  }
}

// A delivery that finishes after `unset` (or after a new `set`) must not touch the new state.
function signalAborted(
  signal: AbortSignal,
  started: WebhookConfig,
  current: WebhookConfig | undefined,
): boolean {
  return signal.aborted || started !== current;
}

function chatKey(update: Update): string {
  const chatId =
    update.message?.chat.id ??
    update.edited_message?.chat.id ??
    update.callback_query?.message?.chat.id ??
    update.my_chat_member?.chat.id ??
    update.callback_query?.from.id;
  return chatId === undefined ? `update:${update.update_id}` : String(chatId);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
