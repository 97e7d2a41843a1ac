import { describe, expect, it } from "vitest";
import { electricityBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The electricity (NEA) bill flow end to end: office, SC number, customer id, phone, bill, pay, push. */
describe("electricity bill, end to end", () => {
  const ts = useTestSystem();

  const rs = (rupees: string) => formatRupees(toPaisa(rupees));
  /** The sandbox's bill for these inputs (its month rows follow the clock; the amounts do not). */
  const billOf = (customer: string, sc: string) =>
    electricityBill(customer, sc, "0", "0", Date.now());

  async function startElectricity(u: TestUser) {
    return u.menu(
      "💡 Electricity bill",
      /Nepal Electricity Authority: which distribution centre \(office\)/,
    );
  }

  it("shows the bill, pays the due and pushes the success", async () => {
    const u = ts.user(701);
    const offices = await startElectricity(u);
    expect(offices.text).toContain("You can also type part of the name to search.");
    expect(u.buttons(offices)).toContain("1/3");
    await u.say("pokhara", /Your SC number/);
    await u.say("012.34.567", /Your customer id/);
    await u.say("778899", /A phone number for this bill/);
    const shown = await u.say("+977 984-123-4567", /Electricity bill of/);

    const expected = billOf("778899", "012.34.567");
    expect(expected.due_bills.length).toBeGreaterThan(0);
    expect(shown.text).toContain(`Electricity bill of ${expected.customer_name} (SC 012.34.567)`);
    const lines = shown.text.split("\n");
    for (const row of expected.due_bills) {
      const line = lines.find((l) => l.startsWith(`• ${row.due_bill_of}:`));
      expect(line, row.due_bill_of).toBeDefined();
      expect(line).toContain(`bill ${rs(row.bill_amount!)}`);
      expect(line).toContain(`payable ${rs(row.payable_amount!)}`);
      if (toPaisa(row.penalty!) > 0) expect(line).toContain(`late fee ${rs(row.penalty!)}`);
    }
    const due = rs(expected.bill_amount);
    expect(shown.text).toContain(`Total due: ${due}`);

    const confirm = await u.payDue(due);
    expectParts(confirm.text, [
      "Operator: Nepal Electricity Authority",
      "Number / account: 778899",
      "Office: Pokhara DC",
      "SC number: 012.34.567",
      "Phone: 9841234567",
      `Customer: ${expected.customer_name}`,
      `Bill due: ${due}`,
      `Amount: ${due}`,
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(push.text).toContain(`Nepal Electricity Authority · 778899 · ${due}`);

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "electricity",
      operatorId: 118,
      operatorTypeId: 8,
      connectionNo: "778899",
      amountPaisa: toPaisa(expected.bill_amount),
      details: {
        officeCode: "301",
        scNo: "012.34.567",
        phone: "9841234567",
        customerName: expected.customer_name,
        billAmountPaisa: toPaisa(expected.bill_amount),
      },
    });
    expect(ledgerFor(ts, ref)).toMatchObject([
      { connectionNo: "778899", amountPaisa: toPaisa(expected.bill_amount) },
    ]);
  });

  it("tells the user when the payment fails", async () => {
    const u = ts.user(702);
    await startElectricity(u);
    await u.tap("Ratnapark DC", /Your SC number/);
    await u.say("1234", /Your customer id/);
    await u.say("99990000", /A phone number/);
    // A landline with its area code: the trunk 0 and the dash go.
    await u.say("01-4123456", /Electricity bill of/);
    const due = rs(billOf("99990000", "1234").bill_amount);
    await u.payDue(due);
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    expect(await ts.system.orders.get(ref)).toMatchObject({
      status: "failed",
      connectionNo: "99990000",
      details: { officeCode: "273", scNo: "1234", phone: "14123456" },
    });
  });

  it("asks for an advance when nothing is due, and pays it", async () => {
    const u = ts.user(703);
    await startElectricity(u);
    await u.tap("Baneshwor DC", /Your SC number/);
    await u.say("777.01", /Your customer id/);
    await u.say("12347777", /A phone number/);
    const shown = await u.say("9851234567", /Electricity bill of/);
    expect(shown.text).toContain("Nothing is due on this account right now.");
    await u.waitFor(/You can pay in advance/);
    const confirm = await u.say("2,000", /Please check your order/);
    expect(confirm.text).toContain("Bill due: Rs 0");
    expect(confirm.text).toContain("Amount: Rs 2,000");
    const { ref } = await u.confirmUntil("succeeded");
    expect(await ts.system.orders.get(ref)).toMatchObject({
      status: "success",
      amountPaisa: 200_000,
      details: { officeCode: "276", scNo: "777.01", billAmountPaisa: 0 },
    });
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(704);
    await startElectricity(u);
    // Office.
    await u.say("xyz", /Nothing matches "xyz"/);
    u.emu.sendSticker(704);
    await u.waitFor(/Please answer with a text message/);
    await u.say("kirtipur", /Your SC number/);
    // SC number, customer id.
    await u.say("12 34", /only letters, digits/);
    await u.say("555.12", /Your customer id/);
    await u.say("#1", /only letters, digits/);
    await u.say("11114040", /A phone number/);
    // Phone.
    await u.say("12345", /That is not a phone number/);
    await u.say("98412345", /That is not a phone number/);
    await u.say("phone", /That is not a phone number/);
    const refused = await u.say("9841000111", /could not check that bill: Customer not found/);
    // Refused: everything is asked again with the previous answers as buttons; the office is kept.
    const sc = await u.emu.waitForBotMessage(704, /Your SC number/, { afterId: refused.id });
    expect(u.buttons(sc)).toEqual(["555.12", "‹ Back", "✖ Cancel"]);
    const customer = await u.tap("555.12", /Your customer id/);
    expect(u.buttons(customer)).toEqual(["11114040", "‹ Back", "✖ Cancel"]);
    const phone = await u.say("5555", /A phone number/);
    expect(u.buttons(phone)).toEqual(["9841000111", "‹ Back", "✖ Cancel"]);
    await u.tap("9841000111", /Electricity bill of/);
    // Amount.
    await u.waitFor(/Pay the due of/);
    await u.say("0.5", /smallest amount is Rs 1/);
    await u.say("250000", /largest amount is Rs 25,000/);
    await u.say("much", /Please type an amount in rupees/);
    const confirm = await u.say("2500", /Please check your order/);
    expectParts(confirm.text, [
      "Number / account: 5555",
      "Office: Kirtipur DC",
      "SC number: 555.12",
      "Phone: 9841000111",
      `Customer: ${billOf("5555", "555.12").customer_name}`,
      "Amount: Rs 2,500",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(704, 10);
    expect(
      orders.map((o) => [
        o.connectionNo,
        o.amountPaisa,
        detailsOf(o, "electricity").officeCode,
        detailsOf(o, "electricity").scNo,
        o.status,
      ]),
    ).toEqual([["5555", 250_000, "282", "555.12", "success"]]);
  });
});
