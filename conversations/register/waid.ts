import { Composer, type MiddlewareFn } from "grammy";
import { formatPhone, phoneFromContact } from "../../src/accounts/index.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { waHeldOf } from "../../src/whatsapp/held.ts";
import { underWayText } from "./waid-orders.ts";

/**
 * A WhatsApp sender whose Meta user id is not the one the number's account belongs to
 * (whatsapp/inbound.ts `ownAccount`): every message gets the same short answer, before any flow,
 * command or button, until an admin decides; nothing of the account is shown or spent.
 */
export function waHeldGate(deps: BotDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const held = waHeldOf(ctx.update);
    if (!held) return next();
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => {});
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const phone = formatPhone(held.phone);
    await ctx.reply(t(held.released ? "wa-held-released" : "wa-held", { phone }));
  };
}

/**
 * /waid <phone> accept <id> | release [<id>] (admins): the decision on a held WhatsApp account.
 * accept: the held sender's Meta user id becomes the account's (the same person with a re-issued
 * id); only the sender the alert names (its short id: `waShortId`), never whoever wrote last: if
 * another sender's hold replaced it since, nothing is done and the admin is told which is held.
 * release names nobody (the number leaves the account whoever is held; an id given is checked).
 * release: the number leaves the account, which keeps its money, history and its own user id,
 * and nothing of it goes to the number's chat any more; the chat's open flow, session and idle
 * deadline are dropped (bot/chat-state.ts); the number's holder gets a fresh account
 * on their next message (whatsapp/inbound.ts `freshAccount`). Each decision is
 * logged with the admin and the time (`{accounts}:wadecided`) and in the log.
 */
export function waid(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("waid", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (roleIn(deps.settings, ctx) !== "admin") {
      await ctx.reply(t("balance-denied"));
      return;
    }
    // The decision, then the sender's short id; the number before them may have spaces.
    const m = /^(.+?)\s+(accept|release)(?:\s+(\S+))?$/i.exec(ctx.match.trim());
    const phone = phoneFromContact(m?.[1] ?? "");
    const decision = (m?.[2] ?? "").toLowerCase();
    const id = m?.[3];
    if (
      phone === null ||
      (decision !== "accept" && decision !== "release") ||
      (decision === "accept" && id === undefined)
    ) {
      await ctx.reply(t("waid-usage", { accept: "accept", release: "release" }));
      return;
    }
    const d = await deps.accounts.decideWa(phone, decision, ctx.from?.id ?? 0, Date.now(), id);
    if (d === null) {
      await ctx.reply(t("waid-none", { phone: formatPhone(phone) }));
      return;
    }
    if ("other" in d) {
      await ctx.reply(
        t("waid-other", { phone: formatPhone(phone), pending: d.pending, id: id ?? "" }),
      );
      return;
    }
    deps.logger.info({ ...d, phone: undefined }, "whatsapp hold decided");
    // The number's chat changes hands: a flow its old holder left open (a confirmation waiting)
    // must not be answered by the next holder, as the old account, with its money.
    const chat = chatIdOfWaId(phone);
    if (decision === "release" && chat !== null) await deps.forgetChat(chat);
    const said = t(decision === "accept" ? "waid-accepted" : "waid-released", {
      phone: formatPhone(phone),
      account: String(d.account),
    });
    // The old account's orders still under way: their results will not reach the number.
    // Read after the release is recorded: a failed read still tells the admin it was released.
    const open =
      decision === "release"
        ? `\n\n${await underWayText(deps, t, d.account).catch((err: unknown) => {
            deps.logger.warn({ account: d.account, err: String(err) }, "released orders unread");
            return t("waid-released-unread");
          })}`
        : "";
    await ctx.reply(`${said}${open}`);
  });
  return composer;
}
