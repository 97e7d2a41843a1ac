import { Composer } from "grammy";
import {
  reminderOffButton,
  reminderStopButton,
  remindersAllOffButton,
  remindersOnButton,
} from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps, BotReminders } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { remindersList } from "./text.ts";

/**
 * /reminders: the customer's upcoming reminders, each with its Stop, and Turn all off (or back on
 * when they are off). Under a reminder, "Stop these reminders" turns off the accounts it named. The
 * ids in a button are only ever looked up among the presser's own accounts (the store is per
 * customer), so forged data turns off nothing of anyone else's. The answers are new messages, not
 * edits: WhatsApp cannot edit, and they read the same.
 */

/** What a reminders button asks; null for any other data. */
export type ReminderAction =
  | { kind: "these"; ids: string[] }
  | { kind: "one"; id: string }
  | { kind: "all-off" }
  | { kind: "on" };

export function reminderAction(data: string | undefined): ReminderAction | null {
  const these = reminderStopButton.parse(data);
  if (these !== null) return { kind: "these", ids: these.split(".") };
  const one = reminderOffButton.parse(data);
  if (one !== null) return { kind: "one", id: one };
  if (remindersAllOffButton.is(data)) return { kind: "all-off" };
  if (remindersOnButton.is(data)) return { kind: "on" };
  return null;
}

export async function applyAction(port: BotReminders, userId: number, a: ReminderAction) {
  if (a.kind === "these") await port.setOff(userId, a.ids, true);
  else if (a.kind === "one") await port.setOff(userId, [a.id], true);
  else await port.setOff(userId, "all", a.kind === "all-off");
}

/** The answer to a button, after it was applied: what happened, and the list as it is now. */
export function actionAnswer(
  t: Translate,
  a: ReminderAction,
  list: Awaited<ReturnType<BotReminders["list"]>>,
) {
  if (a.kind === "these") return { text: t("reminders-stopped-these"), keyboard: undefined };
  const said = {
    one: "reminders-one-off-done",
    "all-off": "reminders-all-off-done",
    on: "reminders-on-done",
  }[a.kind];
  const view = remindersList(t, list);
  return { text: `${t(said)}\n\n${view.text}`, keyboard: view.keyboard };
}

export function reminders(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const port = deps.reminders;
  const priv = composer.chatType("private");
  const tOf = async (ctx: BotContext) => translator(deps.i18n, await ctx.i18n.getLocale());
  if (!port) {
    // REMINDERS=0: said so, not "I did not understand".
    priv.command("reminders", async (ctx) => ctx.reply((await tOf(ctx))("reminders-not-offered")));
    return composer;
  }

  priv.command("reminders", async (ctx) => {
    const view = remindersList(await tOf(ctx), await port.list(ctx.from.id));
    await ctx.reply(view.text, view.keyboard ? { reply_markup: view.keyboard } : {});
  });

  priv.on("callback_query:data", async (ctx, next) => {
    const action = reminderAction(ctx.callbackQuery.data);
    if (action === null) return next();
    await ctx.answerCallbackQuery();
    await applyAction(port, ctx.from.id, action);
    // The reminder's buttons go once it is stopped (it stays readable).
    if (action.kind === "these") {
      await ctx.editMessageReplyMarkup({ reply_markup: undefined }).catch(() => undefined);
    }
    const answer = actionAnswer(await tOf(ctx), action, await port.list(ctx.from.id));
    await ctx.reply(answer.text, answer.keyboard ? { reply_markup: answer.keyboard } : {});
  });

  return composer;
}
