import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { actionAnswer, applyAction, reminderAction } from "./command.ts";
import { remindersList } from "./text.ts";

/**
 * /reminders in the middle of a flow, and the reminders' buttons (Stop these reminders under a
 * reminder, Stop, Turn all off, back on) pressed meanwhile: answered in place, the flow's question
 * keeps waiting. Reads and changes go through `external`, so a replay repeats none.
 */
export const remindersAside: Aside = {
  commands: ["reminders"],
  async answer(s, u) {
    const port = s.deps.reminders;
    if (!port) {
      await u.reply(s.t("reminders-not-offered"));
      return;
    }
    const list = await s.conversation.external(() => port.list(u.from?.id ?? 0));
    const view = remindersList(s.t, list);
    await u.reply(view.text, view.keyboard ? { reply_markup: view.keyboard } : {});
  },
  async onButton(s, u, data) {
    const port = s.deps.reminders;
    const action = reminderAction(data);
    if (!port || action === null) return false;
    await u.answerCallbackQuery();
    const userId = u.from?.id ?? 0;
    const list = await s.conversation.external(async () => {
      await applyAction(port, userId, action);
      return port.list(userId);
    });
    const answer = actionAnswer(s.t, action, list);
    await u.reply(answer.text, answer.keyboard ? { reply_markup: answer.keyboard } : {});
    return true;
  },
};
