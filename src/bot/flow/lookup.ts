import { InlineKeyboard } from "grammy";
import { isProviderError } from "../../provider/index.ts";
import { askUntil, CB, type FlowScope } from "./prompt-loop.ts";

export type LookupResult<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Runs a provider lookup through `external`. A transient failure (timeout, 5xx, 429, network,
 * malformed answer) keeps every answer so far and offers Retry; a rejection comes back as a
 * message for the flow to show (e.g. "customer not found") before re-asking.
 */
export async function lookup<T>(s: FlowScope, op: () => Promise<T>): Promise<LookupResult<T>> {
  for (;;) {
    const r = await s.conversation.external(async () => {
      try {
        return { ok: true as const, value: await op() };
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
