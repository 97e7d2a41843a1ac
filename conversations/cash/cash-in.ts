import {
  type Accounts,
  formatPhone,
  type Phone,
  phoneFromTyped,
} from "../../src/accounts/index.ts";
import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { account } from "../../src/ledger/index.ts";
import {
  bookOnce,
  confirm,
  firstNotice,
  MAX_CREDIT_PAISA,
  MIN_PAISA,
  money,
  newId,
  push,
  refusalText,
} from "./transfers.ts";

/** A registered customer found by the phone number the agent typed. */
interface Customer {
  userId: number;
  /** The number as typed (the account's when it was typed). */
  number: Phone;
  phone: string;
  /** The name they registered with (Telegram's or WhatsApp's), so a mistyped number shows. */
  name: string | null;
}

/**
 * What the confirm step needs, read after the amount is asked: the agent's float now (another
 * cash-in from their other chat may have been booked meanwhile, and "your balance after" must be
 * what it will be), and a cash-in of the same amount to the same customer earlier today, not
 * reversed: the agent may be doing again what was done (after a failure, a lost message).
 */
async function beforeConfirm(
  accounts: Accounts,
  agentId: number,
  customerUserId: number,
  amount: number,
): Promise<{ availableNow: number; repeat: { id: string; at: number } | null }> {
  const day = await accounts.agentSummary(agentId);
  const same = day.cashIns.find(
    (e) => e.credit === account.customer(customerUserId) && e.amountPaisa === amount,
  );
  return {
    availableNow: day.balance.availablePaisa,
    repeat: same ? { id: same.id, at: same.at } : null,
  };
}

/** The confirm question, under the warning of a same cash-in earlier today when there is one. */
function confirmText(
  t: Translate,
  customer: Customer,
  x: { amount: number; after: number; ref: string },
  repeat: { id: string; at: number } | null,
): string {
  const shown = {
    amount: money(t, x.amount),
    phone: customer.phone,
    after: money(t, x.after),
    ref: x.ref,
  };
  const asked = customer.name
    ? t("cashin-confirm-named", { ...shown, name: customer.name })
    : t("cashin-confirm", shown);
  if (!repeat) return asked;
  const time = formatOrderTime(repeat.at, "np", t.locale);
  return `${t("cashin-repeat", { amount: shown.amount, time, ref: repeat.id })}\n\n${asked}`;
}

/** /cashin: an agent took cash and credits a registered customer by phone number. */
export function cashInConversation(deps: BotDeps) {
  return async function cashin(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, {
      cancelled: "cashin-cancelled",
      leaveQuestion: "cashin-leave-question",
      again: "/cashin",
    });
    const { t } = flow;
    const accounts = deps.accounts;
    if (flow.env.role !== "agent") {
      await flow.reply(t("cashin-denied"));
      return;
    }
    // Only a prepaid balance is spent (or even shown): in staff mode the cash would land where
    // the customer can neither see nor spend it, under "Rs N was added to your balance".
    if (deps.payment.mode !== "prepaid") {
      await flow.reply(t("cashin-staff-mode"));
      return;
    }
    const agentId = flow.env.userId;
    // Fixed before anything is confirmed: the one id this cash-in can ever be booked under.
    const id = await conversation.external(() => newId("cashin"));
    const customer = await askCustomer(flow, conversation, deps);

    const available = await conversation.external(
      async () => (await accounts.balanceOf(account.agent(agentId))).availablePaisa,
    );
    if (available < MIN_PAISA) {
      await flow.reply(t("cashin-no-balance", { balance: money(t, available) }));
      return;
    }
    // Above the one-cash-in cap the largest amount is the cap, not the balance: each named so.
    const capped = available > MAX_CREDIT_PAISA;
    const amount = await flow.askAmount(
      capped ? "cashin-ask-amount-capped" : "cashin-ask-amount",
      { minPaisa: MIN_PAISA, maxPaisa: Math.min(available, MAX_CREDIT_PAISA) },
      capped ? { params: { balance: money(t, available) } } : undefined,
    );
    const { availableNow, repeat } = await conversation.external(() =>
      beforeConfirm(accounts, agentId, customer.userId, amount),
    );
    if (availableNow < amount) {
      await flow.reply(
        t("cashin-short", {
          balance: money(t, availableNow),
          shortfall: money(t, amount - availableNow),
        }),
      );
      return;
    }
    await confirm(
      flow,
      confirmText(t, customer, { amount, after: availableNow - amount, ref: id }, repeat),
    );
    // Removed from AGENT_IDS while the flow waited: the role read at its start is not enough.
    if ((await flow.roleNow()) !== "agent") {
      await flow.reply(t("role-gone", { command: "/cashin" }));
      return;
    }
    // A hold that came since the number was typed (its new holder wrote meanwhile), the number
    // left the account (/waid release, taken by another account), or the merchant blocked the
    // customer meanwhile: nothing is booked, the cash is not (usably) that account's. Checked
    // once, before the first try: a try again is the same booking. (A flow recorded before
    // "moved" or "blocked" replays its true/false: true is the hold.)
    const changed = await conversation.external(() => changedSince(deps, customer));
    if (changed !== false) {
      await flow.reply(
        t(CHANGED_WORDS[String(changed)] ?? "cashin-held", { phone: customer.phone }),
      );
      return;
    }
    const r = await bookOnce(flow, conversation, deps, { id, command: "/cashin" }, () =>
      accounts.cashIn({
        id,
        agentUserId: agentId,
        customerUserId: customer.userId,
        amountPaisa: amount,
      }),
    );
    if (r === null) return; // told why it stops (bookOnce)
    const refused = refusalText(t, r);
    if (refused !== null || !r.ok) {
      await flow.reply(refused ?? t("accounts-failed"));
      return;
    }
    if (await firstNotice(conversation, deps, id, "by")) {
      await flow.reply(
        t("cashin-done", {
          amount: money(t, amount),
          phone: customer.phone,
          balance: money(t, r.debitAfter.availablePaisa),
          ref: id,
        }),
      );
    }
    if (await firstNotice(conversation, deps, id, "party")) {
      await push(conversation, deps, customer.userId, t, (theirs) =>
        theirs("cashin-received", {
          amount: money(theirs, amount),
          balance: money(theirs, r.creditAfter.availablePaisa),
          ref: id,
        }),
      );
    }
  };
}

/** The words of a change since the number was typed (changedSince); true is the hold. */
const CHANGED_WORDS: Record<string, string> = {
  true: "cashin-held",
  moved: "cashin-moved",
  blocked: "cashin-blocked",
};

/**
 * What changed on the customer's account since the number was typed; false: nothing. The block
 * is read again too (review s24-h, 6): one placed between the number and Confirm was credited.
 */
async function changedSince(deps: BotDeps, c: Customer): Promise<"moved" | "blocked" | boolean> {
  if ((await deps.accounts.waHoldOf(c.userId)) !== null) return true;
  if ((await deps.accounts.userByPhone(c.number)) !== c.userId) return "moved";
  return (await deps.payment.access(c.userId)) === "blocked" ? "blocked" : false;
}

/** Asks the phone number until it is a registered customer's other than the agent's own. */

async function askCustomer(
  flow: Flow,
  conversation: FlowConversation,
  deps: BotDeps,
): Promise<Customer> {
  const { t } = flow;
  const accounts = deps.accounts;
  let hint = "";
  for (;;) {
    const phone = await flow.ask(`${hint}${t("cashin-ask-phone")}`, (text) => {
      const p = phoneFromTyped(text);
      return p.ok ? { ok: true, value: p.phone } : { ok: false, error: t("cashin-bad-phone") };
    });
    const userId = await conversation.external(() => accounts.userByPhone(phone));
    const shown = formatPhone(phone);
    if (userId === flow.env.userId) hint = `${t("cashin-self")}\n\n`;
    else if (userId === null) hint = `${t("cashin-unknown-phone", { phone: shown })}\n\n`;
    // A WhatsApp account held for an admin's decision (/waid): the cash would reach either the
    // number's old holder or its new one; none until the admin decides.
    else if (await conversation.external(async () => (await accounts.waHoldOf(userId)) !== null))
      hint = `${t("cashin-held", { phone: shown })}\n\n`;
    // A customer the merchant blocked can neither spend nor see the money (review s24-b, 4).
    else if (
      await conversation.external(async () => (await deps.payment.access(userId)) === "blocked")
    )
      hint = `${t("cashin-blocked", { phone: shown })}\n\n`;
    else {
      const name = await conversation.external(
        async () => (await accounts.profileOf(userId))?.name.trim() || null,
      );
      return { userId, number: phone, phone: shown, name };
    }
  }
}
