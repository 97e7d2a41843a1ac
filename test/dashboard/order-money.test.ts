import { describe, expect, it } from "vitest";
import { holdIdOf, type Order, transition } from "../../src/orders/index.ts";
import { eventFromExecute } from "../../src/orders/provider-events.ts";
import { ADMIN, AGENT, loggedIn, useDashboard } from "../support/dashboard.ts";
import { creditCustomer } from "../support/order-rig.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * An order's money on the back office (review s24-a, 1 and 2): the merchant's figures (the
 * aggregator's debit, the customer's balance after, the provider's answer with the merchant's
 * float and commission) for admins only, as /status shows them; the price in the order's own
 * currency (₹ for India), what the Nepal-rupee balance gave for it at its rate, and the price's
 * state (charged, held, returned), never "paid" for an open or failed order.
 */

const h = useDashboard();
let n = 0;
const nextRef = () => `${Date.now()}${++n}`.slice(-14);
/** Money on the customer's balance for the holds the orders below take. */
const fund = (userId: number, paisa: number) =>
  creditCustomer(h.ledger, userId, paisa, `fund-${nextRef()}`);
const rowOf = (text: string, label: string) =>
  new RegExp(`${label}</th><td>([^<]*)`).exec(text)?.[1];

describe("the merchant's figures on an order's page", () => {
  it("are the admin's only: an agent sees neither the debit, the balance after, nor the provider's answer", async () => {
    const reference = nextRef();
    await h.store.create(
      placedOrder({
        reference,
        idempotencyKey: `fig-${reference}`,
        userId: 7402,
        chatId: 7402,
        balanceAfterPaisa: 45_678,
      }),
    );
    const result = {
      kind: "accepted",
      referenceNo: reference,
      transactionId: "TX1",
      status: "success",
      message: "ok",
      amountPaisa: 10_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 0,
      debitAmountPaisa: 9_700,
      creditAvailablePaisa: 123_456_789,
      commissionPaisa: 300,
    };
    const ev = eventFromExecute(result as never, Date.now());
    const wallet = {
      amountPaisa: 10_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 0,
      debitAmountPaisa: 9_700,
      creditAvailablePaisa: 123_456_789,
    };
    await h.store.update(reference, (cur) => {
      const t = transition(cur, { ...ev, wallet } as never);
      return t.changed ? { order: t.order, notifications: t.notifications } : null;
    });

    const admin = await (
      await (await loggedIn(h, ADMIN)).get(`/dashboard/orders?ref=${reference}`)
    ).text();
    expect(rowOf(admin, "Aggregator debit")).toBe("Rs 97.00");
    expect(rowOf(admin, "Customer&#39;s available after")).toBe("Rs 456.78");
    expect(admin).toContain("123456789");
    expect(admin).toContain("What was sent");

    const res = await (await loggedIn(h, AGENT)).get(`/dashboard/orders?ref=${reference}`);
    expect(res.status).toBe(200);
    const agent = await res.text();
    expect(agent).toContain(`Order ${reference}`);
    expect(agent).not.toContain("Aggregator debit");
    expect(agent).not.toContain("available after");
    expect(agent).not.toContain("456.78");
    expect(agent).not.toContain("123456789");
    expect(agent).not.toContain("commissionPaisa");
    expect(agent).not.toContain("<details>");
    expect(agent).not.toContain("What was sent");
  });
});

describe("a refusal for the merchant's own wallet on an order's page (review s24-e, 1)", () => {
  it("an agent reads what the chat tells agents, never the aggregator's words; an admin reads them", async () => {
    const reference = nextRef();
    await h.store.create(
      placedOrder({ reference, idempotencyKey: `fs-${reference}`, userId: 7403, chatId: 7403 }),
    );
    const refusal = {
      kind: "rejected",
      referenceNo: reference,
      httpStatus: 400,
      message: "Insufficient balance: Rs 500.00 needed, Rs 12.34 available",
      rateLimited: false,
    };
    const ev = eventFromExecute(refusal as never, Date.now());
    expect(ev).toMatchObject({ status: "failed", floatShort: true });
    await h.store.update(reference, (cur) => {
      const t = transition(cur, ev);
      return t.changed ? { order: t.order, notifications: t.notifications } : null;
    });

    const agent = await (
      await (await loggedIn(h, AGENT)).get(`/dashboard/orders?ref=${reference}`)
    ).text();
    expect(agent).not.toContain("12.34");
    expect(agent).not.toContain("Insufficient balance");
    expect(agent).not.toContain("wallet is short");
    expect(rowOf(agent, "Provider message")).toBe(
      "the service is briefly unavailable (the chat&#39;s words for it)",
    );
    expect(agent).toContain(
      "<td>rejected: the service is briefly unavailable (the chat&#39;s words for it)</td>",
    );

    const admin = await (
      await (await loggedIn(h, ADMIN)).get(`/dashboard/orders?ref=${reference}`)
    ).text();
    expect(rowOf(admin, "Provider message")).toBe(
      "Insufficient balance: Rs 500.00 needed, Rs 12.34 available",
    );
    expect(admin).toContain("rejected: the merchant&#39;s wallet is short (HTTP 400)");
  });
});

describe("an order's price", () => {
  const india = (reference: string, status: "pending" | "success" | "failed") =>
    placedOrder({
      reference,
      idempotencyKey: `in-${reference}`,
      userId: 7501,
      chatId: 7501,
      region: "in",
      status,
      amountPaisa: 10_000,
      price: { amountPaisa: 10_000, feePaisa: 300, discountPaisa: 0, totalPaisa: 10_300 },
      exchange: { rateE4: 16_000, totalPaisa: 16_480, feePaisa: 480 },
      holdId: holdIdOf(reference),
    });

  it("an India order: ₹ figures, the Nepal rupees the balance gave at the rate, by state", async () => {
    const c = await loggedIn(h, ADMIN);
    const cases = [
      ["success", "charged"],
      ["pending", "held (the order is open)"],
      ["failed", "held, then returned (the order failed)"],
    ] as const;
    for (const [status, state] of cases) {
      const reference = nextRef();
      await fund(7501, 16_480);
      await h.store.create(india(reference, status));
      const text = await (await c.get(`/dashboard/orders?ref=${reference}`)).text();
      expect(rowOf(text, "Amount")).toBe("₹100.00");
      expect(rowOf(text, "Price")).toBe(`₹103.00 (fee ₹3.00): ${state}`);
      expect(rowOf(text, "From the customer&#39;s balance")).toBe(
        `Rs 164.80 at ₹1 = Rs 1.60: ${state}`,
      );
      expect(text).not.toContain("Price paid");
    }
    const search = await (await c.get("/dashboard/orders?customer=7501")).text();
    expect(search).toContain('class="amount">₹100.00');
    expect(search).not.toContain('class="amount">Rs 100.00');
  });

  /** A Nepal order of customer 7502, holding its price on the balance if `held`. */
  const nepal = (
    reference: string,
    status: "success" | "failed",
    price: NonNullable<Order["price"]>,
    held: boolean,
  ) =>
    placedOrder({
      reference,
      idempotencyKey: `np-${reference}`,
      userId: 7502,
      chatId: 7502,
      status,
      price,
      ...(held ? { holdId: holdIdOf(reference) } : {}),
    });

  it("a Nepal order in Rs; an order nobody paid through the books says so", async () => {
    const c = await loggedIn(h, ADMIN);
    const held = nextRef();
    await fund(7502, 10_300);
    await h.store.create(
      nepal(
        held,
        "failed",
        { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 200, totalPaisa: 10_300 },
        true,
      ),
    );
    const text = await (await c.get(`/dashboard/orders?ref=${held}`)).text();
    expect(rowOf(text, "Price")).toBe(
      "Rs 103.00 (fee Rs 5.00, discount Rs 2.00): held, then returned (the order failed)",
    );
    expect(rowOf(text, "From the customer&#39;s balance")).toBe(
      "Rs 103.00: held, then returned (the order failed)",
    );
    const staff = nextRef();
    await h.store.create(
      nepal(
        staff,
        "success",
        { amountPaisa: 10_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 10_000 },
        false,
      ),
    );
    const plain = await (await c.get(`/dashboard/orders?ref=${staff}`)).text();
    expect(rowOf(plain, "Price")).toBe(
      "Rs 100.00 (fee Rs 0.00): not charged through the books (no hold)",
    );
    expect(plain).not.toContain("From the customer");
  });
});
