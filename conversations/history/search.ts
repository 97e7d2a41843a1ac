import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { historyReply } from "./command.ts";
import { type HistoryView, searchNumberOf } from "./view.ts";

/**
 * A look-up is no order: its Cancel, Leave and idle end must not say "Nothing was charged" about
 * an order the customer may be asking after because it was charged (review s33-rvtruth 4).
 */
const LOOKUP_WORDS: FlowWords = {
  cancelled: "lookup-cancelled",
  leaveQuestion: "lookup-leave-question",
  ended: "lookup-ended",
};

/**
 * /history's "Search a number": asks for the number or account (Cancel ends it), then shows that
 * number's orders of this customer as /history does, with its buttons.
 */
export function historySearchConversation(deps: BotDeps) {
  return async function historySearch(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, LOOKUP_WORDS);
    const { t } = flow;
    const parse = (text: string): Parsed<HistoryView> => {
      const view = searchNumberOf(text);
      return view === null
        ? { ok: false, error: t("history-search-invalid") }
        : { ok: true, value: view };
    };
    const view = await flow.ask(t("history-search-ask"), parse);
    const now = await conversation.now();
    const reply = await conversation.external(async () => {
      const r = await historyReply(deps, flow.env.userId, view, t, { now });
      return { text: r.text, rows: r.keyboard?.inline_keyboard };
    });
    await flow.reply(
      reply.text,
      reply.rows ? { reply_markup: { inline_keyboard: reply.rows } } : undefined,
    );
  };
}
