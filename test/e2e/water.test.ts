import { describe, expect, it } from "vitest";
import { waterBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The water (khanepani) bill flow end to end: office, customer, month, bill check, pay, push. */
describe("water bill, end to end", () => {
  const ts = useTestSystem();

  const rs = (rupees: string) => formatRupees(toPaisa(rupees));

  async function startWater(u: TestUser) {
    await u.say("/recharge", /What would you like to pay/);
    // The catalogue has one water operator: no one-button question, the office prompt names it.
    return u.tap(
      "🚰 Water bill",
      /Khanepani \(Water\): which office is your water connection with\?/,
    );
  }

  it("shows the sandbox's bill, pays the due and pushes the success", async () => {
    const u = ts.user(601);
    const offices = await startWater(u);
    expect(offices.text).toContain("You can also type part of the name to search.");
    expect(u.buttons(offices)).toEqual([
      "KUKL Kamaladi",
      "KUKL Tripureshwor",
      "KUKL Maharajgunj",
      "KUKL Baneshwor",
      "KUKL Chhetrapati",
      "KUKL Mahankalchaur",
      "KUKL Lalitpur",
      "KUKL Bhaktapur",
      "‹",
      "1/2",
      "›",
      "✖ Cancel",
    ]);
    // The office list is paged: the second page is an edit of the same message.
    u.press("›");
    await u.emu.waitFor(() => u.buttons().includes("Nepal Khanepani Sansthan Pokhara"));
    expect(u.buttons()).toContain("2/2");
    await u.tap(
      "Nepal Khanepani Sansthan Pokhara",
      /customer id at Nepal Khanepani Sansthan Pokhara/,
    );
    const months = await u.say("123456", /For which month\?/);
    // Month names, three to a row.
    expect(months.inlineKeyboard?.slice(0, 4).map((row) => row.map((b) => b.text))).toEqual([
      ["Baisakh", "Jestha", "Asar"],
      ["Shrawan", "Bhadra", "Asoj"],
      ["Kartik", "Mangsir", "Poush"],
      ["Magh", "Falgun", "Chaitra"],
    ]);
    const shown = await u.tap("Kartik", /Water bill of/);

    // The bill as the sandbox computes it for this customer and month.
    const expected = waterBill("123456", "0", 7);
    expect(expected.payments.length).toBeGreaterThan(1);
    expect(shown.text).toContain(`Water bill of ${expected.customer_name} (Kartik)`);
    expect(shown.text).toContain(`Address: ${expected.payments[0]?.address}`);
    const lines = shown.text.split("\n");
    for (const row of expected.payments) {
      const line = lines.find((l) => l.startsWith(`• ${row.month}:`));
      expect(line, row.month).toBeDefined();
      expect(line).toContain(`this month ${rs(row.current_month_dues!)}`);
      expect(line).toContain(`total ${rs(row.total_dues!)}`);
      if (toPaisa(row.fine!) > 0) expect(line).toContain(`fine ${rs(row.fine!)}`);
    }
    const due = rs(expected.bill_amount);
    expect(shown.text).toContain(`Total due: ${due}`);

    const ask = await u.waitFor(/Pay the due of/);
    expect(u.buttons(ask)).toEqual([`💳 Pay the due ${due}`, "‹ Back", "✖ Cancel"]);
    const confirm = await u.tap(`💳 Pay the due ${due}`, /Please check your order/);
    expectParts(confirm.text, [
      "Operator: Khanepani (Water)",
      "Number / account: 123456",
      "Office: Nepal Khanepani Sansthan Pokhara",
      "Month: Kartik",
      `Customer: ${expected.customer_name}`,
      `Bill due: ${due}`,
      `Amount: ${due}`,
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(push.text).toContain(`Khanepani (Water) · 123456 · ${due}`);

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "water",
      operatorId: 46,
      operatorTypeId: 7,
      connectionNo: "123456",
      amountPaisa: toPaisa(expected.bill_amount),
      details: {
        officeCode: "512",
        monthId: 7,
        customerName: expected.customer_name,
        billAmountPaisa: toPaisa(expected.bill_amount),
      },
    });
    // Executed under the order's own reference (the one the bill check used), not a listing's.
    expect(order?.executeReference).toBeUndefined();
    expect(ledgerFor(ts, ref)).toMatchObject([
      { connectionNo: "123456", amountPaisa: toPaisa(expected.bill_amount) },
    ]);
  });

  it("tells the user when the payment fails", async () => {
    const u = ts.user(602);
    await startWater(u);
    await u.tap("KUKL Kamaladi", /customer id at KUKL Kamaladi/);
    await u.say("55550000", /For which month/);
    // A month typed by name works as well as the button.
    await u.say("poush", /Water bill of .+ \(Poush\)/);
    const expected = waterBill("55550000", "0", 9);
    const due = rs(expected.bill_amount);
    await u.payDue(due);
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    expect(await ts.system.orders.get(ref)).toMatchObject({
      status: "failed",
      connectionNo: "55550000",
      details: { officeCode: "501", monthId: 9 },
    });
  });

  it("asks for an advance when nothing is due, and pays it", async () => {
    const u = ts.user(603);
    await startWater(u);
    await u.tap("KUKL Lalitpur", /customer id/);
    await u.say("88887777", /For which month/);
    const shown = await u.tap("Asar", /Water bill of/);
    expect(shown.text).toContain(
      `Water bill of ${waterBill("88887777", "0", 3).customer_name} (Asar)`,
    );
    expect(shown.text).toContain("Nothing is due on this account right now.");
    // Up to what the customer may still spend today (the default cap, Rs 25,000), not Rs 1,00,000.
    const ask = await u.waitFor(/You can pay in advance: type an amount up to Rs 25,000/);
    expect(u.buttons(ask)).toEqual(["‹ Back", "✖ Cancel"]);
    const confirm = await u.say("500", /Please check your order/);
    expect(confirm.text).toContain("Bill due: Rs 0");
    expect(confirm.text).toContain("Amount: Rs 500");
    expect(confirm.text).toContain("Month: Asar");
    const { ref } = await u.confirmUntil("succeeded");
    expect(await ts.system.orders.get(ref)).toMatchObject({
      status: "success",
      connectionNo: "88887777",
      amountPaisa: 50_000,
      details: { officeCode: "507", monthId: 3, billAmountPaisa: 0 },
    });
    expect(ledgerFor(ts, ref)).toMatchObject([{ amountPaisa: 50_000, status: "success" }]);
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(604);
    await startWater(u);
    // Office: search by typing; nothing found, several found (paged), then exactly one.
    await u.say("zzz", /Nothing matches "zzz"/);
    const found = await u.say("kukl", /Matches for "kukl"/);
    expect(u.buttons(found)).toContain("KUKL Kamaladi");
    expect(u.buttons(found)).not.toContain("Nepal Khanepani Sansthan Pokhara");
    await u.say("thimi", /customer id at KUKL Madhyapur Thimi/);
    // Customer id.
    await u.say("abc def", /only letters, digits and \. - _ \//);
    await u.say("x".repeat(41), /too long \(at most 40 characters\)/);
    await u.say("12344040", /For which month/);
    const refused = await u.tap("Magh", /could not check that bill: Customer not found/);
    // Refused: the id is asked again, the previous answer a tap away; the office is kept.
    const again = await u.emu.waitForBotMessage(604, /customer id at KUKL Madhyapur Thimi/, {
      afterId: refused.id,
    });
    expect(u.buttons(again)).toEqual(["12344040", "‹ Back", "✖ Cancel"]);
    await u.say("1234567", /For which month/);
    // Month.
    await u.say("Smarch", /Please choose a month from the buttons/);
    u.emu.sendSticker(604);
    await u.waitFor(/Please answer with a text message/);
    await u.say("4", /Water bill of .+ \(Shrawan\)/);
    // Amount: pay another amount than the due.
    await u.waitFor(/Pay the due of/);
    await u.say("0", /smallest amount is Rs 1/);
    await u.say("200000", /largest amount is Rs 25,000/);
    await u.say("abc", /Please type an amount in rupees/);
    const confirm = await u.say("1,500", /Please check your order/);
    expectParts(confirm.text, [
      "Number / account: 1234567",
      "Office: KUKL Madhyapur Thimi",
      "Month: Shrawan",
      `Customer: ${waterBill("1234567", "0", 4).customer_name}`,
      `Bill due: ${rs(waterBill("1234567", "0", 4).bill_amount)}`,
      "Amount: Rs 1,500",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(604, 10);
    expect(
      orders.map((o) => [
        o.connectionNo,
        o.amountPaisa,
        detailsOf(o, "water").officeCode,
        detailsOf(o, "water").monthId,
        o.status,
      ]),
    ).toEqual([["1234567", 150_000, "510", 4, "success"]]);
  });
});
