import { InlineKeyboard } from "grammy";
import { isProviderError } from "../../provider/index.ts";
import type { BotContext } from "../context.ts";
import { askUntil, CB, type FlowScope } from "./prompt-loop.ts";

export type LookupResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A lookup still running after this long shows "typing…" (a quick one shows nothing). */
const TYPING_AFTER_MS = 300;
/** Telegram shows a chat action for 5 s: sent again while the lookup still runs. */
const TYPING_EVERY_MS = 4_000;

/**
 * Runs `op` while the chat shows "typing…" (a bill check, a plan listing can take seconds): the
 * action is sent once the lookup is not quick, renewed while it runs, and the one under way is
 * waited for before the answer goes out, so no "typing…" outlives it. On WhatsApp the router
 * answers it with the typing indicator. A refused action never fails the lookup.
 */
async function typingWhile<T>(outer: BotContext, op: () => Promise<T>): Promise<T> {
  const chatId = outer.chat?.id;
  if (chatId === undefined) return op();
  let sending: Promise<unknown> = Promise.resolve();
  const tick = () => {
    sending = outer.api.sendChatAction(chatId, "typing").catch(() => {});
    timer = setTimeout(tick, TYPING_EVERY_MS);
  };
  let timer = setTimeout(tick, TYPING_AFTER_MS);
  try {
    return await op();
  } finally {
    clearTimeout(timer);
    await sending;
  }
}

/**
 * Runs a provider lookup through `external`. A transient failure (timeout, 5xx, 429, network,
 * malformed answer) keeps every answer so far and offers Retry; a rejection comes back as a
 * message for the flow to show (e.g. "customer not found") before re-asking. The chat shows
 * "typing…" while a slow one runs.
 */
export async function lookup<T>(s: FlowScope, op: () => Promise<T>): Promise<LookupResult<T>> {
  for (;;) {
    const r = await s.conversation.external(async (outer) => {
      try {
        return { ok: true as const, value: await typingWhile(outer, op) };
      } catch (e) {
        if (!isProviderError(e)) throw e;
        const transient = e.retryable || e.kind === "malformed";
        const message = e.kind === "rejected" ? (e.providerMessage ?? "") : "";
        return { ok: false as const, transient, message };
      }
    });
    if (r.ok) return r;
    if (!r.transient) return { ok: false, message: r.message || s.t("common-error") };
    const failed = s.t("common-lookup-failed");
    await askUntil<void>(s, {
      text: failed,
      buttons: () => new InlineKeyboard().text(s.t("common-retry"), CB.retry.data),
      onButton: (data) =>
        CB.retry.is(data) ? { kind: "done", value: undefined } : { kind: "stay" },
      // Anything typed is answered with the question again: only Retry or Cancel can move on.
      onMessage: () => ({ kind: "resend", text: failed }),
    });
  }
}
