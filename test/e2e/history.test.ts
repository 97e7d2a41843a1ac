import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bikramSambatAt } from "../../src/catalog/index.ts";
import { checkElectricityBill } from "../../src/categories/electricity/lookup.ts";
import { checkWaterBill } from "../../src/categories/water/lookup.ts";
import { formatRupees } from "../../src/money.ts";
import { sandboxLedger, type TestUser, useTestSystem } from "../support/system.ts";

/** /history and its "repeat" buttons, end to end. */
describe("order history and repeat, end to end", () => {
  const ts = useTestSystem();

  const ledgerOf = (connectionNo: string) =>
    sandboxLedger(ts).filter((r) => r.connectionNo === connectionNo);

  /** An order placed and submitted as a flow would, once it has succeeded; returns its reference. */
  const placeDirect = async (
    userId: number,
    locale: string,
    o: { category: "mobile" | "landline" | "india"; connectionNo: string; amountPaisa: number },
  ): Promise<string> => {
    const { catalog } = ts.system.deps;
    const op =
      o.category === "mobile"
        ? catalog.byCategory("mobile").find((x) => x.name === "NTC Prepaid")!
        : catalog.byCategory(o.category)[0]!;
    const common = {
      idempotencyKey: `history-${userId}-${o.connectionNo}`,
      userId,
      chatId: userId,
      locale,
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      operatorName: op.name,
      connectionNo: o.connectionNo,
      amountPaisa: o.amountPaisa,
    };
    const order = await ts.system.orders.place(
      o.category === "india"
        ? { ...common, category: "india", region: "in", details: { circleId: "5" } }
        : { ...common, category: o.category, region: "np", details: {} },
    );
    await ts.system.orders.submit(order.reference);
    await expect
      .poll(async () => (await ts.system.orders.get(order.reference))?.status, { timeout: 8000 })
      .toBe("success");
    return order.reference;
  };

  /** Each order's time as /history should show it: India orders in India time, others in Nepal time. */
  const timesOf = async (userId: number, locale: "en" | "ne") =>
    Object.fromEntries(
      (await ts.system.orders.listByUser(userId, 50)).map((o) => [
        o.reference,
        clock(locale, o.region === "in" ? "Asia/Kolkata" : "Asia/Kathmandu", o.createdAt),
      ]),
    );

  it("says so when there is no order yet", async () => {
    const u = ts.user(920);
    expect((await u.say("/history")).text).toBe(
      "You have no orders yet. Send /recharge to make one.",
    );
  });

  it("lists the last orders newest first, each with its status and a repeat button", async () => {
    const u = ts.user(921);
    const first = await u.placeMobile("9841000201", "100");
    await u.waitFor(new RegExp(`Order ${first} succeeded`));
    const second = await u.placeMobile("9861230000", "150");
    await u.waitFor(new RegExp(`Order ${second} failed`));
    const third = await u.placeMobile("9861000203", "200");
    await u.waitFor(new RegExp(`Order ${third} succeeded`));

    const list = await u.say("/history", /Your last orders/);
    const at = await timesOf(921, "en");
    expect(list.text).toBe(
      [
        "Your last orders:",
        `${at[third]} · 📱 Mobile top-up\nNTC Prepaid · 9861000203 · ✅ successful\nTotal: Rs 200 · Ref: ${third}`,
        `${at[second]} · 📱 Mobile top-up\nNTC Prepaid · 9861230000 · ❌ failed\nTotal: Rs 150 · Ref: ${second}`,
        `${at[first]} · 📱 Mobile top-up\nNTC Prepaid · 9841000201 · ✅ successful\nTotal: Rs 100 · Ref: ${first}`,
      ].join("\n\n"),
    );
    // One page only: no Previous / Next.
    expect(u.buttons(list)).toEqual([
      "🔁 Repeat 9861000203 · Rs 200",
      "🔁 Repeat 9861230000 · Rs 150",
      "🔁 Repeat 9841000201 · Rs 100",
      ...filters("en"),
    ]);
  });

  it("pages through many orders of several categories with Next and Previous, in Nepal and India time", async () => {
    const u = ts.user(926);
    // Seven orders, oldest first: mobile, landline and India, each succeeded before the next.
    const placed: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const india = i === 4;
      const landline = i === 2 || i === 6;
      placed.push(
        await placeDirect(926, "en", {
          category: india ? "india" : landline ? "landline" : "mobile",
          connectionNo: india ? `987654321${i}` : landline ? `41555123${i}` : `984100060${i}`,
          amountPaisa: i * 10_000,
        }),
      );
    }
    const at = await timesOf(926, "en");
    const [, , , indiaRef] = placed;
    // The India order in India time, the others in Nepal time.
    const indiaOrder = (await ts.system.orders.get(indiaRef!))!;
    expect(at[indiaRef!]).toBe(clock("en", "Asia/Kolkata", indiaOrder.createdAt));

    const page1 = await u.say("/history", /Your last orders/);
    expect(page1.text).toBe(
      [
        "Your last orders (page 1):",
        `${at[placed[6]!]} · 📱 Mobile top-up\nNTC Prepaid · 9841000607 · ✅ successful\nTotal: Rs 700 · Ref: ${placed[6]}`,
        `${at[placed[5]!]} · ☎️ Landline\nNTC Landline · 415551236 · ✅ successful\nTotal: Rs 600 · Ref: ${placed[5]}`,
        `${at[placed[4]!]} · 📱 Mobile top-up\nNTC Prepaid · 9841000605 · ✅ successful\nTotal: Rs 500 · Ref: ${placed[4]}`,
        `${at[placed[3]!]} · 🇮🇳 India recharge\n${indiaOrder.operatorName} · 9876543214 · ✅ successful\nTotal: ₹400 · Ref: ${placed[3]}`,
        `${at[placed[2]!]} · 📱 Mobile top-up\nNTC Prepaid · 9841000603 · ✅ successful\nTotal: Rs 300 · Ref: ${placed[2]}`,
      ].join("\n\n"),
    );
    expect(u.buttons(page1)).toEqual([
      "🔁 Repeat 9841000607 · Rs 700",
      "🔁 Repeat 415551236 · Rs 600",
      "🔁 Repeat 9841000605 · Rs 500",
      "🔁 Repeat 9876543214 · ₹400",
      "🔁 Repeat 9841000603 · Rs 300",
      "Next ➡️",
      ...filters("en"),
    ]);
    // No label shows a reference (it travels only in the button's data).
    for (const ref of placed) expect(u.buttons(page1).join(" ")).not.toContain(ref);

    // Next edits the same message to the older orders.
    u.press("Next ➡️");
    const page2 = await u.waitFor(/Your last orders \(page 2\)/);
    expect(page2.id).toBe(page1.id);
    expect(page2.text).toBe(
      [
        "Your last orders (page 2):",
        `${at[placed[1]!]} · ☎️ Landline\nNTC Landline · 415551232 · ✅ successful\nTotal: Rs 200 · Ref: ${placed[1]}`,
        `${at[placed[0]!]} · 📱 Mobile top-up\nNTC Prepaid · 9841000601 · ✅ successful\nTotal: Rs 100 · Ref: ${placed[0]}`,
      ].join("\n\n"),
    );
    expect(u.buttons(page2)).toEqual([
      "🔁 Repeat 415551232 · Rs 200",
      "🔁 Repeat 9841000601 · Rs 100",
      "⬅️ Previous",
      ...filters("en"),
    ]);

    // Previous goes back; a Repeat from page 2 repeats that order.
    u.press("⬅️ Previous");
    const back = await u.waitFor(/Your last orders \(page 1\)/);
    expect(back.text).toBe(page1.text);
    u.press("Next ➡️");
    await u.waitFor(/Your last orders \(page 2\)/);
    const intro = await u.tap("🔁 Repeat 9841000601 · Rs 100", /Repeating order/);
    const confirm = await next(u, intro.id, /Please check your order/);
    expect(confirm.text).toContain("Number / account: 9841000601");
    expect(confirm.text).toContain("Amount: Rs 100");
  });

  it("shows the history in Nepali: Nepali dates, categories and buttons, with paging", async () => {
    const u = ts.user(927, { language_code: "ne" });
    const placed: string[] = [];
    for (let i = 1; i <= 6; i++) {
      placed.push(
        await placeDirect(927, "ne", {
          category: i === 6 ? "landline" : "mobile",
          connectionNo: i === 6 ? "415551277" : `984100070${i}`,
          amountPaisa: i * 10_000,
        }),
      );
    }
    const at = await timesOf(927, "ne");
    // Nepali dates: Nepali month names, the Bikram Sambat date beside, Latin digits like the rest.
    expect(at[placed[0]!]).toMatch(
      /^\d{4} \S+ \d{1,2} \(वि\.सं\. \d{4} \S+ \d{1,2}\), \d{2}:\d{2} NPT$/,
    );

    const page1 = await u.say("/history", /पछिल्ला अर्डरहरू/);
    const lines = page1.text.split("\n\n");
    // The page number in the digits of the amounts below it (one digit system in a message).
    expect(lines[0]).toBe("तपाईंका पछिल्ला अर्डरहरू (पृष्ठ 1):");
    expect(lines.slice(1)).toEqual([
      `${at[placed[5]!]} · ☎️ ल्यान्डलाइन\nNTC Landline · 415551277 · ${status("ne")}\nजम्मा: रु 600 · रेफरेन्स: ${placed[5]}`,
      `${at[placed[4]!]} · 📱 मोबाइल टप-अप\nNTC Prepaid · 9841000705 · ${status("ne")}\nजम्मा: रु 500 · रेफरेन्स: ${placed[4]}`,
      `${at[placed[3]!]} · 📱 मोबाइल टप-अप\nNTC Prepaid · 9841000704 · ${status("ne")}\nजम्मा: रु 400 · रेफरेन्स: ${placed[3]}`,
      `${at[placed[2]!]} · 📱 मोबाइल टप-अप\nNTC Prepaid · 9841000703 · ${status("ne")}\nजम्मा: रु 300 · रेफरेन्स: ${placed[2]}`,
      `${at[placed[1]!]} · 📱 मोबाइल टप-अप\nNTC Prepaid · 9841000702 · ${status("ne")}\nजम्मा: रु 200 · रेफरेन्स: ${placed[1]}`,
    ]);
    expect(u.buttons(page1)).toEqual([
      "🔁 फेरि 415551277 · रु 600",
      "🔁 फेरि 9841000705 · रु 500",
      "🔁 फेरि 9841000704 · रु 400",
      "🔁 फेरि 9841000703 · रु 300",
      "🔁 फेरि 9841000702 · रु 200",
      "अर्को ➡️",
      ...filters("ne"),
    ]);
    u.press("अर्को ➡️");
    const page2 = await u.waitFor(/पृष्ठ 2/);
    expect(page2.text.split("\n\n")[0]).toBe("तपाईंका पछिल्ला अर्डरहरू (पृष्ठ 2):");
    expect(page2.text.split("\n\n").slice(1)).toEqual([
      `${at[placed[0]!]} · 📱 मोबाइल टप-अप\nNTC Prepaid · 9841000701 · ${status("ne")}\nजम्मा: रु 100 · रेफरेन्स: ${placed[0]}`,
    ]);
    expect(u.buttons(page2)).toEqual(["🔁 फेरि 9841000701 · रु 100", "⬅️ अघिल्लो", ...filters("ne")]);
  });

  it("repeats a mobile top-up as a new order with the same number and amount", async () => {
    const u = ts.user(922);
    const first = await u.placeMobile("9841000301", "250");
    await u.waitFor(new RegExp(`Order ${first} succeeded`));

    await u.say("/history", /Your last orders/);
    const intro = await u.tap("🔁 Repeat 9841000301 · Rs 250", /Repeating order/);
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
    const debits = ledgerOf("9841000301");
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
      reference: listingRef,
      amountPaisa: pkg.amountPaisa,
      details: { packageId: pkg.id, packageName: pkg.name },
    });
    await ts.system.orders.submit(earlier.reference);
    await u.waitFor(new RegExp(`Order ${earlier.reference} succeeded`));

    await u.say("/history", /Your last orders/);
    const intro = await u.tap(
      `🔁 Repeat ${number} · ${formatRupees(pkg.amountPaisa)}`,
      /Repeating order/,
    );
    const confirm = await next(u, intro.id, /Please check your order/);
    expect(confirm.text).toContain(`Package: ${pkg.name}`);
    expect(confirm.text).toContain(`Number / account: ${number}`);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const again = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${again} succeeded`));
    // The sandbox accepts a data-pack execute only under the reference of a listing for that number.
    expect(
      ledgerOf(number)
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
    const refused = await u.tap(`🔁 Repeat ${number} · Rs 99`, /no longer offered/);
    expect(refused.text).toBe(
      `The package "Old Festival Pack" is no longer offered for ${number}. Send /recharge to choose another one.`,
    );
    expect(u.botTexts().filter((t) => t.startsWith("Please check your order"))).toHaveLength(1);
    expect(await ts.system.orders.listByUser(923, 10)).toHaveLength(3);
  });

  it("repeats a water bill by checking it again, and never pays a bill already paid", async () => {
    const u = ts.user(924);
    const op = ts.system.deps.catalog.byCategory("water")[0]!;
    // Earlier water payments of this user (office 501, month 7), as the water flow places them.
    const earlierBill = async (customerId: string, key: string, outcome: RegExp) => {
      const referenceNo = await ts.system.orders.nextReference();
      const bill = await checkWaterBill(ts.system.provider, {
        operatorId: op.id,
        operatorTypeId: op.operatorTypeId,
        connectionNo: customerId,
        referenceNo,
        monthId: 7,
        officeCode: "501",
      });
      const order = await ts.system.orders.place({
        idempotencyKey: key,
        reference: referenceNo,
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
      await u.waitFor(new RegExp(`Order ${order.reference} ${outcome.source}`));
      return { order, bill };
    };
    const repeat = async (customerId: string, amountPaisa: number, answer: RegExp) => {
      await u.say("/history", /Your last orders/);
      return u.tap(`🔁 Repeat ${customerId} · ${formatRupees(amountPaisa)}`, answer);
    };
    const NOTHING_DUE =
      "Nothing is due on this bill now. Send /recharge if you want to pay an advance.";

    // Paid: the utility (the sandbox) now shows nothing due, so the repeat pays nothing.
    const paid = await earlierBill("1234568", "history-water-1", /succeeded/);
    expect(paid.bill.billAmountPaisa).toBeGreaterThan(0);
    expect((await repeat("1234568", paid.order.amountPaisa, /Nothing is due/)).text).toBe(
      NOTHING_DUE,
    );
    expect(ledgerOf("1234568")).toHaveLength(1);

    // Failed (refunded): the bill is still due; the repeat shows the fresh bill and pays it.
    const failed = await earlierBill("1230000", "history-water-2", /failed/);
    const intro = await repeat("1230000", failed.order.amountPaisa, /Repeating order/);
    const confirm = await next(u, intro.id, /Please check your order/);
    const due = formatRupees(failed.bill.billAmountPaisa);
    expect(confirm.text).toContain(`Bill of ${failed.bill.customerName}: ${due} due now.`);
    expect(confirm.text).toContain(`Amount: ${due}`);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const again = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${again} failed`));
    expect((await ts.system.orders.get(again!))?.details).toMatchObject({
      officeCode: "501",
      monthId: 7,
    });
    expect(ledgerOf("1230000")).toHaveLength(2);

    // An advance paid on an account with nothing due: repeating it is a new decision.
    const advance = await earlierBill("1237777", "history-water-4", /succeeded/);
    expect((await repeat("1237777", advance.order.amountPaisa, /Nothing is due/)).text).toBe(
      NOTHING_DUE,
    );
    expect(ledgerOf("1237777")).toHaveLength(1);
  });

  it("repeats an electricity bill only while something is due", async () => {
    const u = ts.user(928);
    const op = ts.system.deps.catalog.byCategory("electricity")[0]!;
    const account = {
      connectionNo: "7788991",
      officeCode: "301",
      scNo: "012.34.999",
      phone: "9841234567",
    };
    const referenceNo = await ts.system.orders.nextReference();
    const bill = await checkElectricityBill(ts.system.provider, {
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      referenceNo,
      ...account,
    });
    expect(bill.billAmountPaisa).toBeGreaterThan(0);
    const order = await ts.system.orders.place({
      idempotencyKey: "history-nea-1",
      reference: referenceNo,
      userId: 928,
      chatId: 928,
      locale: "en",
      category: "electricity",
      region: "np",
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      operatorName: op.name,
      connectionNo: account.connectionNo,
      amountPaisa: bill.billAmountPaisa,
      details: {
        officeCode: account.officeCode,
        scNo: account.scNo,
        phone: account.phone,
        customerName: bill.customerName,
        billAmountPaisa: bill.billAmountPaisa,
      },
    });
    await ts.system.orders.submit(order.reference);
    await u.waitFor(new RegExp(`Order ${order.reference} succeeded`));

    await u.say("/history", /Your last orders/);
    const refused = await u.tap(
      `🔁 Repeat 7788991 · ${formatRupees(bill.billAmountPaisa)}`,
      /Nothing is due/,
    );
    expect(refused.text).toBe(
      "Nothing is due on this bill now. Send /recharge if you want to pay an advance.",
    );
    expect(ledgerOf("7788991")).toHaveLength(1);
  });
});

/** A bill whose payment is still under way; no reconciler run resolves it behind the test's back. */
describe("repeating a bill whose payment is under way", () => {
  const ts = useTestSystem({ env: { RECONCILE_MIN_AGE_MS: "600000" } });

  it("waits for the payment's result instead of paying the bill again", async () => {
    const u = ts.user(929);
    const op = ts.system.deps.catalog.byCategory("water")[0]!;
    const ledgerOf = (connectionNo: string) =>
      sandboxLedger(ts).filter((r) => r.connectionNo === connectionNo);
    // A payment the sandbox holds as pending (a customer id ending 9999).
    const query = {
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      connectionNo: "1239999",
      monthId: 7,
      officeCode: "501",
    };
    const referenceNo = await ts.system.orders.nextReference();
    const bill = await checkWaterBill(ts.system.provider, { ...query, referenceNo });
    const held = await ts.system.orders.place({
      idempotencyKey: "history-water-held",
      reference: referenceNo,
      userId: 929,
      chatId: 929,
      locale: "en",
      category: "water",
      region: "np",
      operatorId: op.id,
      operatorTypeId: op.operatorTypeId,
      operatorName: op.name,
      connectionNo: "1239999",
      amountPaisa: bill.billAmountPaisa,
      details: {
        officeCode: "501",
        monthId: 7,
        customerName: bill.customerName,
        billAmountPaisa: bill.billAmountPaisa,
      },
    });
    await ts.system.orders.submit(held.reference);
    await expect
      .poll(async () => (await ts.system.orders.get(held.reference))?.status, { timeout: 8000 })
      .toBe("pending");
    // The utility still shows the bill due: only our own record knows a payment is on its way.
    const again = await checkWaterBill(ts.system.provider, {
      ...query,
      referenceNo: await ts.system.orders.nextReference(),
    });
    expect(again.billAmountPaisa).toBe(bill.billAmountPaisa);

    const repeatLabel = `🔁 Repeat 1239999 · ${formatRupees(bill.billAmountPaisa)}`;
    await u.say("/history", /Your last orders/);
    const underWay = await u.tap(repeatLabel, /still being processed/);
    expect(underWay.text).toBe(
      `A payment of this bill (order ${held.reference}) is still being processed, so I will not pay it again now. You will get a message with its result; then check /history.`,
    );
    expect(u.botTexts().some((t) => t.startsWith("Please check your order"))).toBe(false);
    expect(ledgerOf("1239999")).toHaveLength(1);

    // Once it has succeeded, the bill is paid: still nothing is paid twice.
    const { transactionId } = (await ts.system.orders.get(held.reference))!;
    ts.system.sandbox!.forceStatus(ts.system.config.sandbox.token, transactionId!, "success");
    await u.waitFor(new RegExp(`Order ${held.reference} succeeded`));
    await u.say("/history", /Your last orders/);
    const paid = await u.tap(repeatLabel, /Nothing is due/);
    expect(paid.text).toBe(
      "Nothing is due on this bill now. Send /recharge if you want to pay an advance.",
    );
    expect(ledgerOf("1239999")).toHaveLength(1);
  });
});

/**
 * A time as /history shows it, computed here independently of the product's formatter: date and
 * 24-hour time in Latin digits, the zone named (NPT, IST); in Nepali the Bikram Sambat date beside
 * the Gregorian (from the converter the product also uses, with the bills' month names).
 */
function clock(locale: "en" | "ne", timeZone: string, ms: number): string {
  const intl = locale === "en" ? "en-GB" : "ne-NP-u-nu-latn";
  const date = new Intl.DateTimeFormat(intl, {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
  }).format(ms);
  const time = new Intl.DateTimeFormat(intl, {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(ms);
  const zone = timeZone === "Asia/Kolkata" ? "IST" : "NPT";
  if (locale === "en") return `${date}, ${time} ${zone}`;
  const bs = bikramSambatAt(ms, timeZone)!;
  return `${date} (वि.सं. ${bs.y} ${BS_MONTHS[bs.m - 1]} ${bs.d}), ${time} ${zone}`;
}

const BS_MONTHS = [
  "बैशाख",
  "जेठ",
  "असार",
  "साउन",
  "भदौ",
  "असोज",
  "कात्तिक",
  "मंसिर",
  "पुस",
  "माघ",
  "फागुन",
  "चैत",
];

function status(locale: "ne"): string {
  return { ne: "✅ सफल" }[locale];
}

/** The first bot message after message `afterId` that matches. */
function next(u: TestUser, afterId: number, match: RegExp) {
  return u.emu.waitForBotMessage(u.id, match, { afterId, timeoutMs: 8000 });
}

/**
 * The filter buttons under every /history page, computed here independently of the product: this
 * month and the two before (Nepal time, short names), then "Search a number".
 */
function filters(locale: "en" | "ne" | "hi"): string[] {
  const intl = { en: "en-GB", ne: "ne-NP-u-nu-latn", hi: "hi-IN-u-nu-latn" }[locale];
  const nepalNow = new Date(Date.now() + 345 * 60_000);
  const months = [0, 1, 2].map((back) =>
    new Intl.DateTimeFormat(intl, { timeZone: "UTC", year: "numeric", month: "short" }).format(
      Date.UTC(nepalNow.getUTCFullYear(), nepalNow.getUTCMonth() - back, 15),
    ),
  );
  const search = { en: "🔎 Search a number", ne: "🔎 नम्बर खोज्नुहोस्", hi: "🔎 नंबर खोजें" }[locale];
  return [...months.map((m) => `📅 ${m}`), search];
}

/**
 * Issue 30: /history as a wallet app's: each order's reference (which /status needs) and the total
 * paid (the fee included; an India order's ₹ with the Rs its balance paid), a month at a time or
 * one number's orders, through the store's indexes on Redis.
 */
describe("history: references, totals, months and search", () => {
  const dir = mkdtempSync(join(tmpdir(), "history-"));
  const scheduleFile = join(dir, "prices.json");
  writeFileSync(
    scheduleFile,
    JSON.stringify({
      categories: { mobile: { fee: { flat: "5" } }, india: { fee: { flat: "1.50" } } },
    }),
  );
  const ts = useTestSystem({
    redis: true,
    env: {
      ACCESS_MODE: "prepaid",
      PRICE_SCHEDULE_FILE: scheduleFile,
      INR_TO_NPR_RATE: "1.6",
      LOW_FLOAT_ALERT: "0",
    },
  });
  const t = (locale: string, key: string, args?: Record<string, string | number>) =>
    ts.system.deps.i18n.t(locale, key, args);

  /** A registered customer (through the chat, in their language) with Rs 1,000 to spend. */
  async function customer(id: number, language_code = "en") {
    const u = ts.user(id, { language_code });
    u.emu.sendContact(id, { phoneNumber: `+${u.phone()}` });
    await u.waitFor(/✅/);
    await u.credit(100_000);
    return u;
  }

  it("shows each order's reference and total paid, one month at a time, and finds a number's orders", async () => {
    const u = await customer(15_101);
    const first = await u.placeMobile("9841000951", "100");
    await u.waitFor(new RegExp(`Order ${first} succeeded`));
    const second = await u.placeMobile("9841000952", "200");
    await u.waitFor(new RegExp(`Order ${second} succeeded`));

    // The total paid (Rs 100 and the Rs 5 fee) and the reference /status takes.
    const list = await u.say("/history", /Your last orders/);
    const [, newest, older] = list.text.split("\n\n");
    expect(newest).toContain("NTC Prepaid · 9841000952 · ✅ successful");
    expect(newest).toContain(`Total: Rs 205 · Ref: ${second}`);
    expect(older).toContain(`Total: Rs 105 · Ref: ${first}`);
    expect((await u.say(`/status ${first}`, /Order/)).text).toContain(first);

    // This month's button: both orders; last month's: none, with a way back to all of them.
    const [thisMonth, lastMonth] = filters("en");
    await u.say("/history", /Your last orders/);
    u.press(thisMonth!);
    const month = await u.waitFor(/Your orders in /);
    expect(month.text.split("\n\n")).toHaveLength(3);
    expect(month.text).toContain(`Ref: ${first}`);
    u.press(lastMonth!);
    const empty = await u.waitFor(/You have no orders in /);
    expect(u.buttons(empty)).toContain("📋 All orders");
    u.press("📋 All orders");
    await u.waitFor((m) => m.id === empty.id && m.text.startsWith("Your last orders:"));
    // A month typed after the command.
    const nepalNow = new Date(Date.now() + 345 * 60_000).toISOString().slice(0, 7);
    const typed = await u.say(`/history ${nepalNow}`, /Your orders in /);
    expect(typed.text).toBe(month.text);

    // A number typed after the command, as the customer writes it: only that number's orders.
    const byNumber = await u.say("/history +977 984-1000951", /Your orders for 9841000951/);
    expect(byNumber.text.split("\n\n")).toEqual([
      "Your orders for 9841000951:",
      expect.stringContaining(`Total: Rs 105 · Ref: ${first}`),
    ]);
    // The Search button asks for the number.
    await u.say("/history", /Your last orders/);
    await u.tap("🔎 Search a number", /Which number or account should I look for\?/);
    await u.say("what?", /That is not a number or account id/);
    const found = await u.say("9841000952", /Your orders for 9841000952/);
    expect(found.text).toContain(`Ref: ${second}`);
    expect(found.text).not.toContain(first);
    expect((await u.say("/history ???", /After \/history/)).text).toBe(t("en", "history-invalid"));

    // Another customer searching the same number finds only their own orders.
    const other = await customer(15_102);
    expect((await other.say("/history 9841000951")).text).toBe(
      "You have no orders for 9841000951.",
    );
    // Forged buttons naming that number or a month, pressed on their own list, show theirs only.
    const own = await other.say("/history 9841000951");
    other.emu.pressButton(15_102, own.id, `hv:0:m${nepalNow}`, { force: true });
    const forged = await other.waitFor(
      (m) => m.id === own.id && m.text.startsWith("You have no orders in "),
    );
    expect(forged.text).not.toContain(first);
  });

  /** Confirm in the customer's language; resolves with the reference once the order succeeded. */
  async function confirmIn(u: TestUser, locale: string): Promise<string> {
    const receipt = await u.tap(t(locale, "common-confirm"), /🧾 \S+ \d+/);
    const ref = /🧾 \S+ (\d+)/.exec(receipt.text)?.[1] ?? "";
    await expect
      .poll(async () => (await ts.system.orders.get(ref))?.status, { timeout: 8000 })
      .toBe("success");
    return ref;
  }

  it("in Hindi: an India order's total in ₹ with the Rs its balance paid; in Nepali: the month and the search", async () => {
    const hi = await customer(15_103, "hi");
    await hi.say("/recharge", t("hi", "menu-prompt"));
    await hi.tap(t("hi", "menu-india"));
    await hi.tap(t("hi", "india-kind-prepaid"));
    await hi.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    await hi.tap(/Airtel Prepaid · Delhi NCR \(/, /9810012345/);
    await hi.say("100", new RegExp(t("hi", "confirm-title").slice(0, 12)));
    const ref = await confirmIn(hi, "hi");
    const list = await hi.say("/history", /आपके पिछले ऑर्डर/);
    // ₹100 and the ₹1.50 fee, Rs 162.40 at 1.6 from the balance.
    expect(list.text).toContain(`कुल: ₹101.50 (आपके बैलेंस से रु 162.40) · रेफ़रेंस: ${ref}`);
    expect(hi.buttons(list)).toEqual(["🔁 दोहराएँ 9810012345 · ₹100", ...filters("hi")]);

    const ne = await customer(15_104, "ne");
    const neRef = await (async () => {
      await ne.say("/recharge", t("ne", "menu-prompt"));
      await ne.tap(t("ne", "menu-mobile"), /कुन मोबाइल नम्बर/);
      await ne.say("9841000954", /NTC Prepaid\nकति\?/);
      await ne.say("100", /कृपया आफ्नो अर्डर जाँच्नुहोस्/);
      return confirmIn(ne, "ne");
    })();
    await ne.say("/history", /पछिल्ला अर्डरहरू/);
    ne.press(filters("ne")[0]!);
    const month = await ne.waitFor(/का तपाईंका अर्डरहरू:/);
    expect(month.text).toContain(`जम्मा: रु 105 · रेफरेन्स: ${neRef}`);
    await ne.tap("🔎 नम्बर खोज्नुहोस्", /कुन नम्बर वा खाता खोजूँ\?/);
    const found = await ne.say("9841000954", /9841000954 का तपाईंका अर्डरहरू:/);
    expect(found.text).toContain(`रेफरेन्स: ${neRef}`);
  });
});
