import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRupees } from "../../src/bot/format.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";

/** /history and its "repeat" buttons, end to end. */
describe("order history and repeat, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const ledgerFor = (connectionNo: string) =>
    ts.system
      .sandbox!.ledger(ts.system.config.sandbox.token)
      .filter((r) => r.connectionNo === connectionNo);

  it("says so when there is no order yet", async () => {
    const u = ts.user(920);
    expect((await u.say("/history")).text).toBe(
      "You have no orders yet. Send /recharge to make one.",
    );
  });

  it("lists the last orders newest first, each with its status and a repeat button", async () => {
    const u = ts.user(921);
    const first = await placeMobile(u, "9841000201", "100");
    await u.waitFor(new RegExp(`Order ${first} succeeded`));
    const second = await placeMobile(u, "9861230000", "150");
    await u.waitFor(new RegExp(`Order ${second} failed`));
    const third = await placeMobile(u, "9861000203", "200");
    await u.waitFor(new RegExp(`Order ${third} succeeded`));

    const list = await u.say("/history", /Your last orders/);
    const lines = list.text.split("\n");
    expect(lines[0]).toBe("Your last orders:");
    expect(lines.slice(1)).toEqual([
      `${third} · NTC Prepaid · 9861000203 · Rs 200 · ✅ successful`,
      `${second} · NTC Prepaid · 9861230000 · Rs 150 · ❌ failed`,
      `${first} · NTC Prepaid · 9841000201 · Rs 100 · ✅ successful`,
    ]);
    expect(u.buttons(list)).toEqual([
      `🔁 Repeat ${third}`,
      `🔁 Repeat ${second}`,
      `🔁 Repeat ${first}`,
    ]);
  });

  it("repeats a mobile top-up as a new order with the same number and amount", async () => {
    const u = ts.user(922);
    const first = await placeMobile(u, "9841000301", "250");
    await u.waitFor(new RegExp(`Order ${first} succeeded`));

    await u.say("/history", /Your last orders/);
    const intro = await u.tap(`🔁 Repeat ${first}`, /Repeating order/);
    const confirm = await next(u, intro.id, /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Prepaid");
    expect(confirm.text).toContain("Number / account: 9841000301");
    expect(confirm.text).toContain("Amount: Rs 250");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const second = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await u.waitFor(new RegExp(`Order ${second} succeeded`));

    const orders = await ts.system.orders.listByUser(922, 10);
    expect(orders.map((o) => [o.reference, o.connectionNo, o.amountPaisa, o.status])).toEqual([
      [second, "9841000301", 25000, "success"],
      [first, "9841000301", 25000, "success"],
    ]);
    expect(orders[0]?.idempotencyKey).not.toBe(orders[1]?.idempotencyKey);
    const debits = ledgerFor("9841000301");
    expect(debits.map((r) => r.referenceNo).sort()).toEqual([first, second].sort());
    expect(debits.every((r) => r.debitPaisa > 0 && r.refundPaisa === 0)).toBe(true);
  });

  it("repeats a data pack with a fresh package listing, and refuses a package no longer offered", async () => {
    const u = ts.user(923);
    const { catalog } = ts.system.deps;
    const op = catalog.byCategory("datapack").find((o) => o.family === "ntc")!;
    const number = "9841000401";
    // An earlier data-pack order of this user, placed through the orders service as the flow does.
    const listingRef = await ts.system.orders.nextReference();
    const packages = await ts.system.provider.listDataPackages({
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      connectionNo: number,
      referenceNo: listingRef,
    });
    const pkg = packages.find((p) => p.amountPaisa > 0)!;
    const draft = {
      userId: 923,
      chatId: 923,
      locale: "en",
      category: "datapack" as const,
      region: "np" as const,
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      operatorName: op.name,
      connectionNo: number,
    };
    const earlier = await ts.system.orders.place({
      ...draft,
      idempotencyKey: "history-datapack-1",
      referenceNo: listingRef,
      amountPaisa: pkg.amountPaisa,
      details: { packageId: pkg.id, packageName: pkg.name },
    });
    await ts.system.orders.submit(earlier.reference);
    await u.waitFor(new RegExp(`Order ${earlier.reference} succeeded`));

    await u.say("/history", /Your last orders/);
    const intro = await u.tap(`🔁 Repeat ${earlier.reference}`, /Repeating order/);
    const confirm = await next(u, intro.id, /Please check your order/);
    expect(confirm.text).toContain(`Package: ${pkg.name}`);
    expect(confirm.text).toContain(`Number / account: ${number}`);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const again = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${again} succeeded`));
    // The sandbox accepts a data-pack execute only under the reference of a listing for that number.
    expect(
      ledgerFor(number)
        .map((r) => r.referenceNo)
        .sort(),
    ).toEqual([earlier.reference, again].sort());

    // An order whose package the aggregator no longer lists (its execute was refused, too).
    const stale = await ts.system.orders.place({
      ...draft,
      idempotencyKey: "history-datapack-2",
      amountPaisa: 9900,
      details: { packageId: "withdrawn-999", packageName: "Old Festival Pack" },
    });
    await ts.system.orders.submit(stale.reference);
    await u.say("/history", /Your last orders/);
    const refused = await u.tap(`🔁 Repeat ${stale.reference}`, /no longer offered/);
    expect(refused.text).toBe(
      `The package "Old Festival Pack" is no longer offered for ${number}. Send /recharge to choose another one.`,
    );
    expect(u.botTexts().filter((t) => t.startsWith("Please check your order"))).toHaveLength(1);
    expect(await ts.system.orders.listByUser(923, 10)).toHaveLength(3);
  });

  it("repeats a water bill by checking the bill again, and says so when nothing is due", async () => {
    const u = ts.user(924);
    const op = ts.system.deps.catalog.byCategory("water")[0]!;
    // Earlier water payments of this user (office 501, month 7), as the water flow places them.
    const earlierBill = async (customerId: string, key: string) => {
      const referenceNo = await ts.system.orders.nextReference();
      const bill = await ts.system.provider.checkWaterBill({
        operatorId: op.id,
        operatorTypeId: op.operatorTypeId,
        connectionNo: customerId,
        referenceNo,
        monthId: 7,
        officeCode: "501",
      });
      const order = await ts.system.orders.place({
        idempotencyKey: key,
        referenceNo,
        userId: 924,
        chatId: 924,
        locale: "en",
        category: "water",
        region: "np",
        operatorId: op.id,
        operatorTypeId: op.operatorTypeId,
        operatorName: op.name,
        connectionNo: customerId,
        amountPaisa: bill.billAmountPaisa > 0 ? bill.billAmountPaisa : 50000,
        details: {
          officeCode: "501",
          monthId: 7,
          customerName: bill.customerName,
          billAmountPaisa: bill.billAmountPaisa,
        },
      });
      await ts.system.orders.submit(order.reference);
      await u.waitFor(new RegExp(`Order ${order.reference} succeeded`));
      return { order, bill };
    };
    const { order, bill } = await earlierBill("1234568", "history-water-1");
    expect(bill.billAmountPaisa).toBeGreaterThan(0);

    await u.say("/history", /Your last orders/);
    const intro = await u.tap(`🔁 Repeat ${order.reference}`, /Repeating order/);
    const confirm = await next(u, intro.id, /Please check your order/);
    const due = formatRupees(bill.billAmountPaisa);
    expect(confirm.text).toContain(`Bill of ${bill.customerName}: ${due} due now.`);
    expect(confirm.text).toContain(`Amount: ${due}`);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const again = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${again} succeeded`));
    expect((await ts.system.orders.get(again!))?.details).toMatchObject({
      officeCode: "501",
      monthId: 7,
    });
    expect(ledgerFor("1234568")).toHaveLength(2);

    // An advance paid on an account with nothing due: repeating it is a new decision.
    const paid = await earlierBill("1237777", "history-water-2");
    await u.say("/history", /Your last orders/);
    const refused = await u.tap(`🔁 Repeat ${paid.order.reference}`, /Nothing is due/);
    expect(refused.text).toBe(
      "Nothing is due on this bill now. Send /recharge if you want to pay an advance.",
    );
    expect(ledgerFor("1237777")).toHaveLength(1);
  });
});

/** The first bot message after message `afterId` that matches. */
function next(u: TestUser, afterId: number, match: RegExp) {
  return u.emu.waitForBotMessage(u.id, match, { afterId, timeoutMs: 8000 });
}

/** A complete mobile order through the chat; returns its reference. */
async function placeMobile(u: TestUser, number: string, amount: string): Promise<string> {
  await u.say("/recharge", /What would you like to pay/);
  await u.tap("📱 Mobile top-up", /Which mobile number/);
  await u.say(number, /Operator for/);
  await u.tap(/detected/, /How much/);
  await u.say(amount, /Please check your order/);
  const receipt = await u.tap("✅ Confirm", /Order \d+/);
  const ref = /Order (\d+)/.exec(receipt.text)?.[1];
  if (!ref) throw new Error("no reference in the receipt");
  return ref;
}
