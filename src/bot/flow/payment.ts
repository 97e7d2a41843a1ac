import { formatMoney } from "../../money.ts";
import { type ShownFigures, sameAsShown } from "../../orders/service.ts";
import { formatRate, type NprCharge, type Quote } from "../../pricing/index.ts";
import type { BotDeps, OrderDraft, PricedDraft } from "../deps.ts";
import type { FlowScope } from "./prompt-loop.ts";

/**
 * The checkout's money: the price of a draft (and in prepaid mode the balance and the rate), what
 * the balance and the daily cap count for it, and the confirmation's price lines.
 */

/** What the checkout knows of the money: the price, and in prepaid mode the balance (and the rate). */
export interface Payment {
  price: Quote;
  /** A draft in ₹ paid from the Nepal-rupee balance: the rate and the NPR figures. */
  exchange?: NprCharge;
  balancePaisa?: number;
}

/** What the balance pays, in Nepal paisa. */
export const charged = (pay: Payment): number => pay.exchange?.totalPaisa ?? pay.price.totalPaisa;

/** What the daily spend cap counts for a draft, in Nepal paisa (BotPayment.spendOf). */
export function spendOf(deps: BotDeps, draft: PricedDraft): number {
  const p = deps.payment;
  return p.spendOf?.(draft) ?? p.exchangeOf?.(draft)?.totalPaisa ?? p.priceOf(draft).totalPaisa;
}

/** The figures of a draft priced now: the price and, in prepaid mode, what the balance pays (no read). */
export function pricedNow(deps: BotDeps, draft: OrderDraft): Payment {
  const p = deps.payment;
  const price = p.priceOf(draft);
  if (p.mode !== "prepaid") return { price };
  const exchange = p.exchangeOf?.(draft);
  return exchange ? { price, exchange } : { price };
}

/** The figures a confirmation shows for a pricing: every line, what place holds the order to. */
export function shownFigures(pay: Payment): ShownFigures {
  const { price, exchange } = pay;
  return {
    totalPaisa: price.totalPaisa,
    chargedPaisa: charged(pay),
    feePaisa: price.feePaisa,
    discountPaisa: price.discountPaisa,
    ...(exchange ? { rateE4: exchange.rateE4 } : {}),
  };
}

/** Whether a draft priced `now` shows the figures `shown` showed: place's own comparison. */
export const sameFigures = (now: Payment, shown: Payment): boolean =>
  sameAsShown(shownFigures(now), shownFigures(shown));

/** The price of a draft and, in prepaid mode, the customer's available balance. */
export async function paymentOf(
  deps: BotDeps,
  userId: number,
  draft: OrderDraft,
): Promise<Payment> {
  const now = pricedNow(deps, draft);
  if (deps.payment.mode !== "prepaid") return now;
  return { ...now, balancePaisa: await deps.payment.availablePaisa(userId) };
}

/**
 * Fee, discount and total when there are any; in prepaid mode always the total and the balance
 * after. The order's figures are in its country's rupees; what the balance pays and the balance
 * are Nepal rupees: an India order shows its ₹ total, then the Rs it takes at the rate.
 */
export function priceLines(s: FlowScope, draft: OrderDraft, pay: Payment): string[] {
  const rs = (paisa: number) => formatMoney(paisa, { region: draft.region, locale: s.t.locale });
  const npr = (paisa: number) => formatMoney(paisa, { region: "np", locale: s.t.locale });
  const { feePaisa, discountPaisa, totalPaisa } = pay.price;
  const lines: string[] = [];
  if (feePaisa > 0) lines.push(s.t("confirm-fee", { fee: rs(feePaisa) }));
  if (discountPaisa > 0) lines.push(s.t("confirm-discount", { discount: rs(discountPaisa) }));
  if (pay.exchange) {
    lines.push(s.t("confirm-total-inr", { total: rs(totalPaisa) }));
    lines.push(
      s.t("confirm-pay-npr", {
        npr: npr(pay.exchange.totalPaisa),
        rate: formatRate(pay.exchange.rateE4),
      }),
    );
  } else if (feePaisa > 0 || discountPaisa > 0 || pay.balancePaisa !== undefined)
    lines.push(s.t("confirm-total", { total: rs(totalPaisa) }));
  if (pay.balancePaisa !== undefined)
    lines.push(s.t("confirm-balance-after", { balance: npr(pay.balancePaisa - charged(pay)) }));
  return lines;
}
