import { describe, expect, it } from "vitest";
import { indiaDthBill } from "../../dev/sandbox/lookups.ts";
import { formatMoney, formatRupees, toPaisa } from "../../src/money.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { expectParts } from "../support/chat.ts";
import { ledgerFor, sandboxLedger, useTestSystem } from "../support/system.ts";

/**
 * The catalogue from the provider, end to end (issue 16): the menu and the flows offer what the
 * provider lists (an operator withdrawn at the sandbox disappears at the next refresh, no release),
 * an order under way for a withdrawn operator is told so at Confirm, the India DTH flow fetches the
 * subscriber's bill, and a repeated water bill is checked afresh, never paid twice.
 */
describe("the catalogue from the provider, end to end", () => {
  const ts = useTestSystem({ redis: true });
  const sandbox = () => ts.system.sandbox!;
  const LANDLINES = [11, 17, 117];

  async function withdraw(...ids: number[]) {
    for (const id of ids) sandbox().withdrawOperator(id);
    expect(await ts.system.catalogSync.refresh()).toBe(true);
  }
  async function restore(...ids: number[]) {
    for (const id of ids) sandbox().restoreOperator(id);
    expect(await ts.system.catalogSync.refresh()).toBe(true);
  }

  it("lists the provider's operators at start and caches them in Redis", async () => {
    const cached = await ts.system.redis!.get(keyspace(ts.prefix).catalogListing);
    const listing = JSON.parse(cached ?? "null");
    expect(listing.regions.np.operators).toContainEqual({ value: "11", label: "NTC Landline" });
    expect(listing.regions.in.operators).toContainEqual({ value: "221", label: "Tata Play" });
  });

  it("takes a withdrawn operator out of its flow, and a category with none left out of the menu", async () => {
    const u = ts.user(1601);
    try {
      await withdraw(17);
      const ops = await u.menu("☎️ Landline", /Which line do you want to recharge/);
      expect(u.buttons(ops)).toEqual(["NTC Landline", "NTC Toll-free", "✖ Cancel"]);
      await u.say("/cancel", /cancel/i);

      const before = await u.say("/recharge", /What would you like to pay/);
      expect(u.buttons(before)).toContain("☎️ Landline");
      await withdraw(11, 117);
      const menu = await u.say("/recharge", /What would you like to pay/);
      expect(u.buttons(menu)).not.toContain("☎️ Landline");
      expect(u.buttons(menu)).toContain("📱 Mobile top-up");
      // The Landline button of the earlier menu is answered like an expired one.
      const press = u.emu.clickButton(1601, "☎️ Landline", { messageId: before.id });
      const answer = await u.emu.waitFor(() =>
        u.emu.callbackAnswers().find((a) => a.callback_query_id === press.callback_query_id),
      );
      expect(answer.text).toBe("This button is no longer active.");

      // Listed again: back in the menu without a release.
      await restore(...LANDLINES);
      const again = await u.say("/recharge", /What would you like to pay/);
      expect(u.buttons(again)).toContain("☎️ Landline");
    } finally {
      await restore(...LANDLINES);
    }
  });

  it("says so when the provider lists none of a number's data-pack products", async () => {
    const u = ts.user(1606);
    const NCELL = [2, 3, 4, 113, 114];
    try {
      await withdraw(...NCELL);
      // NTC packs are still offered, so the category stays in the menu.
      await u.menu("📶 Data pack", /Which mobile number is the pack for/);
      const told = await u.say("9801234567", /nothing is on offer/);
      expect(told.text).toBe(
        "Sorry, nothing is on offer for 9801234567 right now. Nothing was charged. Please try again later with /recharge.",
      );
    } finally {
      await restore(...NCELL);
    }
  });

  it("tells the user at Confirm when the operator was withdrawn meanwhile, and places nothing", async () => {
    const u = ts.user(1602);
    try {
      await u.menu("☎️ Landline", /Which line do you want to recharge/);
      await u.tap("NTC Landline", /Which NTC Landline number/);
      await u.say("014-123 4567", /How much\?/);
      await u.tap("Rs 500", /Please check your order/);
      // The provider withdraws the operator while the confirmation is on the screen.
      await withdraw(11);
      const told = await u.tap("✅ Confirm", /no longer on offer/);
      expect(told.text).toBe(
        "Sorry, NTC Landline is no longer on offer, so this order was not placed and nothing was charged. Please start again with /recharge.",
      );
      // The next step as a button (issue 30): the category afresh.
      expect(u.buttons(told)).toEqual(["🔁 Start again"]);
      expect(await ts.system.orders.listByUser(1602, 10)).toEqual([]);
      expect(sandboxLedger(ts).filter((r) => r.connectionNo === "141234567")).toEqual([]);
    } finally {
      await restore(11);
    }
  });

  it("a repeat from /history of a withdrawn operator says so and places nothing", async () => {
    const u = ts.user(1605);
    try {
      await u.menu("☎️ Landline", /Which line do you want to recharge/);
      await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
      await u.say("015-551 2345", /How much\?/);
      await u.tap("Rs 200", /Please check your order/);
      await u.confirmUntil("succeeded");
      await withdraw(17);
      await u.say("/history", /Your last orders/);
      const answer = await u.tap("🔁 Repeat 155512345 · Rs 200", /no longer on offer/);
      expect(answer.text).toContain("NTC Fibre Voice is no longer on offer");
      expect(await ts.system.orders.listByUser(1605, 10)).toHaveLength(1);
    } finally {
      await restore(17);
    }
  });

  it("India DTH: fetches the subscriber's bill, offers its monthly amount, refuses an unknown subscriber", async () => {
    const u = ts.user(1603);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge/);
    await u.tap("📡 DTH (TV)", /Your DTH subscriber id/);
    await u.say("1234564040", /DTH \(TV\): which operator/);
    await u.tap("Tata Play", /Which telecom circle/);
    // An unknown subscriber (the sandbox's …4040): said, and the id asked again.
    const refused = await u.say("delhi", /That subscriber could not be found/);
    expect(refused.text).toContain("Customer not found");
    await u.waitFor(/Your Tata Play subscriber id/);

    const expected = indiaDthBill(ts.system.deps.catalog.operator(221)!, "1234567890", Date.now());
    const monthly = formatMoney(toPaisa(expected.monthly_recharge), { region: "in" });
    const shown = await u.say("1234567890", /Tata Play subscriber 1234567890/);
    expectParts(shown.text, [
      `📡 Tata Play subscriber 1234567890: ${expected.customer_name}`,
      `Monthly recharge: ${monthly}`,
      `Balance left: ${formatMoney(toPaisa(expected.balance), { region: "in" })}`,
      `Next recharge by: ${expected.due_date}`,
    ]);
    const plans = await u.waitFor(/Choose a plan for 1234567890/);
    expect(u.buttons(plans)[0]).toBe(`Pay the monthly recharge: ${monthly}`);
    const confirm = await u.tap(`Pay the monthly recharge: ${monthly}`, /Please check your order/);
    expectParts(confirm.text, [
      "Operator: Tata Play",
      "Number / account: 1234567890",
      "Circle: Delhi NCR",
      `Subscriber: ${expected.customer_name}`,
      `Amount: ${monthly}`,
    ]);
    const { ref } = await u.confirmUntil("succeeded");
    expect(await ts.system.orders.get(ref)).toMatchObject({
      category: "india",
      operatorId: 221,
      connectionNo: "1234567890",
      amountPaisa: toPaisa(expected.monthly_recharge),
    });
  });

  it("repeating a paid water bill checks it afresh and pays nothing twice", async () => {
    const u = ts.user(1604);
    await u.menu("🚰 Water bill", /which office/);
    await u.say("Kamaladi", /customer id at KUKL Kamaladi/);
    await u.say("765432", /For which month/);
    const bill = await u.tap("Kartik", /Total due: /);
    const due = /Total due: (.+)$/m.exec(bill.text)?.[1] ?? "";
    await u.payDue(due);
    const { ref } = await u.confirmUntil("succeeded");
    expect(ledgerFor(ts, ref)).toHaveLength(1);

    // The sandbox marked the bill paid: the repeat fetches it again and finds nothing due.
    await u.say("/history", /Your last orders/);
    const answer = await u.tap(
      `🔁 Repeat 765432 · ${formatRupees((await ts.system.orders.get(ref))!.amountPaisa)}`,
      /Nothing is due/,
    );
    expect(answer.text).toBe(
      "Nothing is due on this bill now. Send /recharge if you want to pay an advance.",
    );
    expect(sandboxLedger(ts).filter((r) => r.connectionNo === "765432")).toHaveLength(1);
  });
});
