import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * ACCESS_MODE=prepaid end to end (issue 15): the customer pays from a balance held with the
 * merchant. The confirm screen's total is the amount held with the order; success captures it,
 * failure releases it; a short balance is told before confirm and places nothing. On the memory
 * stores and on Redis (the order scripts with the ledger library inside).
 */

// Mobile: Rs 5 fee, Rs 2 discount; so Rs 150 costs Rs 153.
const dir = mkdtempSync(join(tmpdir(), "prepaid-"));
const scheduleFile = join(dir, "prices.json");
writeFileSync(
  scheduleFile,
  JSON.stringify({ categories: { mobile: { fee: { flat: "5" }, discount: { flat: "2" } } } }),
);

describe.each([
  ["memory", false],
  ["redis", true],
])("prepaid orders, end to end (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis,
      env: { ACCESS_MODE: "prepaid", PRICE_SCHEDULE_FILE: scheduleFile },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const ledger = () => ts.system.ledger;
  const fund = async (userId: number, paisa: number) => {
    await ts.user(userId).register();
    const r = await ledger().transfer({
      id: `fund-${userId}`,
      debit: account.merchant.funding,
      credit: account.customer(userId),
      amountPaisa: paisa,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
  };
  const balance = (userId: number) => ledger().balance(account.customer(userId));
  const booksOk = async () => expect((await ledger().check()).ok).toBe(true);

  async function toConfirm(userId: number, number: string, amount: string) {
    const u = ts.user(userId);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say(number, /How much/);
    return { u, confirm: await u.say(amount, /Please check your order|short/) };
  }

  it("shows the total and the balance after; success captures exactly that total", async () => {
    await fund(701, 50_000);
    const { u, confirm } = await toConfirm(701, "9841234567", "150");
    expect(confirm.text).toContain("Amount: Rs 150");
    expect(confirm.text).toContain("Fee: Rs 5");
    expect(confirm.text).toContain("Discount: −Rs 2");
    expect(confirm.text).toContain("Total to pay: Rs 153");
    expect(confirm.text).toContain("Balance after: Rs 347");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)![1]!;
    const order = await ts.system.orders.get(ref);
    expect(order?.amountPaisa).toBe(15_000);
    expect(order?.price).toEqual({
      amountPaisa: 15_000,
      feePaisa: 500,
      discountPaisa: 200,
      totalPaisa: 15_300,
    });
    expect((await ledger().pendingOf(order!.holdId!))?.hold.amountPaisa).toBe(15_300);
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    const settled = await waitUntil(
      async () => (await ledger().pendingOf(order!.holdId!))?.state === "posted",
      "the hold posted",
    );
    expect(settled).toBe(true);
    expect(await balance(701)).toMatchObject({ postedPaisa: 34_700, heldPaisa: 0 });
    // The aggregator was asked for the face amount, not the total.
    const sent = ts.system.sandbox!.ledger(ts.system.config.sandbox.token);
    expect(sent.filter((r) => r.referenceNo === ref).map((r) => r.amountPaisa)).toEqual([15_000]);
    await booksOk();
  });

  it("a failed order releases its hold", async () => {
    await fund(702, 20_000);
    const { u } = await toConfirm(702, "9861230000", "100");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)![1]!;
    expect((await balance(702)).heldPaisa).toBe(10_300);
    await u.waitFor(new RegExp(`Order ${ref} failed`));
    const order = await ts.system.orders.get(ref);
    await waitUntil(
      async () => (await ledger().pendingOf(order!.holdId!))?.state === "voided",
      "the hold voided",
    );
    expect(await balance(702)).toMatchObject({
      postedPaisa: 20_000,
      heldPaisa: 0,
      availablePaisa: 20_000,
    });
    await booksOk();
  });

  it("tells a customer whose balance is short before confirm, and places nothing", async () => {
    await fund(703, 10_000);
    const { u, confirm } = await toConfirm(703, "9841230703", "150");
    expect(confirm.text).toContain("Your balance is Rs 100");
    expect(confirm.text).toContain("this order costs Rs 153");
    expect(confirm.text).toContain("Rs 53 short");
    expect(u.buttons(confirm)).not.toContain("✅ Confirm");
    // No dead end (issue 30): the shortfall can be added and the answers are kept.
    expect(u.buttons(confirm)).toContain("➕ Add Rs 53 and continue");
    await u.tap("✖ Cancel", /Cancelled/);
    expect(await ts.system.orders.listByUser(703, 10)).toEqual([]);
    expect(await balance(703)).toMatchObject({ availablePaisa: 10_000, heldPaisa: 0 });
    // A registered customer nobody credited is told before the first question (issue 30).
    const none = ts.user(704);
    await none.register();
    await none.say("/recharge", /What would you like to pay/);
    const told = await none.tap("📱 Mobile top-up", /Your balance is Rs 0/);
    expect(none.buttons(told)).toEqual(["➕ Add money"]);
    expect(await ts.system.orders.listByUser(704, 10)).toEqual([]);
    await booksOk();
  });

  it("each push's balance after is the balance right after its own order settled", async () => {
    // Balance after = the customer's available balance right after the order was settled: what
    // they could spend at that moment. Pushes that go out late (a backlog, a restart) must not
    // show the movements that came after (a later order, a cash-in).
    await fund(706, 100_000);
    const { notifier } = ts.system;
    const status = async (ref: string) => (await ts.system.orders.get(ref))?.status;
    /** An order through the chat, confirmed; resolves once it reached `final`. */
    async function order(number: string, amount: string, after: string, final: string) {
      const { u, confirm } = await toConfirm(706, number, amount);
      expect(confirm.text).toContain(`Balance after: ${after}`);
      const receipt = await u.tap("✅ Confirm", /Order \d+/);
      // The receipt agrees with the confirmation: the balance right after the hold.
      expect(receipt.text).toContain(`Balance after: ${after}`);
      const ref = /Order (\d+)/.exec(receipt.text)![1]!;
      await waitUntil(async () => (await status(ref)) === final, `order ${ref} ${final}`);
      return ref;
    }
    await notifier.stop();
    let refs: string[];
    try {
      refs = [
        await order("9841234706", "150", "Rs 847", "success"),
        await order("9841234716", "100", "Rs 744", "success"),
        // Fails (the number ends in 0000): its Rs 103 is returned.
        await order("9861230000", "100", "Rs 641", "failed"),
      ];
      await ledger().transfer({
        id: "late-cash-706",
        debit: account.merchant.funding,
        credit: account.customer(706),
        amountPaisa: 5_000,
        kind: "credit",
      });
      expect((await balance(706)).availablePaisa).toBe(74_400 + 5_000);
    } finally {
      notifier.start();
    }
    const u = ts.user(706);
    const [ref1, ref2, ref3] = refs;
    const push1 = await u.waitFor(new RegExp(`Order ${ref1} succeeded`));
    expect(push1.text).toContain("Balance after: Rs 847");
    const push2 = await u.waitFor(new RegExp(`Order ${ref2} succeeded`));
    expect(push2.text).toContain("Balance after: Rs 744");
    const push3 = await u.waitFor(new RegExp(`Order ${ref3} failed`));
    expect(push3.text).toContain("Rs 103 has been returned to your balance");
    expect(push3.text).toContain("Balance after: Rs 744");
    await booksOk();
  });

  it("a double tap on Confirm makes one order and one hold", async () => {
    await fund(705, 50_000);
    const { u, confirm } = await toConfirm(705, "9761234567", "200");
    u.emu.pressButton(705, confirm.id, "ok");
    u.emu.pressButton(705, confirm.id, "ok", { force: true });
    const receipt = await u.waitFor(/Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)![1]!;
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    expect(await ts.system.orders.listByUser(705, 10)).toHaveLength(1);
    const holds = (await ledger().journal()).entries.filter(
      (e) => e.kind === "hold" && e.debit === "customer:705",
    );
    expect(holds).toHaveLength(1);
    await waitUntil(
      async () => (await balance(705)).postedPaisa === 50_000 - 20_300,
      "the one hold posted",
    );
    await booksOk();
  });
});
