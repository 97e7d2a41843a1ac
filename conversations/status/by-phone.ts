import { formatPhone, type Phone, phoneFromTyped } from "../../src/accounts/index.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { statusLabel } from "../../src/bot/order-texts.ts";
import { formatMoney } from "../../src/money.ts";

/**
 * An admin's /status with a phone number (issue 30): the recent orders of the customer registered
 * with it, each with its reference (which /status then opens), so a complaint on the phone can
 * be found without the customer's reference. Plain data, so the flow records it through `external`.
 */

const SHOWN = 10;

export interface PhoneOrders {
  phone: string;
  /** Null: nobody is registered with the number. */
  orders: Array<{
    ref: string;
    at: number;
    region: "np" | "in";
    operator: string;
    number: string;
    amountPaisa: number;
    status: string;
  }> | null;
}

/** The number as a phone when it can be one (10 digits such as 9841234567); null otherwise. */
export function phoneOfQuery(query: string): Phone | null {
  const p = phoneFromTyped(query);
  return p.ok ? p.phone : null;
}

export async function ordersOfPhone(deps: BotDeps, phone: Phone): Promise<PhoneOrders> {
  const userId = await deps.accounts.userByPhone(phone);
  const shown = formatPhone(phone);
  if (userId === null) return { phone: shown, orders: null };
  const orders = await deps.orders.listByUser(userId, SHOWN);
  return {
    phone: shown,
    orders: orders.map((o) => ({
      ref: o.reference,
      at: o.createdAt,
      region: o.region,
      operator: o.operatorName,
      number: o.connectionNo,
      amountPaisa: o.amountPaisa,
      status: o.status,
    })),
  };
}

export function phoneOrdersText(t: Translate, r: PhoneOrders): string {
  if (r.orders === null) return t("status-phone-unknown", { phone: r.phone });
  if (r.orders.length === 0) return t("status-phone-empty", { phone: r.phone });
  const lines = r.orders.map((o) =>
    t("status-phone-line", {
      time: formatOrderTime(o.at, o.region, t.locale),
      ref: o.ref,
      operator: o.operator,
      number: o.number,
      amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
      status: statusLabel(t, o.status),
    }),
  );
  return [t("status-phone-title", { phone: r.phone }), ...lines].join("\n");
}
