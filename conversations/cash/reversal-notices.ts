import type { I18n } from "@grammyjs/i18n";
import {
  type Accounts,
  formatPhone,
  type NoticeSide,
  type Receipt,
} from "../../src/accounts/index.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import type { Logger } from "../../src/logger.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import { money } from "./transfers.ts";

/**
 * The people a reversal concerns, told in their chat and language: the party (the customer of a
 * cash-in, the agent of a credit) and a cash-in's agent (the money is back in their float, and
 * the customer will come back to them asking why). The chat's /reverse and the back office's
 * reversal both tell through here, so each side is told once across instances and both places
 * (`firstNotice`), in the same words.
 */

export interface ReversalTold {
  /** The cash-in or credit reversed. */
  original: Receipt;
  reversalId: string;
  reason: string;
  /** The party's available balance after the reversal (the debited side). */
  partyBalancePaisa: number;
  /** The agent's available balance after a cash-in's reversal (the credited side). */
  agentBalancePaisa: number;
}

export interface ReversalTeller {
  accounts: Pick<Accounts, "firstNotice" | "localeOf" | "phoneOf">;
  i18n: I18n<BotContext>;
  /** The language of a person who never chose one. */
  fallbackLocale: string;
  send(chatId: number, text: string): Promise<unknown>;
  logger: Logger;
}

/**
 * Tells the party and a cash-in's agent, each the first time only. A message not delivered (a
 * chat that blocked the bot) is logged and keeps nobody else from hearing; the reversal stands.
 */
export async function tellReversal(x: ReversalTeller, r: ReversalTold): Promise<void> {
  const { original } = r;
  const party = original.partyUserId;
  if (party !== undefined && party > 0) {
    await tellOnce(x, r.reversalId, "party", party, (t) =>
      t("reverse-notice", {
        amount: money(t, original.amountPaisa),
        ref: original.id,
        reason: r.reason,
        balance: money(t, r.partyBalancePaisa),
      }),
    );
  }
  const agent = original.by;
  if (original.kind !== "cash_in" || agent <= 0) return;
  await tellOnce(x, r.reversalId, "agent", agent, async (t) => {
    const phone = party === undefined ? null : await x.accounts.phoneOf(party);
    return t("reverse-notice-agent", {
      amount: money(t, original.amountPaisa),
      ref: original.id,
      customer: phone ? formatPhone(phone) : String(party ?? ""),
      reason: r.reason,
      balance: money(t, r.agentBalancePaisa),
    });
  });
}

async function tellOnce(
  x: ReversalTeller,
  reversalId: string,
  side: NoticeSide,
  userId: number,
  text: (theirs: Translate) => string | Promise<string>,
): Promise<void> {
  try {
    if (!(await x.accounts.firstNotice(reversalId, side))) return;
    const kept = await x.accounts.localeOf(userId).catch(() => null);
    const theirs = translator(x.i18n, isLocale(kept) ? kept : x.fallbackLocale);
    const words = await text(theirs);
    // Their account said: a released WhatsApp chat's goes to its old holder (chat-calls.ts).
    await withAccount(userId, () => x.send(userId, words));
  } catch (err) {
    x.logger.warn(
      { userId, reversalId, side, err: err instanceof Error ? err.message : String(err) },
      "reversal notice not delivered",
    );
  }
}
