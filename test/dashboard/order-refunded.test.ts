import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdIdOf } from "../../src/orders/index.ts";
import { refundedComplaint } from "../support/complaints.ts";
import { type ActionsHarness, ADMIN, AGENT, startActions } from "../support/dashboard-actions.ts";
import { creditCustomer } from "../support/order-rig.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Review s24-e, 7: an order refunded on a complaint no longer reads "charged" on its page. The
 * refund is a transfer of its own under the complaint's number; the page names the complaint and
 * the amount the books booked, in full or in part, and lists the transfer with the order's.
 */

let h: ActionsHarness;
beforeAll(async () => {
  h = await startActions();
});
afterAll(async () => {
  await h?.close();
});

const rowOf = (text: string, label: string) =>
  new RegExp(`${label}</th><td>([^<]*)`).exec(text)?.[1];

/** A successful order of `userId` paid from the balance (Rs 103.00), refunded `refundPaisa` on a complaint. */
async function refunded(userId: number, reference: string, refundPaisa: number) {
  await creditCustomer(h.ledger, userId, 10_300, `rf-fund-${reference}`);
  await h.store.create(
    placedOrder({
      reference,
      idempotencyKey: `rf-${reference}`,
      userId,
      chatId: userId,
      status: "success",
      amountPaisa: 10_000,
      price: { amountPaisa: 10_000, feePaisa: 300, discountPaisa: 0, totalPaisa: 10_300 },
      holdId: holdIdOf(reference),
    }),
  );
  const r = await refundedComplaint(h.complaints, userId, reference, refundPaisa, {
    text: "refunded",
    by: ADMIN,
  });
  expect(r.done).toMatchObject({ ok: true });
  return r.reference;
}

describe("an order refunded on a complaint, on its page", () => {
  it("says refunded, with the books' amount and the complaint, never 'charged'", async () => {
    const whole = await refunded(6401, "880000000006401", 10_300);
    for (const who of [ADMIN, AGENT]) {
      const text = await (
        await (await h.login(who)).get("/dashboard/orders?ref=880000000006401")
      ).text();
      const price = rowOf(text, "Price");
      expect(price).toMatch(
        new RegExp(
          `^Rs 103\\.00 \\(fee Rs 3\\.00\\): refunded in full: Rs 103\\.00 back to the balance on complaint ${whole}, `,
        ),
      );
      expect(rowOf(text, "From the customer&#39;s balance")).toContain(
        `refunded in full: Rs 103.00 back to the balance on complaint ${whole}`,
      );
      expect(text).not.toContain(": charged");
    }
    const admin = await (
      await (await h.login(ADMIN)).get("/dashboard/orders?ref=880000000006401")
    ).text();
    expect(admin).toContain(`complaint:${whole}:refund`);

    const part = await refunded(6402, "880000000006402", 5_000);
    const text = await (
      await (await h.login(ADMIN)).get("/dashboard/orders?ref=880000000006402")
    ).text();
    expect(rowOf(text, "Price")).toContain(
      `refunded in part: Rs 50.00 back to the balance on complaint ${part}, `,
    );
    expect(rowOf(text, "Price")).toContain("; the rest stays paid");
    expect(text).not.toContain(": charged");
  });

  // The refunding complaint is found by the order's exact refund mark, not among the customer's
  // newest complaints: 101 later complaints of the same customer still leave it "refunded".
  it("says refunded when the customer raised more than 100 complaints since", async () => {
    const userId = 6403;
    const first = await refunded(userId, "880000000006403", 10_300);
    for (let i = 0; i < 101; i++) {
      const reference = `8810000000${String(i).padStart(5, "0")}`;
      await h.store.create(
        placedOrder({
          reference,
          idempotencyKey: `rf-later-${reference}`,
          userId,
          chatId: userId,
          status: "success",
          amountPaisa: 10_000,
        }),
      );
      const r = await h.complaints.raise({
        userId,
        chatId: userId,
        locale: "en",
        orderReference: reference,
        reason: "not_received",
      });
      expect(r).toMatchObject({ ok: true, created: true });
    }
    const text = await (
      await (await h.login(ADMIN)).get("/dashboard/orders?ref=880000000006403")
    ).text();
    expect(rowOf(text, "Price")).toContain(
      `refunded in full: Rs 103.00 back to the balance on complaint ${first}, `,
    );
    expect(text).not.toContain(": charged");
  });
});
