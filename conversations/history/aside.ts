import type { InlineKeyboard } from "grammy";
import { historyPageButton } from "../../src/bot/callback-data.ts";
import type { Aside, FlowScope } from "../../src/bot/flow/toolkit.ts";
import { nicknameLabel } from "../../src/bot/saved.ts";
import { HISTORY_SIZE, renderHistory } from "./command.ts";

/** One page of /history, read through `external`: a replay sees the list the user saw. */
async function historyPage(s: FlowScope, userId: number, page: number) {
  const found = await s.conversation.external(() =>
    s.deps.orders.listByUser(userId, HISTORY_SIZE + 1, page * HISTORY_SIZE),
  );
  // Saved nicknames name the numbers, as outside a flow.
  const saved = await s.conversation.external(() => s.deps.saved.list(userId));
  return renderHistory(
    s.t,
    s.t.locale,
    { orders: found.slice(0, HISTORY_SIZE), page, hasNext: found.length > HISTORY_SIZE },
    nicknameLabel(saved),
  );
}

function historyMessage(r: { text: string; keyboard?: InlineKeyboard }) {
  return [r.text, r.keyboard ? { reply_markup: r.keyboard } : {}] as const;
}

/** /history in the middle of a flow, and its Prev / Next turning the page in place. */
export const historyAside: Aside = {
  commands: ["history"],
  async answer(s, u) {
    await u.reply(...historyMessage(await historyPage(s, u.from?.id ?? 0, 0)));
  },
  async onButton(s, u, data) {
    const page = historyPageButton.parse(data);
    if (page === null) return false;
    await u.answerCallbackQuery();
    const [text, other] = historyMessage(await historyPage(s, u.from?.id ?? 0, page));
    await u.editMessageText(text, other);
    return true;
  },
};
