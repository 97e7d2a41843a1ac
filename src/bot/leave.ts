import { Composer } from "grammy";
import type { Message, MessageEntity, Update } from "grammy/types";
import { leaveButton } from "./callback-data.ts";
import type { BotContext } from "./context.ts";

/**
 * "Leave this order?" -> Leave. The flow has ended (prompt-loop.ts halts it and passes the press
 * on); what the user sent in the middle of it runs now. The update is rewritten into what the user
 * had sent (the command as a message, or the menu/repeat button's data) and handed to the features
 * after this one, so every command, also one added later, behaves exactly as when sent outside a
 * flow. The press was delivered once (dedupe ran before), so nothing runs twice.
 */
/**
 * The words the Leave press ends its flow with ("flow-left", or the flow's own FlowWords.ended):
 * set by the flow, which sees the press first, for this update only. A press no flow saw came
 * after its flow ended (its order confirmed from the question above, a Cancel, the idle time):
 * then "Nothing was charged" may be untrue, so it says only that nothing was left (review
 * s33-rvtruth 2).
 */
const leftWords = new WeakMap<object, string>();
export function sayOnLeave(update: object, key: string): void {
  leftWords.set(update, key);
}

export function leave(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").on("callback_query:data", async (ctx, next) => {
    const target = leaveButton.parse(ctx.callbackQuery.data);
    if (target === null) return next();
    const question = ctx.callbackQuery.message;
    // The question says what happened and loses its buttons.
    await ctx.editMessageText(ctx.t(leftWords.get(ctx.update) ?? "flow-left-over")).catch(() => {});
    if (!target.startsWith("/")) {
      // A menu or repeat button: its own handler answers the press.
      ctx.callbackQuery.data = target;
      return next();
    }
    await ctx.answerCallbackQuery();
    const command = target.split(/\s/)[0] ?? target;
    const entity: MessageEntity = { type: "bot_command", offset: 0, length: command.length };
    const message = {
      message_id: question?.message_id ?? 0,
      date: Math.floor(Date.now() / 1000),
      chat: ctx.chat,
      from: ctx.from,
      text: target,
      entities: [entity],
    } as Message.TextMessage;
    const update = ctx.update as Update;
    update.message = message as Update["message"];
    delete update.callback_query;
    return next();
  });
  return composer;
}
