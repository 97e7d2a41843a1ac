import { Composer } from "grammy";
import { formatMoney } from "../../money.ts";
import { isProviderError } from "../../provider/index.ts";
import type { BotContext } from "../context.ts";
import { type BotDeps, roleOf } from "../deps.ts";
import { type Translate, translator } from "../i18n.ts";

/** What /balance found: plain data, so a flow can record it through `conversation.external`. */
export type BalanceResult =
  | { kind: "denied" }
  | { kind: "unavailable" }
  | { kind: "ok"; creditPaisa: number };

/** Asks the provider for the wallet, for admins only (also from the middle of a flow). */
export async function fetchBalance(deps: BotDeps, userId: number): Promise<BalanceResult> {
  if (roleOf(deps.settings, userId) !== "admin") return { kind: "denied" };
  try {
    const wallet = await deps.provider.walletBalance();
    return { kind: "ok", creditPaisa: wallet.creditAvailablePaisa };
  } catch (e) {
    if (!isProviderError(e)) throw e;
    deps.logger.warn({ kind: e.kind }, "wallet balance failed");
    return { kind: "unavailable" };
  }
}

export function balanceText(t: Translate, r: BalanceResult): string {
  if (r.kind === "denied") return t("balance-denied");
  if (r.kind === "unavailable") return t("balance-unavailable");
  return t("balance-result", { amount: formatMoney(r.creditPaisa, { locale: t.locale }) });
}

/** /balance: the aggregator wallet's available credit, for admins only. */
export function balance(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("balance", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    await ctx.reply(balanceText(t, await fetchBalance(deps, ctx.from.id)));
  });
  return composer;
}
