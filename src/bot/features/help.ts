import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { type BotDeps, type Role, roleOf } from "../deps.ts";
import { type Translate, translator } from "../i18n.ts";

/** The /help text for a role (also answered in the middle of a flow, by the flow's wait loop). */
export function helpText(t: Translate, role: Role, topUps = false): string {
  const lines = [topUps ? `${t("help-text")}\n${t("help-topup")}` : t("help-text")];
  if (role !== "customer") lines.push(t("help-agent"));
  if (role === "admin") lines.push(t("help-admin"));
  return lines.join("\n\n");
}

/** /help: the customer's text, plus the agent's and the admin's parts for their roles. */
export function help(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("help", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    await ctx.reply(helpText(t, roleOf(deps.settings, ctx.from.id), deps.topUps !== undefined));
  });
  return composer;
}
