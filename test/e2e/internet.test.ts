import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The internet flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("internet, end to end", () => {
  const ts = useTestSystem();

  async function start(u: TestUser) {
    return u.menu("🌐 Internet", /Which internet provider\?/);
  }

  /** The same message once its keyboard shows page `page`. */
  function pageShown(u: TestUser, msg: TranscriptEntry, page: string) {
    return u.emu.waitForBotMessage(
      u.id,
      (m) => m.id === msg.id && (m.inlineKeyboard ?? []).flat().some((b) => b.text === page),
      { timeoutMs: 8000 },
    );
  }

  it("pages and searches the ISPs, pays a package and pushes the success", async () => {
    const u = ts.user(401);
    const isps = await start(u);
    expect(isps.text).toContain("type part of the name to search");
    expect(u.buttons(isps)).toEqual([
      "Subisu",
      "Worldlink",
      "Vianet",
      "Websurfer",
      "Arrownet",
      "SKY Internet",
      "PrabhuNet",
      "Palsnet",
      "‹",
      "1/4",
      "›",
      "✖ Cancel",
    ]);
    u.press("›");
    const page2 = await pageShown(u, isps, "2/4");
    expect(u.buttons(page2)).toContain("Loop Network");
    expect(u.buttons(page2)).not.toContain("Subisu");
    // Back from the first page wraps to the last one.
    u.press("‹");
    await pageShown(u, isps, "1/4");
    u.press("‹");
    const last = await pageShown(u, isps, "4/4");
    expect(u.buttons(last)).toEqual([
      "Smart Link",
      "SKY Broadband",
      "Rapid Unique Net",
      "GRS Internet",
      "Wifi Nepal",
      "‹",
      "4/4",
      "›",
      "✖ Cancel",
    ]);

    const found = await u.say("link", /Matches for "link"/);
    expect(u.buttons(found)).toEqual([
      "Worldlink",
      "Meta Link",
      "DG Link",
      "Smart Link",
      "✖ Cancel",
    ]);
    await u.tap("DG Link", /Your DG Link username/);
    const list = await u.say("dglink.ram", /DG Link packages for dglink.ram \(9\)/);
    expect(u.buttons(list)).toContain("DG Link 60 Mbps - 1 Month · Rs 1,050");
    expect(u.buttons(list)).toContain("1/2");
    const confirm = await u.tap(
      "DG Link 100 Mbps - 3 Months · Rs 3,705",
      /Please check your order/,
    );
    expectParts(confirm.text, [
      "Operator: DG Link",
      "Number / account: dglink.ram",
      "Package: DG Link 100 Mbps - 3 Months",
      "Amount: Rs 3,705",
    ]);

    const { ref, push } = await u.confirmUntil("succeeded");
    expect(ref).toMatch(/^\d+$/);
    expect(push.text).toContain("DG Link · dglink.ram · Rs 3,705");
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "internet",
      operatorId: 82,
      connectionNo: "dglink.ram",
      amountPaisa: 370_500,
      userId: 401,
      details: { packageId: "8212", packageName: "DG Link 100 Mbps - 3 Months" },
    });
    expect(order?.executeReference).toBeUndefined();
    expect(ledgerFor(ts, ref)).toHaveLength(1);
  });

  it("tells the user when the ISP fails the payment", async () => {
    const u = ts.user(402);
    await start(u);
    // A search with a single match chooses it.
    await u.say("vianet", /Your Vianet username/);
    await u.say("ram0000", /Vianet packages for ram0000/);
    await u.tap("Vianet 60 Mbps - 1 Month · Rs 1,025", /Please check your order/);
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    expect((await ts.system.orders.get(ref))?.status).toBe("failed");
  });

  it("re-asks with a reason at every step, an unknown username included, and keeps earlier answers", async () => {
    const u = ts.user(403);
    await start(u);
    await u.say("zzz", /Nothing matches "zzz"/);
    u.emu.sendSticker(403);
    await u.waitFor(/Please answer with a text message/);
    await u.say("wifi", /Your Wifi Nepal username/);
    await u.say("ram sharma", /A username has only letters, digits and \. _ - \/ @ \(no spaces\)/);
    await u.say("r".repeat(41), /That is too long \(at most 40 characters\)/);
    const refused = await u.say("ram4040", /The provider answered: "Username not found/);
    expect(refused.text).toContain("Please check the username");
    await u.emu.waitForBotMessage(403, /Your Wifi Nepal username/, {
      afterId: refused.id,
      timeoutMs: 8000,
    });
    await u.say("ram.sharma", /Wifi Nepal packages for ram.sharma/);
    await u.say("fast one", /Please choose one of the buttons/);
    await u.tap("Wifi Nepal 100 Mbps - 1 Month · Rs 1,250", /Please check your order/);
    u.emu.sendText(u.id, "no");
    const again = await u.waitFor(/^Please use the buttons below/);
    expectParts(again.text, [
      "Operator: Wifi Nepal",
      "Number / account: ram.sharma",
      "Package: Wifi Nepal 100 Mbps - 1 Month",
      "Amount: Rs 1,250",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(403, 10);
    expect(
      orders.map((o) => [
        o.operatorName,
        o.connectionNo,
        detailsOf(o, "internet").packageName,
        o.amountPaisa,
        o.status,
      ]),
    ).toEqual([["Wifi Nepal", "ram.sharma", "Wifi Nepal 100 Mbps - 1 Month", 125_000, "success"]]);
  });

  it("offers Retry when the aggregator is down and keeps the answers", async () => {
    const u = ts.user(404);
    const token = ts.system.config.sandbox.token;
    await start(u);
    await u.say("subisu", /Your Subisu username/);
    ts.system.sandbox!.setFaults(token, { errorRate5xx: 1 });
    try {
      const down = await u.say("subisu.ram", /The recharge service is not answering right now/);
      expect(u.buttons(down)).toEqual(["🔄 Retry", "‹ Back", "✖ Cancel"]);
      // Typing instead of pressing shows the question again, with one Retry and one Cancel.
      for (const typed of ["hello", "retry"]) {
        const again = await u.say(typed, /The recharge service is not answering right now/);
        expect(u.buttons(again)).toEqual(["🔄 Retry", "‹ Back", "✖ Cancel"]);
      }
    } finally {
      ts.system.sandbox!.clearFaults(token);
    }
    await u.tap("🔄 Retry", /Subisu packages for subisu.ram \(9\)/);
    await u.tap("✖ Cancel", /Cancelled/);
    expect(await ts.system.orders.listByUser(404, 10)).toEqual([]);
  });
});
