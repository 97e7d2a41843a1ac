import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountId, account } from "../../src/ledger/index.ts";
import { type ActionsHarness, ADMIN, AGENT, startActions } from "../support/dashboard-actions.ts";

/**
 * The back office's pages never call the posted balance "Balance" (it still counts what is held
 * for orders in flight): an agent's home page and "My day" show their float available, held apart
 * and the posted sum named so; a held top-up's page shows the customer's money available and
 * held. Over real Redis and HTTP. An agent's float is never held by an order of the bot, and a
 * top-up is held before any order, so the hold here is the books' own (as an order's Confirm
 * makes it); test/e2e/balance-held.test.ts holds a customer's money by a real order.
 */

let h: ActionsHarness;
beforeAll(async () => {
  h = await startActions();
});
afterAll(async () => {
  await h?.close();
});

async function creditAndHold(acc: AccountId, creditPaisa: number, heldPaisa: number, id: string) {
  const credit = { debit: account.merchant.funding, credit: acc, kind: "credit" as const };
  expect(
    (await h.ledger.transfer({ ...credit, id: `${id}-credit`, amountPaisa: creditPaisa })).ok,
  ).toBe(true);
  const hold = { id, debit: acc, credit: account.merchant.sales, amountPaisa: heldPaisa };
  expect((await h.ledger.hold(hold)).ok).toBe(true);
}

describe("balances in the back office, with money held", () => {
  it("an agent's home and My day: available, held apart, the posted sum named so", async () => {
    await creditAndHold(account.agent(AGENT), 100_000, 30_000, "order-words-agent");
    const c = await h.login(AGENT);
    const float =
      /Available<\/th><td>Rs 700\.00<\/td><\/tr><tr><th scope="row">Held for orders in flight<\/th><td>Rs 300\.00<\/td><\/tr><tr><th scope="row">Posted \(incl\. held\)<\/th><td>Rs 1000\.00/;
    const home = await (await c.get("/dashboard")).text();
    expect(home).toMatch(float);
    expect(home).not.toContain(">Balance<");
    const me = await (await c.get("/dashboard/me")).text();
    expect(me).toMatch(float);
    expect(me).not.toContain(">Balance<");
    // The day's edges: what was available at its end, the held money apart, never the posted sum.
    expect(me).toMatch(
      /Float at the day&#39;s end \(or now\)<\/th><td>available Rs 700\.00, held Rs 300\.00 for orders in flight</,
    );
    expect((await h.ledger.void("order-words-agent")).ok).toBe(true);
  });

  it("a held top-up's page: the customer's money available and held, not the posted sum", async () => {
    const t = await h.heldTopUp(6301, 20_000, 25_000);
    await creditAndHold(account.customer(6301), 100_000, 40_000, "order-words-6301");
    const c = await h.login(ADMIN);
    const page = await (await c.get(`/dashboard/topups/decide?id=${t.paymentId}&d=reject`)).text();
    expect(page).toContain(
      "user 6301, available Rs 600.00, held Rs 400.00 for orders in flight now",
    );
    expect(page).not.toContain("balance now");
    expect((await h.ledger.void("order-words-6301")).ok).toBe(true);
  });
});
