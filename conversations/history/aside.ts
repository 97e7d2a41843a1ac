import type { Aside, FlowScope } from "../../src/bot/flow/toolkit.ts";
import { historyReply, viewOfButton } from "./command.ts";
import { type HistoryView, parseHistoryArg } from "./view.ts";

/**
 * One page of /history, read through `external`: a replay sees the list the user saw. No Search
 * button here: its question would be asked inside another flow.
 */
async function historyPage(s: FlowScope, userId: number, view: HistoryView) {
  const now = await s.conversation.now();
  return s.conversation.external(async () => {
    const r = await historyReply(s.deps, userId, view, s.t, { now, search: false });
    // What a replay needs: the text and the buttons as plain data.
    return {
      text: r.text,
      markup: r.keyboard ? { reply_markup: { inline_keyboard: r.keyboard.inline_keyboard } } : {},
    };
  });
}

/** /history (with its month or number) in the middle of a flow, and its buttons turning it in place. */
export const historyAside: Aside = {
  commands: ["history"],
  async answer(s, u) {
    const arg = (u.message?.text ?? "").replace(/^\/history(@\w+)?/, "");
    const view = parseHistoryArg(arg) ?? { page: 0 };
    const page = await historyPage(s, u.from?.id ?? 0, view);
    await u.reply(page.text, page.markup);
  },
  async onButton(s, u, data) {
    const view = viewOfButton(data);
    if (view === null) return false;
    await u.answerCallbackQuery();
    const page = await historyPage(s, u.from?.id ?? 0, view);
    await u.editMessageText(page.text, page.markup);
    return true;
  },
};
