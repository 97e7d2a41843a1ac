import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { registerContact, sharerOf } from "./command.ts";

/**
 * A contact shared while a flow waits for an answer registers, as it does anywhere else (issue 30:
 * it used to be thrown away with "Please answer with a text message"); the question keeps waiting.
 * Registered through `external`, with the outer update (its Telegram sender before any link), so a
 * replay registers nothing twice and shows what was shown.
 */
export const registerAside: Aside = {
  commands: [],
  // It answers no command: only contacts (onMessage).
  async answer() {},
  async onMessage(s, u) {
    if (!u.message?.contact) return false;
    const answer = await s.conversation.external((outer) =>
      registerContact(s.deps, s.t, sharerOf(outer), (chatId, text) =>
        outer.api.sendMessage(chatId, text),
      ),
    );
    await u.reply(answer.text, { reply_markup: answer.markup });
    return true;
  },
};
