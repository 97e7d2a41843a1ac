import { type BalanceMoved, formatPhone } from "../../src/accounts/index.ts";
import { isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import type { ReversalTeller } from "./reversal-notices.ts";
import { money } from "./transfers.ts";

/**
 * The two customers of a balance move (the back office's, for a changed WhatsApp number), told
 * in their chat and language exactly what moved: the sender that its whole balance went to its
 * other account, the receiver what came in and from which number, each with their balance
 * after. Each once (`firstNotice` on the move's id), however often the form is submitted.
 */
export type MoveTold = BalanceMoved;

export async function tellMove(x: ReversalTeller, r: MoveTold): Promise<void> {
  const phoneOf = async (userId: number) => {
    const p = await x.accounts.phoneOf(userId);
    return p ? formatPhone(p) : String(userId);
  };
  const from = await phoneOf(r.fromUserId);
  // The sender's side does not name the other number: after a number change the old number's
  // chat may reach whoever Meta hands that number to next.
  await tellOnce(x, r, "from", r.fromUserId, (t) =>
    t("move-notice-from", {
      amount: money(t, r.amountPaisa),
      balance: money(t, r.fromBalancePaisa),
    }),
  );
  await tellOnce(x, r, "to", r.toUserId, (t) =>
    t("move-notice-to", {
      amount: money(t, r.amountPaisa),
      from,
      balance: money(t, r.toBalancePaisa),
    }),
  );
}

async function tellOnce(
  x: ReversalTeller,
  r: MoveTold,
  side: "from" | "to",
  userId: number,
  text: (theirs: Translate) => string,
): Promise<void> {
  try {
    if (!(await x.accounts.firstNotice(r.id, side))) return;
    const kept = await x.accounts.localeOf(userId).catch(() => null);
    const theirs = translator(x.i18n, isLocale(kept) ? kept : x.fallbackLocale);
    // Their account's chat: a released WhatsApp chat's goes to its holder (chat-calls.ts).
    await withAccount(userId, () => x.send(userId, text(theirs)));
  } catch (err) {
    x.logger.warn(
      { userId, moveId: r.id, side, err: err instanceof Error ? err.message : String(err) },
      "balance move notice not delivered",
    );
  }
}
