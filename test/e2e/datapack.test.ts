import { afterAll, describe, expect, it, vi } from "vitest";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The data-pack flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("data pack, end to end", () => {
  const ts = useTestSystem();
  afterAll(() => {
    vi.restoreAllMocks();
  });

  async function start(u: TestUser) {
    await u.menu("📶 Data pack", /Which mobile number is the pack for/);
  }

  it("buys an Ncell data pack from the second page of the list and pushes the success", async () => {
    const u = ts.user(201);
    await start(u);
    const products = await u.say("+977 980-123-4567", /9801234567 is an Ncell number/);
    expect(u.buttons(products)).toEqual([
      "📶 Data",
      "📞 Voice",
      "✉️ SMS",
      "✈️ Roaming",
      "⭐ Sadhain On",
      "‹ Back",
      "✖ Cancel",
    ]);
    const list = await u.tap("📶 Data", /Ncell Data packs for 9801234567 \(6\)/);
    expect(u.buttons(list)).toContain("1.5 GB / 1 day · Rs 100");
    expect(u.buttons(list)).toContain("1/2");
    expect(u.buttons(list)).not.toContain("Night data 4 GB (11pm-6am) / 7 days · Rs 150");

    // Paging edits the same message: the second page shows the rest.
    const page2 = await u.nextPage(list);
    expect(u.buttons(page2)).toContain("Night data 4 GB (11pm-6am) / 7 days · Rs 150");
    expect(u.buttons(page2)).not.toContain("1.5 GB / 1 day · Rs 100");

    const confirm = await u.tap(
      "Night data 4 GB (11pm-6am) / 7 days · Rs 150",
      /Please check your order/,
    );
    expectParts(confirm.text, [
      "Operator: Ncell Data",
      "Number / account: 9801234567",
      "Package: Night data 4 GB (11pm-6am) / 7 days",
      "Amount: Rs 150",
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(ref).toMatch(/^\d+$/);
    expect(push.text).toContain("Ncell Data · 9801234567 · Rs 150");

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "datapack",
      operatorId: 2,
      connectionNo: "9801234567",
      amountPaisa: 15_000,
      userId: 201,
      details: { packageId: "PROD_002_06_inv", packageName: "Night data 4 GB (11pm-6am) / 7 days" },
    });
    // The listing's reference is the order's own: nothing to carry separately.
    expect(order?.executeReference).toBeUndefined();
    expect(ledgerFor(ts, ref)).toHaveLength(1);
  });

  it("tells the user when the operator fails the pack", async () => {
    const u = ts.user(202);
    await start(u);
    const products = await u.say("9841230000", /9841230000 is an NTC number/);
    expect(u.buttons(products)).toEqual([
      "📶 Data",
      "📞 Voice",
      "👍 Recommended",
      "‹ Back",
      "✖ Cancel",
    ]);
    await u.tap("📞 Voice", /NTC Voice packs for 9841230000 \(2\)/);
    const confirm = await u.tap("Namaste 100 minutes / 7 days · Rs 100", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Voice");
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    const order = await ts.system.orders.get(ref);
    expect(order?.status).toBe("failed");
    expect(detailsOf(order, "datapack").packageName).toBe("Namaste 100 minutes / 7 days");
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(203);
    await start(u);
    expect((await u.say("12345", /5 digits; it needs exactly 10/)).text).toContain(
      "Please try again",
    );
    await u.say("9611234567", /SmartCell/);
    await u.say("9771234567", /must start with 980, 981, 982, 970, 984, 985/);
    await u.say("my number", /Please use digits only/);
    u.emu.sendSticker(203);
    await u.waitFor(/Please answer with a text message/);
    await u.say("9851234567", /9851234567 is an NTC number/);

    await u.say("data", /Please choose one of the buttons/);
    await u.tap("📶 Data", /NTC Data packs for 9851234567 \(5\)/);
    await u.say("4 GB", /Please choose one of the buttons/);
    // A product button of the earlier question no longer counts.
    const stale = () =>
      u.emu
        .callbackAnswers()
        .filter((a) => a.chat_id === 203 && a.text === "This button is no longer active.").length;
    const before = stale();
    u.press("👍 Recommended");
    await u.emu.waitFor(() => stale() > before);

    await u.tap("4 GB / 7 days · Rs 300", /Please check your order/);
    u.emu.sendText(u.id, "yes");
    const again = await u.waitFor(/^Please use the buttons below/);
    expectParts(again.text, [
      "Number / account: 9851234567",
      "Operator: NTC Data",
      "Package: 4 GB / 7 days",
      "Amount: Rs 300",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(203, 10);
    expect(
      orders.map((o) => [
        o.connectionNo,
        o.operatorName,
        detailsOf(o, "datapack").packageName,
        o.amountPaisa,
        o.status,
      ]),
    ).toEqual([["9851234567", "NTC Data", "4 GB / 7 days", 30_000, "success"]]);
  });

  it("says so when a product has no packs and lets the user choose another", async () => {
    const u = ts.user(204);
    vi.spyOn(ts.system.provider, "listDataPackages").mockResolvedValueOnce([]);
    await start(u);
    await u.say("9821234567", /Ncell number/);
    const none = await u.tap("✉️ SMS", /Ncell SMS has no packs for this number right now/);
    // The product question again, after the notice.
    const products = await u.emu.waitForBotMessage(204, /9821234567 is an Ncell number/, {
      afterId: none.id,
      timeoutMs: 8000,
    });
    expect(u.buttons(products)).toContain("✉️ SMS");
    await u.tap("✉️ SMS", /Ncell SMS packs for 9821234567 \(2\)/);
    await u.tap("✖ Cancel", /Cancelled/);
    expect(await ts.system.orders.listByUser(204, 10)).toEqual([]);
  });

  it("offers the number used last time as a button", async () => {
    const u = ts.user(205);
    await start(u);
    await u.say("9701234567", /Ncell number/);
    await u.tap("📞 Voice", /Ncell Voice packs/);
    await u.tap("Unlimited Ncell calls / 1 day · Rs 40", /Please check your order/);
    await u.confirmUntil("succeeded");
    const ask = await u.menu("📶 Data pack", /Which mobile number is the pack for/);
    expect(u.buttons(ask)).toContain("9701234567");
    await u.tap("9701234567", /9701234567 is an Ncell number/);
  });
});
