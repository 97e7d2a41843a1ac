import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, type Role, roleIn } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";

/**
 * The /help text for a role (also answered in the middle of a flow, by the flow's wait loop);
 * /balance and /register are a customer's only when customers pay from a balance (prepaid), and
 * /addmoney (and an admin's /topups) only when an online gateway is wired. Each staff role sees
 * every command of theirs (issue 30); an agent's /cashin and /myqr only in prepaid mode (in staff
 * mode a customer has no balance to cash into and may not order), and an admin's /credit in staff
 * mode says the float waits for prepaid mode.
 */
export function helpText(
  t: Translate,
  role: Role,
  opts: { prepaid?: boolean; topUps?: boolean; complaints?: boolean; reminders?: boolean } = {},
): string {
  const lines = [opts.topUps ? `${t("help-text")}\n${t("help-topup")}` : t("help-text")];
  if (opts.prepaid) lines.push(t("help-accounts"));
  lines.push(
    opts.reminders ? `${t("help-statement")}\n${t("help-reminders")}` : t("help-statement"),
  );
  if (opts.complaints) lines.push(t("help-complain"));
  if (role !== "customer") lines.push(t("help-agent"));
  if (role === "agent" && opts.prepaid) lines.push(t("help-agent-cashin"), t("help-agent-shop"));
  if (role === "admin") {
    lines.push(
      t("help-admin"),
      t("help-admin-books"),
      t(opts.prepaid ? "help-admin-accounts" : "help-admin-accounts-staff"),
      t("help-admin-settle"),
    );
    if (opts.topUps) lines.push(t("help-admin-topups"));
    if (opts.complaints) lines.push(t("help-admin-complaints"));
    lines.push(t("help-admin-status"));
  }
  // Said to both staff roles: the chat's deps cannot tell whether this deployment runs the back
  // office, so the line says what /dashboard does and that it may be off.
  if (role !== "customer") lines.push(t("help-dashboard"));
  return lines.join("\n\n");
}

/** What the help shows besides the basics, from what this deployment has wired. */
export function helpOptions(deps: BotDeps): {
  prepaid: boolean;
  topUps: boolean;
  complaints: boolean;
  reminders: boolean;
} {
  return {
    prepaid: deps.payment.mode === "prepaid",
    topUps: deps.topUps !== undefined,
    complaints: deps.complaints !== undefined,
    reminders: deps.reminders !== undefined,
  };
}

/** /help: the customer's text, plus the agent's and the admin's parts for their roles. */
export function help(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("help", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    await ctx.reply(helpText(t, roleIn(deps.settings, ctx), helpOptions(deps)));
  });
  return composer;
}
