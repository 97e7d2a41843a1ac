import type { Api } from "grammy";
import type { BotDeps } from "../src/bot/deps.ts";
import { LOCALES, translator } from "../src/bot/i18n.ts";
import { setProfileTexts } from "./shortcut/profile.ts";

/**
 * The command menu Telegram shows, in each language: everyone's (with /addmoney when a gateway is
 * wired), plus /cashin and /myqr for agents in prepaid mode (in staff mode a customer has no
 * balance to cash into and may not order, so neither is offered) and /credit, /reverse, /books,
 * /settle, /waid for admins in their own chats, and
 * /dashboard for both when this deployment runs the back office (`opts.dashboard`: the composition
 * root knows, the chat's deps do not). The bot's description and short description go with them,
 * per language (shortcut/profile.ts).
 */
export async function registerCommands(
  api: Api,
  deps: BotDeps,
  opts: { dashboard?: boolean } = {},
): Promise<void> {
  const names = [
    "start",
    "recharge",
    "balance",
    "register",
    "status",
    "history",
    "statement",
    "saved",
    "reminders",
    "language",
    "help",
    "cancel",
  ];
  if (deps.topUps) names.splice(4, 0, "addmoney");
  if (deps.complaints) names.splice(names.indexOf("help"), 0, "complain");
  if (!deps.reminders) names.splice(names.indexOf("reminders"), 1);
  const office = opts.dashboard ? ["dashboard"] : [];
  const agents = deps.settings.agentIds.filter((id) => !deps.settings.adminIds.includes(id));
  const shop = deps.payment.mode === "prepaid" ? ["cashin", "myqr"] : [];
  for (const locale of LOCALES) {
    const t = translator(deps.i18n, locale);
    const lang = locale === "en" ? {} : { language_code: locale };
    const commands = names.map((command) => ({ command, description: t(`cmd-${command}`) }));
    await api.setMyCommands(commands, lang);
    await setProfileTexts(api, t, lang);
    const scoped = async (ids: readonly number[], extra: string[]) => {
      const list = [...commands, ...extra.map((c) => ({ command: c, description: t(`cmd-${c}`) }))];
      for (const chatId of ids) {
        await api.setMyCommands(list, { scope: { type: "chat", chat_id: chatId }, ...lang });
      }
    };
    await scoped(agents, [...shop, ...office]);
    await scoped(deps.settings.adminIds, [
      "credit",
      "reverse",
      "books",
      "settle",
      "waid",
      ...(deps.topUps ? ["topups", "writeoff"] : []),
      ...(deps.complaints ? ["complaints"] : []),
      ...office,
    ]);
  }
}
