import { Composer } from "grammy";
import {
  reminderOffButton,
  reminderStopButton,
  remindersAllOffButton,
  remindersOnButton,
} from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { remindersList } from "./text.ts";

/**
 * /reminders: the customer's upcoming reminders, each with its Stop, and Turn all off (or back on
 * when they are off). Under a reminder, "Stop these reminders" turns off the accounts it named. The
 * ids in a button are only ever the presser's own accounts' (a forged one turns off nothing of
 * anyone else: the store is per customer).
 */
export function reminders(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const port = deps.reminders;
  if (!port) return composer;
  const priv = composer.chatType("private");
  const show = async (ctx: BotContext & { from: { id: number } }) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const view = remindersList(t, await port.list(ctx.from.id));
    return { t, view };
  };

  priv.command("reminders", async (ctx) => {
    const { view } = await show(ctx);
    await ctx.reply(view.text, view.keyboard ? { reply_markup: view.keyboard } : {});
  });

  priv.on("callback_query:data", async (ctx, next) => {
    const data = ctx.callbackQuery.data;
    const these = reminderStopButton.parse(data);
    const one = reminderOffButton.parse(data);
    const allOff = remindersAllOffButton.is(data);
    const on = remindersOnButton.is(data);
    if (these === null && one === null && !allOff && !on) return next();
    await ctx.answerCallbackQuery();
    const userId = ctx.from.id;
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (these !== null) {
      await port.setOff(userId, these.split("."), true);
      // The reminder stays readable; its buttons go, and the chat is told what happened.
      await ctx.editMessageReplyMarkup({ reply_markup: undefined }).catch(() => undefined);
      await ctx.reply(t("reminders-stopped-these"));
      return;
    }
    if (one !== null) await port.setOff(userId, [one], true);
    else await port.setOff(userId, "all", allOff);
    const { view } = await show(ctx);
    const said =
      one !== null
        ? t("reminders-one-off-done")
        : allOff
          ? t("reminders-all-off-done")
          : t("reminders-on-done");
    // A new message rather than an edit: WhatsApp cannot edit, and the answer reads the same.
    await ctx.reply(
      `${said}\n\n${view.text}`,
      view.keyboard ? { reply_markup: view.keyboard } : {},
    );
  });

  return composer;
}
