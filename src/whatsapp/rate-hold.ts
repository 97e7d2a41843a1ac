import { refusalKind, WA_ERROR, WhatsAppApiError } from "./errors.ts";
import type { WaOutbound } from "./types.ts";

/**
 * WhatsApp's own pause after Meta's rate refusals (130429 throughput, 131048 spam rate limit, 4 and
 * 80007 the app's and the account's call limits; 131056 the pair rate, for that customer only).
 * The Bot API's answer to them used to be a 429, which pauses the whole notifier, Telegram's pushes
 * included, and a spam limit can stand for hours. Now the router answers them as a 503 that sent
 * nothing (bot-api-failure.ts) and holds the sends here instead: until the hold ends, a send that
 * would meet the same limit fails at once, without a call to Meta, with the same code (the notifier
 * tries it again at a later reclaim, under its time bound). Only WhatsApp waits, never Telegram.
 * The hold is this process's: another instance finds the limit with one call of its own.
 */

type Send = (
  to: string,
  body: WaOutbound,
  opts?: { signal?: AbortSignal },
) => Promise<{ wamid: string }>;

/** How long the sends wait after each rate code (ms); a code not listed: a minute. */
const HOLD_MS: ReadonlyMap<number, number> = new Map([
  [WA_ERROR.throughput, 5_000], // the number's messages per second: a short wait helps
  [WA_ERROR.pairRate, 6_000], // about one message per 6 s to one customer (whatsapp-notes.md §2)
  [4, 60_000],
  [80007, 60_000],
  [131048, 60_000], // may stand for hours: one send a minute per instance finds out when it ends
]);
const DEFAULT_HOLD_MS = 60_000;
/** Customers held at most at once (pair-rate holds last seconds; this only bounds memory). */
const MAX_CHAT_HOLDS = 10_000;

interface Hold {
  until: number;
  code: number;
}

/** A send not made because a rate hold stands: it never reached Meta. */
export class HeldSend extends WhatsAppApiError {
  /** How long the hold stands yet (ms): an answer owed meanwhile is tried then (router-owed.ts). */
  readonly leftMs: number;
  constructor(hold: Hold, left: number) {
    super(
      `WhatsApp sends held ${Math.ceil(left / 1000)} s more after Meta's rate limit ${hold.code}`,
      { status: 429, code: hold.code, mayHaveArrived: false },
    );
    this.name = "HeldSend";
    this.leftMs = left;
  }
}

/** `send`, held after Meta's rate refusals as above; `now` is the router's clock. */
export function heldSends(send: Send, now: () => number): Send {
  let number: Hold | undefined;
  const chats = new Map<string, Hold>();

  function standing(to: string): Hold | undefined {
    const t = now();
    const chat = chats.get(to);
    if (chat && chat.until <= t) chats.delete(to);
    const held = [number, chats.get(to)].filter((h): h is Hold => h !== undefined && h.until > t);
    return held.sort((a, b) => b.until - a.until)[0];
  }

  function note(to: string, err: unknown): void {
    if (!(err instanceof WhatsAppApiError) || err instanceof HeldSend) return;
    if (err.mayHaveArrived || err.code === undefined || refusalKind(err.code) !== "rate") return;
    const hold = { until: now() + (HOLD_MS.get(err.code) ?? DEFAULT_HOLD_MS), code: err.code };
    if (err.code !== WA_ERROR.pairRate) {
      if (!number || number.until < hold.until) number = hold;
      return;
    }
    if (chats.size >= MAX_CHAT_HOLDS) {
      for (const [k, h] of chats) if (h.until <= now()) chats.delete(k);
      if (chats.size >= MAX_CHAT_HOLDS) chats.delete(chats.keys().next().value as string);
    }
    chats.set(to, hold);
  }

  return async (to, body, opts) => {
    const hold = standing(to);
    if (hold) throw new HeldSend(hold, hold.until - now());
    try {
      return await send(to, body, opts);
    } catch (err) {
      note(to, err);
      throw err;
    }
  };
}
