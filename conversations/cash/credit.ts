import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type Parsed } from "../../src/bot/flow/toolkit.ts";
import type { Translate } from "../../src/bot/i18n.ts";
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
/** /credit: an admin credits an agent (chosen among AGENT_IDS) with money to cash in. */
export function creditConversation(deps: BotDeps) {
  return async function credit(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, {
      cancelled: "credit-cancelled",
      leaveQuestion: "credit-leave-question",
      again: "/credit",
    });
    const { t } = flow;
    const accounts = deps.accounts;
    if (flow.env.role !== "admin") {
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
    // In staff mode the float only waits for a switch to prepaid (cash-ins are off): said at the
    // confirmation and in the agent's receipt, so nobody reads it as money customers can spend.
    const staff = deps.payment.mode !== "prepaid";
    const note = (lt: Translate) => (staff ? `\n\n${lt("credit-staff-mode")}` : "");
    await confirm(
      flow,
      t("credit-confirm", { agent: agentText, amount: money(t, amount), ref: id }) + note(t),
    );
    // Removed from ADMIN_IDS while the flow waited: the role read at its start is not enough.
    if ((await flow.roleNow()) !== "admin") {
      await flow.reply(t("role-gone", { command: "/credit" }));
      return;
    }
    const r = await bookOnce(flow, conversation, deps, { id, command: "/credit" }, () =>
      accounts.creditAgent({
        id,
        adminUserId: flow.env.userId,
        agentUserId: agentId,
        amountPaisa: amount,
      }),
    );
    if (r === null) return; // told why it stops (bookOnce)
    if (!r.ok) {
      await flow.reply(refusalText(t, r) ?? t("accounts-failed"));
      return;
    }
    const balance = (lt: Translate) => money(lt, r.creditAfter.availablePaisa);
    if (await firstNotice(conversation, deps, id, "by")) {
      await flow.reply(
        t("credit-done", {
          agent: agentText,
          amount: money(t, amount),
          balance: balance(t),
          ref: id,
        }),
      );
    }
    if (await firstNotice(conversation, deps, id, "party")) {
      await push(
        conversation,
        deps,
        agentId,
        t,
        (theirs) =>
          theirs("credit-received", {
            amount: money(theirs, amount),
            balance: balance(theirs),
            ref: id,
          }) + note(theirs),
      );
    }
  };
}
