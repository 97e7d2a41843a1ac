import type { Accounts, Receipt, ReverseResult } from "../../src/accounts/index.ts";
import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { tellReversal } from "./reversal-notices.ts";
import { bookOnce, confirm, firstNotice, money, partyName } from "./transfers.ts";

/**
 * /reverse [id]: an admin reverses a cash-in or a credit, with a reason. The reversal's id is
 * the original's with `rev-` before it, so it is booked once however often it is confirmed.
 */
export function reverseConversation(deps: BotDeps) {
  return async function reverse(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, {
      cancelled: "reverse-cancelled",
      leaveQuestion: "reverse-leave-question",
      again: "/reverse",
    });
    const { t } = flow;
    const accounts = deps.accounts;
    if (flow.env.role !== "admin") {
      await flow.reply(t("reverse-denied"));
      return;
    }
    const typed = typeof given === "string" && given.trim() !== "" ? given.trim() : null;
    const original = await askOriginal(flow, conversation, accounts, typed);
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
    // Removed from ADMIN_IDS while the flow waited: the role read at its start is not enough.
    if ((await flow.roleNow()) !== "admin") {
      await flow.reply(t("role-gone", { command: "/reverse" }));
      return;
    }
    const r = await bookOnce(flow, conversation, deps, { id: revId, command: "/reverse" }, () =>
      accounts.reverse({ originalId: original.id, adminUserId: flow.env.userId, reason }),
    );
    if (r === null) return; // told why it stops (bookOnce)
    if (!r.ok) {
      await flow.reply(refusal(t, r, { ref: original.id, rev: revId, to: names.to, amount }));
      return;
    }
    // "Done" is said once across instances and admins; an admin who confirmed the same reversal
    // (the same reason, so a duplicate) after another one booked it hears "already reversed"
    // once; a Confirm handled again says nothing more.
    const heard = await firstNotice(conversation, deps, revId, `heard:${flow.env.userId}`);
    if (await firstNotice(conversation, deps, revId, "by")) {
      await flow.reply(t("reverse-done", { amount, from: names.from, to: names.to, rev: revId }));
    } else if (heard) {
      await flow.reply(t("reverse-already", { ref: original.id, rev: revId }));
    }
    // Inside `external`: the claims and the sends run once, not again on a replay.
    await conversation.external((outer) =>
      tellReversal(
        {
          accounts,
          i18n: deps.i18n,
          fallbackLocale: t.locale,
          send: (chatId, text) => outer.api.sendMessage(chatId, text),
          logger: deps.logger,
        },
        {
          original,
          reversalId: revId,
          reason,
          partyBalancePaisa: r.debitAfter.availablePaisa,
          agentBalancePaisa: r.creditAfter.availablePaisa,
        },
      ),
    );
  };
}

/**
 * The receipt to reverse: the id given with the command, else asked until it names a cash-in or
 * a credit (a reversal is not reversed).
 */
async function askOriginal(
  flow: Flow,
  conversation: FlowConversation,
  accounts: Accounts,
  given: string | null,
): Promise<Receipt> {
  const { t } = flow;
  const idText = (text: string): Parsed<string> => {
    const ref = text.trim();
    return /^[A-Za-z0-9_.:-]{1,128}$/.test(ref)
      ? { ok: true, value: ref }
      : { ok: false, error: t("reverse-unknown", { ref: ref.slice(0, 40) }) };
  };
  let hint = "";
  let typed = given;
  for (;;) {
    const ref = typed ?? (await flow.ask(`${hint}${t("reverse-ask-id")}`, idText));
    typed = null;
    const found = await conversation.external(() => accounts.receipt(ref));
    if (!found) hint = `${t("reverse-unknown", { ref: ref.slice(0, 40) })}\n\n`;
    else if (found.kind === "reversal") hint = `${t("reverse-not-reversible", { ref })}\n\n`;
    else return found;
  }
}

/** Why the books refused the reversal. */
function refusal(
  t: Translate,
  r: Exclude<ReverseResult, { ok: true }>,
  x: { ref: string; rev: string; to: string; amount: string },
): string {
  if (r.code === "already_reversed") return t("reverse-already", { ref: x.ref, rev: x.rev });
  if (r.code === "insufficient_funds") {
    return t("reverse-refused", {
      to: x.to,
      balance: money(t, r.availablePaisa),
      shortfall: money(t, r.shortfallPaisa),
      amount: x.amount,
    });
  }
  return t("accounts-failed");
}
