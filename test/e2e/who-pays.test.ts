import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { formatMoney } from "../../src/money.ts";
import { nprCharge, parsePriceSchedule, quote } from "../../src/pricing/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Who pays, per category (issue 15), prepaid, on Redis (the order scripts with the ledger inside),
 * with a price schedule that puts a fee and a discount on every category: the confirm screen's
 * total is exactly what is held and, on success, taken from the customer; the receipt's fee and
 * discount are the schedule's; a failed order's hold comes back whole and the push says so.
 */

const SCHEDULE = {
  default: { fee: { flat: "3" }, discount: { percent: "1", max: "10" } },
  categories: {
    mobile: { fee: { percent: "1", min: "1", max: "20" }, discount: { flat: "2" } },
    datapack: { discount: { percent: "2" } },
    dth: { fee: { flat: "5" } },
    internet: { fee: { percent: "0.5" } },
    landline: { discount: { flat: "1" } },
    water: { fee: { flat: "5" } },
    electricity: { fee: { flat: "10" }, discount: { flat: "2.50" } },
    india: { fee: { percent: "1.5", min: "2", max: "50" } },
  },
};
const schedule = parsePriceSchedule(SCHEDULE, "test");
const dir = mkdtempSync(join(tmpdir(), "who-pays-"));
const scheduleFile = join(dir, "prices.json");
writeFileSync(scheduleFile, JSON.stringify(SCHEDULE));

type Flow = (u: TestUser, ok: boolean) => Promise<unknown>;
const CONFIRM = /Please check your order/;

/** Each category from the menu to its confirm screen; `ok` picks a number the sandbox succeeds. */
const FLOWS: Array<[string, Flow]> = [
  [
    "mobile",
    async (u, ok) => {
      await u.mobileToConfirm(ok ? "9841231111" : "9841230000", "150");
    },
  ],
  [
    "datapack",
    async (u, ok) => {
      await u.menu("📶 Data pack", /Which mobile number is the pack for/);
      await u.say(ok ? "9841231111" : "9841230000", /is an NTC number/);
      await u.tap("📞 Voice", /NTC Voice packs for/);
      await u.tap("Namaste 100 minutes / 7 days · Rs 100", CONFIRM);
    },
  ],
  [
    "dth",
    async (u, ok) => {
      await u.menu("📺 TV (DTH)", /Which TV \(DTH\) operator/);
      await u.tap("Net TV", /Your Net TV customer id/);
      await u.say(ok ? "NTV121111" : "NTV120000", /Choose a package/);
      await u.tap("Net TV Basic - 1 Month · Rs 350", CONFIRM);
    },
  ],
  [
    "internet",
    async (u, ok) => {
      await u.menu("🌐 Internet", /Which internet provider\?/);
      await u.say("vianet", /Your Vianet username/);
      await u.say(ok ? "ram1111" : "ram0000", /Vianet packages for/);
      await u.tap("Vianet 60 Mbps - 1 Month · Rs 1,025", CONFIRM);
    },
  ],
  [
    "landline",
    async (u, ok) => {
      await u.menu("☎️ Landline", /Which line/);
      await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
      await u.say(ok ? "512341111" : "512340000", /How much/);
      await u.say("750", CONFIRM);
    },
  ],
  [
    "water",
    async (u, ok) => {
      await u.say("/recharge", /What would you like to pay/);
      await u.tap("🚰 Water bill", /which office is your water connection with/);
      await u.tap("KUKL Kamaladi", /customer id at KUKL Kamaladi/);
      await u.say(ok ? "55551111" : "55550000", /For which month/);
      await u.say("poush", /Water bill of/);
      await u.waitFor(/Pay the due of/);
      await u.tap(/Pay the due/, CONFIRM);
    },
  ],
  [
    "electricity",
    async (u, ok) => {
      await u.menu("💡 Electricity bill", /which distribution centre/);
      await u.tap("Ratnapark DC", /Your SC number/);
      await u.say("1234", /Your customer id/);
      await u.say(ok ? "99991111" : "99990000", /A phone number/);
      await u.say("01-4123456", /Electricity bill of/);
      await u.waitFor(/Pay the due of/);
      await u.tap(/Pay the due/, CONFIRM);
    },
  ],
];

describe("who pays, per category: confirm total = amount debited, fee and discount of the schedule, a failure's hold returns", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", PRICE_SCHEDULE_FILE: scheduleFile, LOW_FLOAT_ALERT: "0" },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const FUND = 5_000_000;
  let nextUser = 9_100;
  async function funded(): Promise<TestUser> {
    const id = ++nextUser;
    const r = await ts.system.ledger.transfer({
      id: `fund-${id}`,
      debit: account.merchant.funding,
      credit: account.customer(id),
      amountPaisa: FUND,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
    const u = ts.user(id);
    await u.register();
    return u;
  }
  const balance = (u: TestUser) => ts.system.ledger.balance(account.customer(u.id));

  async function toReceipt(u: TestUser, flow: Flow, ok: boolean) {
    await flow(u, ok);
    const confirm = u.botMessages().at(-1)!;
    const { ref } = await u.confirm();
    const order = (await ts.system.orders.get(ref))!;
    const money = (p: number) => formatMoney(p, { region: order.region });
    const price = order.price!;
    // The schedule's figures, for this order's category, operator and face amount.
    expect(price).toEqual(
      quote(schedule, {
        category: order.category,
        operatorId: order.operatorId,
        amountPaisa: order.amountPaisa,
      }),
    );
    expect(price.feePaisa + price.discountPaisa).toBeGreaterThan(0);
    expect(confirm.text).toContain(`Total to pay: ${money(price.totalPaisa)}`);
    // What the confirm screen said is what is held.
    expect((await ts.system.ledger.pendingOf(order.holdId!))?.hold.amountPaisa).toBe(
      price.totalPaisa,
    );
    return { ref, order, price, money };
  }

  it("india: the schedule's ₹ price, held from the Nepal-rupee balance at the rate (1.6), taken on success", async () => {
    const u = await funded();
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("9876541111", /which operator/);
    await u.tap("Airtel Prepaid", /Which telecom circle/);
    await u.say("delhi", /Choose a plan/);
    const confirm = await u.say("200", CONFIRM);
    // A 1.5 % fee (₹3) and the default 1 % discount (₹2): ₹201, Rs 321.60 at 1.6.
    const price = quote(schedule, { category: "india", operatorId: 202, amountPaisa: 20_000 });
    expect(price.totalPaisa).toBe(20_100);
    const npr = nprCharge(price, 16_000);
    expect(confirm.text).toContain("Total: ₹201");
    expect(confirm.text).toContain(
      `To pay from your balance: ${formatMoney(npr.totalPaisa)} (₹1 = Rs 1.60)`,
    );
    const { ref } = await u.confirm();
    const order = (await ts.system.orders.get(ref))!;
    expect(order.price).toEqual(price);
    expect(order.exchange).toEqual(npr);
    expect((await ts.system.ledger.pendingOf(order.holdId!))?.hold.amountPaisa).toBe(32_160);
    const push = await u.outcome(ref, "succeeded");
    expect(push.text).toContain("Fee: ₹3");
    expect(push.text).toContain("Paid Rs 321.60 from your balance (₹1 = Rs 1.60)");
    await waitUntil(
      async () => (await ts.system.ledger.pendingOf(order.holdId!))?.state === "posted",
      "the hold posted",
    );
    expect(await balance(u)).toMatchObject({ postedPaisa: FUND - 32_160, heldPaisa: 0 });
    await expectBooksBalanced(ts.system.ledger);
  });

  for (const [category, flow] of FLOWS) {
    it(`${category}: success takes exactly the confirmed total; the receipt shows the schedule's fee and discount`, async () => {
      const u = await funded();
      const { ref, order, price, money } = await toReceipt(u, flow, true);
      expect(order.category).toBe(category);
      const push = await u.outcome(ref, "succeeded");
      expect(push.text).toContain(`Fee: ${money(price.feePaisa)}`);
      expect(push.text).toContain(`Discount: −${money(price.discountPaisa)}`);
      expect(push.text).toContain(`Total paid: ${money(price.totalPaisa)}`);
      await waitUntil(
        async () => (await ts.system.ledger.pendingOf(order.holdId!))?.state === "posted",
        "the hold posted",
      );
      expect(await balance(u)).toMatchObject({
        postedPaisa: FUND - price.totalPaisa,
        heldPaisa: 0,
      });
      expect(push.text).toContain(
        `Balance after: ${formatMoney(FUND - price.totalPaisa, { region: "np" })}`,
      );
      await expectBooksBalanced(ts.system.ledger);
    });

    it(`${category}: a failed order's hold comes back whole, and the push says so`, async () => {
      const u = await funded();
      const { ref, order, price, money } = await toReceipt(u, flow, false);
      const push = await u.outcome(ref, "failed");
      expect(push.text).toContain(`${money(price.totalPaisa)} has been returned to your balance.`);
      await waitUntil(
        async () => (await ts.system.ledger.pendingOf(order.holdId!))?.state === "voided",
        "the hold voided",
      );
      expect(await balance(u)).toMatchObject({ postedPaisa: FUND, heldPaisa: 0 });
      await expectBooksBalanced(ts.system.ledger);
    });
  }
});
