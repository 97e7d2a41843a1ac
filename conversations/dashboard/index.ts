import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { channelIdOf } from "../../src/bot/person.ts";

/**
 * /dashboard (issue 29): an admin or an agent gets a one-time link to the back office, in their
 * private chat only (a group would show it to everyone), with link previews off: Telegram's preview
 * crawler must not open it (it could not spend it anyway: opening shows a confirm button, only
 * the POST logs in). Who may have a link is decided by `issueLink` (the back office re-reads the
 * role from the settings at login and on every request), so this command knows nothing of tokens
 * or roles. The link is for the chat's own id (the Telegram user, or the WhatsApp chat), never for
 * the account a link between chats makes it act as: roles belong to the channel (bot/person.ts
 * `channelIdOf`), and a chat joined to an account that is staff now must not get its back office.
 */

export interface DashboardCommandDeps {
  /** A fresh link for this channel id, or null when its role may not open the back office. */
  issueLink(userId: number): Promise<{ url: string } | null>;
}

export const DASHBOARD_COMMAND = "dashboard";

export function dashboardCommand(deps: DashboardCommandDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command(DASHBOARD_COMMAND, async (ctx) => {
    let link: { url: string } | null;
    try {
      link = await deps.issueLink(channelIdOf(ctx) ?? ctx.from.id);
    } catch {
      // Redis did not answer: say so rather than fall to the generic error reply.
      await ctx.reply(ctx.t("dashboard-unavailable"));
      return;
    }
    if (!link) {
      await ctx.reply(ctx.t("dashboard-denied"));
      return;
    }
    await ctx.reply(ctx.t("dashboard-link", { url: link.url }), {
      link_preview_options: { is_disabled: true },
    });
  });
  return composer;
}
