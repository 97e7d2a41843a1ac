import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { formatMoney } from "../../src/money.ts";

/**
 * /writeoff <payment id> <reason> (admins): what a refunded top-up still owes back when the
 * customer's balance was short at the refund and will not rise again (review s31-pay, 4b). The
 * top-up service books it from merchant:adjustments to the gateway's clearing account with the
 * reason, once per top-up, and stops taking it back; the refund alert names the command.
 */
export function writeOffCommand(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("writeoff", async (ctx) => {
    const topUps = deps.topUps;
    if (roleIn(deps.settings, ctx) !== "admin" || !topUps?.writeOffRefund) {
      await ctx.reply(ctx.t("balance-denied"));
      return;
    }
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const [pid = "", ...words] = ctx.match.trim().split(/\s+/);
    const reason = words.join(" ");
    if (!pid || !reason) {
      await ctx.reply(t("writeoff-usage"));
      return;
    }
    const r = await topUps.writeOffRefund(pid, ctx.from.id, reason);
    if (r.ok) {
      const amount = formatMoney(r.writtenOffPaisa, { locale: t.locale });
      await ctx.reply(t("writeoff-done", { amount, pid, user: String(r.topUp.userId) }));
      return;
    }
    const key =
      r.reason === "nothing_owed"
        ? "writeoff-nothing"
        : r.reason === "unknown"
          ? "writeoff-unknown"
          : r.reason === "reason"
            ? "writeoff-usage"
            : "writeoff-refused";
    await ctx.reply(t(key, { pid }));
  });
  return composer;
}
