import type { BotDeps } from "../../src/bot/deps.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { statusLabel } from "../../src/bot/order-texts.ts";
import { formatMoney } from "../../src/money.ts";
import { isFinal, type Order } from "../../src/orders/model.ts";

/** How many of the account's newest orders a release looks through, and how many it names. */
const LOOKED_AT = 200;
const NAMED = 20;

/**
 * The released account's orders not final yet (/waid release): their results are pushes to the
 * account's chat, which is the number's and no longer the account's, so they will not reach it
 * (the admin tells its owner another way). Among its newest LOOKED_AT orders (an order still
 * under way is a recent one), newest first.
 */
async function ordersUnderWay(deps: BotDeps, account: number) {
  const open: Order[] = [];
  let looked = 0;
  while (looked < LOOKED_AT) {
    const page = await deps.orders.listByUser(account, 100, looked);
    looked += page.length;
    open.push(...page.filter((o) => !isFinal(o.status)));
    if (page.length < 100) return { open, all: true };
  }
  return { open, all: false };
}

/** What the release's reply adds: the orders under way (reference, amount, status), or none. */
export async function underWayText(deps: BotDeps, t: Translate, account: number): Promise<string> {
  const { open, all } = await ordersUnderWay(deps, account);
  const lines =
    open.length === 0
      ? [t("waid-released-none")]
      : [
          t("waid-released-open", { count: String(open.length) }),
          ...open.slice(0, NAMED).map((o) =>
            t("waid-released-order", {
              ref: o.reference,
              amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
              status: statusLabel(t, o.status),
            }),
          ),
        ];
  if (open.length > NAMED)
    lines.push(t("waid-released-more", { more: String(open.length - NAMED) }));
  if (!all) lines.push(t("waid-released-looked", { count: String(LOOKED_AT) }));
  return lines.join("\n");
}
