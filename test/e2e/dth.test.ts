import { describe, expect, it } from "vitest";
import { customerName } from "../../dev/sandbox/data.ts";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The TV (DTH) flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("TV (DTH), end to end", () => {
  const ts = useTestSystem();

  async function start(u: TestUser) {
    return u.menu("📺 TV (DTH)", /Which TV \(DTH\) operator/);
  }

  it("shows the subscriber, pays a package from the second page and pushes the success", async () => {
    const u = ts.user(301);
    const ops = await start(u);
    // All eleven operators on one page, no paging row.
    expect(u.buttons(ops)).toEqual([
      "Dish Home",
      "SIM TV",
      "Mero TV",
      "Sky TV",
      "Clear TV",
      "Prabhu TV",
      "Jagriti Cable",
      "Max TV",
      "Nijgadh Cable",
      "Net TV",
      "PNG Network",
      "✖ Cancel",
    ]);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    const { message_id } = u.emu.sendText(301, "DH123456");
    const info = await u.emu.waitForBotMessage(301, /Dish Home subscriber DH123456/, {
      afterId: message_id,
      timeoutMs: 8000,
    });
    expect(info.text).toContain(`Customer: ${customerName("DH123456")}`);
    expect(info.text).toMatch(/STB No: STB\d{10}/);
    expect(info.text).toContain("Status: Active");
    const list = await u.waitFor(/Choose a package \(9\)/);
    expect(u.buttons(list)).toContain("Dish Home Basic - 1 Month · Rs 350");
    expect(u.buttons(list)).toContain("1/2");

    const page2 = await u.nextPage(list);
    expect(u.buttons(page2)).toContain("Dish Home Gold HD - 3 Months · Rs 1,890");
    const confirm = await u.tap(
      "Dish Home Gold HD - 3 Months · Rs 1,890",
      /Please check your order/,
    );
    expectParts(confirm.text, [
      "Operator: Dish Home",
      "Number / account: DH123456",
      `Customer: ${customerName("DH123456")}`,
      "Package: Dish Home Gold HD - 3 Months",
      "Amount: Rs 1,890",
    ]);

    const { ref, push } = await u.confirmUntil("succeeded");
    expect(ref).toMatch(/^\d+$/);
    expect(push.text).toContain("Dish Home · DH123456 · Rs 1,890");
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "dth",
      operatorId: 36,
      connectionNo: "DH123456",
      amountPaisa: 189_000,
      userId: 301,
      details: { packageId: "DTH36_GOLD_3M", packageName: "Dish Home Gold HD - 3 Months" },
    });
    expect(ledgerFor(ts, ref)).toHaveLength(1);
  });

  it("tells the user when the operator fails the recharge", async () => {
    const u = ts.user(302);
    await start(u);
    await u.tap("Net TV", /Your Net TV customer id/);
    await u.say("NTV120000", /Choose a package/);
    const confirm = await u.tap("Net TV Basic - 1 Month · Rs 350", /Please check your order/);
    expect(confirm.text).toContain("NTV120000");
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    const order = await ts.system.orders.get(ref);
    expect(order?.status).toBe("failed");
    expect(detailsOf(order, "dth").packageId).toBe("DTH100_BASIC_1M");
  });

  it("re-asks with a reason at every step, an unknown customer included, and keeps earlier answers", async () => {
    const u = ts.user(303);
    await start(u);
    await u.say("sim", /Please choose one of the buttons/);
    await u.tap("SIM TV", /Your SIM TV customer id/);
    await u.say("SIM 7788", /only letters, digits and \. _ - \/ @ \(no spaces\)/);
    await u.say("x".repeat(41), /That is too long \(at most 40 characters\)/);
    u.emu.sendSticker(303);
    await u.waitFor(/Please answer with a text message/);
    // The aggregator does not know this customer: its words, then the same question again.
    const refused = await u.say("SIM124040", /The operator answered: "Customer not found/);
    expect(refused.text).toContain("Please check the customer id");
    await u.emu.waitForBotMessage(303, /Your SIM TV customer id/, {
      afterId: refused.id,
      timeoutMs: 8000,
    });
    await u.say("SIM778899", /SIM TV subscriber SIM778899/);
    await u.waitFor(/Choose a package/);
    await u.say("gold", /Please choose one of the buttons/);
    await u.tap("SIM TV Silver - 12 Months · Rs 4,950", /Please check your order/);
    u.emu.sendText(u.id, "ok");
    const again = await u.waitFor(/^Please use the buttons below/);
    expectParts(again.text, [
      "Operator: SIM TV",
      "Number / account: SIM778899",
      `Customer: ${customerName("SIM778899")}`,
      "Package: SIM TV Silver - 12 Months",
      "Amount: Rs 4,950",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(303, 10);
    expect(
      orders.map((o) => [
        o.operatorName,
        o.connectionNo,
        detailsOf(o, "dth").packageName,
        o.amountPaisa,
        o.status,
      ]),
    ).toEqual([["SIM TV", "SIM778899", "SIM TV Silver - 12 Months", 495_000, "success"]]);
  });
});
