import { randomBytes } from "node:crypto";
import {
  type Accounts,
  formatPhone,
  type MoveResult,
  phoneFromTyped,
  type Receipt,
} from "../../src/accounts/index.ts";
import type { BotContext, FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import { isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import type { AccountId } from "../../src/ledger/index.ts";
import { formatMoney, rupeesToPaisa } from "../../src/money.ts";

/**
 * Money coming in through people: /cashin (an agent took cash and credits a customer by phone
 * number), /credit (an admin credits an agent), /reverse (an admin reverses either, with a
 * reason). Each books one ledger transfer under an id drawn (through `external`) before the
 * confirm step, so a double tap, a redelivered update or a replay books it once; both sides get
 * a receipt naming that id, which is also what /reverse takes.
 */

/** The most one cash-in or credit may move (a typo of a zero or two is caught). */
const MAX_CREDIT_PAISA = rupeesToPaisa(100_000);
const MIN_PAISA = rupeesToPaisa(1);

const newId = (kind: string) => `${kind}-${randomBytes(6).toString("hex")}`;

const money = (t: Translate, paisa: number) => formatMoney(paisa, { locale: t.locale });

/** A person or account of a transfer, in words: "customer +977 9841234567", "agent 2001". */
async function partyName(t: Translate, accounts: Accounts, acc: AccountId): Promise<string> {
  const [kind, id] = acc.split(":");
  if (kind === "customer") {
    const phone = await accounts.phoneOf(Number(id));
    return t("party-customer", { who: phone ? formatPhone(phone) : String(id) });
  }
  if (kind === "agent") return t("party-agent", { who: String(id) });
  return t("party-merchant");
}

/**
 * Tells `userId` in their chat, in their own language (the one kept beside their account at
 * registration and /language; the sender's `t` when none is known); a chat that blocked the bot
 * loses only this message.
 */
async function push(
  conversation: FlowConversation,
  deps: BotDeps,
  userId: number,
  t: Translate,
  text: (theirs: Translate) => string,
): Promise<void> {
  const kept = await conversation.external(async () => {
    try {
      return (await deps.accounts?.localeOf(userId)) ?? null;
    } catch {
      return null;
    }
  });
  const theirs = isLocale(kept) ? translator(deps.i18n, kept) : t;
  await conversation.external(async (outer: BotContext) => {
    try {
      await outer.api.sendMessage(userId, text(theirs));
    } catch (err) {
      deps.logger.warn(
        { userId, err: err instanceof Error ? err.message : String(err) },
        "receipt push not delivered",
      );
    }
  });
}

/**
 * Whether `side` of transfer `id` is still to be told (the first ask only, across instances): a
 * Confirm handled again after the instance that told died, or taken at two instances, says it once.
 */
async function firstNotice(
  conversation: FlowConversation,
  accounts: Accounts,
  id: string,
  side: "by" | "party",
): Promise<boolean> {
  return conversation.external(() => accounts.firstNotice(id, side));
}

/** Confirm (or Cancel, which the loop handles) as one button. */
async function confirm(flow: Flow, text: string): Promise<void> {
  await flow.choose(text, [{ label: flow.t("common-confirm"), value: "yes" }], { columns: 1 });
}

/** The refusals every booking can answer. Returns the text, or null when booked. */
function refusalText(t: Translate, r: MoveResult): string | null {
  if (r.ok) return null;
  if (r.code === "insufficient_funds") {
    return t("cashin-short", {
      balance: money(t, r.availablePaisa),
      shortfall: money(t, r.shortfallPaisa),
    });
  }
  return t("accounts-failed");
}

export function cashInConversation(deps: BotDeps) {
  return async function cashin(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const accounts = deps.accounts;
    if (!accounts || flow.env.role !== "agent") {
      await flow.reply(t("cashin-denied"));
      return;
    }
    const agentId = flow.env.userId;
    // Fixed before anything is confirmed: the one id this cash-in can ever be booked under.
    const id = await conversation.external(() => newId("cashin"));

    let hint = "";
    let customer: { userId: number; phone: string };
    for (;;) {
      const phone = await flow.ask(`${hint}${t("cashin-ask-phone")}`, (text) => {
        const p = phoneFromTyped(text);
        return p.ok ? { ok: true, value: p.phone } : { ok: false, error: t("cashin-bad-phone") };
      });
      const userId = await conversation.external(() => accounts.userByPhone(phone));
      const shown = formatPhone(phone);
      if (userId === agentId) hint = `${t("cashin-self")}\n\n`;
      else if (userId === null) hint = `${t("cashin-unknown-phone", { phone: shown })}\n\n`;
      else {
        customer = { userId, phone: shown };
        break;
      }
    }

    const available = await conversation.external(
      async () => (await accounts.agentSummary(agentId)).balance.availablePaisa,
    );
    if (available < MIN_PAISA) {
      await flow.reply(t("cashin-no-balance", { balance: money(t, available) }));
      return;
    }
    const amount = await flow.askAmount("cashin-ask-amount", {
      minPaisa: MIN_PAISA,
      maxPaisa: Math.min(available, MAX_CREDIT_PAISA),
    });
    await confirm(
      flow,
      t("cashin-confirm", {
        amount: money(t, amount),
        phone: customer.phone,
        after: money(t, available - amount),
        ref: id,
      }),
    );
    const r = await conversation.external(() =>
      accounts.cashIn({
        id,
        agentUserId: agentId,
        customerUserId: customer.userId,
        amountPaisa: amount,
      }),
    );
    const refused = refusalText(t, r);
    if (refused !== null || !r.ok) {
      await flow.reply(refused ?? t("accounts-failed"));
      return;
    }
    if (await firstNotice(conversation, accounts, id, "by")) {
      await flow.reply(
        t("cashin-done", {
          amount: money(t, amount),
          phone: customer.phone,
          balance: money(t, r.debitAfter.availablePaisa),
          ref: id,
        }),
      );
    }
    if (await firstNotice(conversation, accounts, id, "party")) {
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

export function creditConversation(deps: BotDeps) {
  return async function credit(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const accounts = deps.accounts;
    if (!accounts || flow.env.role !== "admin") {
      await flow.reply(t("credit-denied"));
      return;
    }
    const agents = deps.settings.agentIds.filter((a) => !deps.settings.adminIds.includes(a));
    if (agents.length === 0) {
      await flow.reply(t("credit-no-agents"));
      return;
    }
    const id = await conversation.external(() => newId("credit"));
    const agentText = await flow.choose(
      t("credit-ask-agent"),
      agents.map((a) => ({ label: String(a), value: String(a) })),
      {
        typed: (text): Parsed<string> => {
          const n = text.trim();
          return /^\d{1,20}$/.test(n) && agents.includes(Number(n))
            ? { ok: true, value: n }
            : { ok: false, error: t("credit-bad-agent", { id: n.slice(0, 20) }) };
        },
      },
    );
    const agentId = Number(agentText);
    const amount = await flow.askAmount(
      "credit-ask-amount",
      { minPaisa: MIN_PAISA, maxPaisa: MAX_CREDIT_PAISA },
      { params: { agent: agentText } },
    );
    await confirm(
      flow,
      t("credit-confirm", { agent: agentText, amount: money(t, amount), ref: id }),
    );
    const r = await conversation.external(() =>
      accounts.creditAgent({
        id,
        adminUserId: flow.env.userId,
        agentUserId: agentId,
        amountPaisa: amount,
      }),
    );
    if (!r.ok) {
      await flow.reply(refusalText(t, r) ?? t("accounts-failed"));
      return;
    }
    const balance = (lt: Translate) => money(lt, r.creditAfter.availablePaisa);
    if (await firstNotice(conversation, accounts, id, "by")) {
      await flow.reply(
        t("credit-done", {
          agent: agentText,
          amount: money(t, amount),
          balance: balance(t),
          ref: id,
        }),
      );
    }
    if (await firstNotice(conversation, accounts, id, "party")) {
      await push(conversation, deps, agentId, t, (theirs) =>
        theirs("credit-received", {
          amount: money(theirs, amount),
          balance: balance(theirs),
          ref: id,
        }),
      );
    }
  };
}

export function reverseConversation(deps: BotDeps) {
  return async function reverse(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const accounts = deps.accounts;
    if (!accounts || flow.env.role !== "admin") {
      await flow.reply(t("reverse-denied"));
      return;
    }
    const idText = (text: string): Parsed<string> => {
      const ref = text.trim();
      return /^[A-Za-z0-9_.:-]{1,128}$/.test(ref)
        ? { ok: true, value: ref }
        : { ok: false, error: t("reverse-unknown", { ref: ref.slice(0, 40) }) };
    };
    let hint = "";
    let typed = typeof given === "string" && given.trim() !== "" ? given.trim() : null;
    let original: Receipt;
    for (;;) {
      const ref = typed ?? (await flow.ask(`${hint}${t("reverse-ask-id")}`, idText));
      typed = null;
      const found = await conversation.external(() => accounts.receipt(ref));
      if (!found) hint = `${t("reverse-unknown", { ref: ref.slice(0, 40) })}\n\n`;
      else if (found.kind === "reversal") hint = `${t("reverse-not-reversible", { ref })}\n\n`;
      else {
        original = found;
        break;
      }
    }
    const revId = `rev-${original.id}`;
    const earlier = await conversation.external(() => accounts.receipt(revId));
    if (earlier) {
      await flow.reply(t("reverse-already", { ref: original.id, rev: revId }));
      return;
    }
    const names = await conversation.external(async () => ({
      from: await partyName(t, accounts, original.debit),
      to: await partyName(t, accounts, original.credit),
    }));
    const amount = money(t, original.amountPaisa);
    await flow.reply(
      t("reverse-show", {
        ref: original.id,
        amount,
        from: names.from,
        to: names.to,
        time: formatOrderTime(original.at, "np", t.locale),
      }),
    );
    const reason = await flow.ask(t("reverse-ask-reason"), (text) => {
      const r = text.trim().replace(/\s+/g, " ");
      return r.length >= 3 && r.length <= 200
        ? { ok: true, value: r }
        : { ok: false, error: t("reverse-bad-reason") };
    });
    await confirm(
      flow,
      t("reverse-confirm", { ref: original.id, amount, from: names.from, to: names.to, reason }),
    );
    const r = await conversation.external(() =>
      accounts.reverse({ originalId: original.id, adminUserId: flow.env.userId, reason }),
    );
    if (!r.ok) {
      if (r.code === "already_reversed") {
        await flow.reply(t("reverse-already", { ref: original.id, rev: revId }));
      } else if (r.code === "insufficient_funds") {
        await flow.reply(
          t("reverse-refused", {
            to: names.to,
            balance: money(t, r.availablePaisa),
            shortfall: money(t, r.shortfallPaisa),
            amount,
          }),
        );
      } else {
        await flow.reply(t("accounts-failed"));
      }
      return;
    }
    if (await firstNotice(conversation, accounts, revId, "by")) {
      await flow.reply(t("reverse-done", { amount, from: names.from, to: names.to, rev: revId }));
    }
    const party = original.partyUserId;
    if (
      party !== undefined &&
      party > 0 &&
      (await firstNotice(conversation, accounts, revId, "party"))
    ) {
      await push(conversation, deps, party, t, (theirs) =>
        theirs("reverse-notice", {
          amount: money(theirs, original.amountPaisa),
          ref: original.id,
          reason,
          balance: money(theirs, r.debitAfter.availablePaisa),
        }),
      );
    }
  };
}
