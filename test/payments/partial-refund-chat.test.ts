import { describe, expect, it } from "vitest";
import type { TopUp } from "../../src/payments/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { useTopUpSystem } from "../support/topup-system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A partial refund decided in the chat (s20-r4 finding 1): with the back office off (DASHBOARD=0,
 * as production runs unless told), /topups lists the top-ups waiting in partial_refund and an
 * admin enters the amount Khalti returned there, or rejects an uncredited one. The whole product
 * with the Khalti stand-in, on memory and on real Redis.
 */

const ADMIN = 3001;

describe.each([
  ["memory", false],
  ["redis", true],
])("partial refunds in the chat, back office off (%s)", (_name, redis) => {
  const sys = useTopUpSystem(redis, {
    DASHBOARD: "0",
    // The refund watch's lookups of credited top-ups stay out of these tests' window.
    TOPUP_REFUND_CHECK_MS: "3600000",
  });
  const { topUps, khalti, ledger, balance, entries, pushes, start } = sys;
  const get = (t: TopUp) => topUps().get(t.paymentId);

  /** Paid at Khalti, then refunded in part: after our credit, or before it. */
  async function partlyRefunded(userId: number, rupees: number, credited: boolean) {
    const t = await start(userId, rupees);
    khalti().act(t.paymentId, "pay");
    if (credited) expect((await topUps().confirm("khalti", t.paymentId))?.status).toBe("completed");
    khalti().refund(t.paymentId, true);
    expect(await topUps().confirm("khalti", t.paymentId)).toMatchObject({
      status: "partial_refund",
    });
    return t;
  }

  it("lists a credited partial refund; the admin's amount (re-asked when wrong) is taken back once and told", async () => {
    expect((await fetch(`${sys.ts().system.url}/dashboard/topups`)).status).toBe(404);
    const t = await partlyRefunded(951, 1000, true);
    const pid = t.paymentId;
    expect(await balance(951)).toBe(100_000);
    const admin = sys.ts().user(ADMIN);
    // The alert names the chat's /topups, which exists here.
    await waitUntil(
      () => admin.botTexts().some((p) => p.includes(pid) && p.includes("with /topups here")),
      "the admins' alert",
    );
    // A customer cannot see or decide them.
    await sys
      .ts()
      .user(951)
      .say("/topups", /for admins/);
    const line = await admin.say("/topups", (m) => m.text.includes(`top-up ${pid}`));
    expect(line.text).toBe(
      `Partial refund to enter: top-up ${pid} (khalti), customer 951. Paid Rs 1,000; credited Rs 1,000. khalti says: Partially Refunded, without the amount.`,
    );
    expect(admin.buttons(line)).toEqual(["Enter the amount returned"]);
    await admin.tap("Enter the amount returned", /How much did khalti return/);
    await admin.say("abc", /Please type an amount in rupees[\s\S]*Please try again/);
    await admin.say("1500", /The largest amount is Rs 1,000[\s\S]*Please try again/);
    const sure = await admin.say("400", /will be taken back/);
    expect(sure.text).toContain(
      `khalti returned Rs 400 of top-up ${pid}: Rs 400 will be taken back from 951's balance (available now Rs 1,000`,
    );
    // Nothing moved before the Confirm.
    expect((await get(t))?.status).toBe("partial_refund");
    const done = await admin.tap("✅ Confirm", (m) => m.text.startsWith(`${pid}:`));
    expect(done.text).toBe(
      `${pid}: took back Rs 400 of the Rs 400 khalti returned from 951's balance. The customer was told.`,
    );
    expect(await get(t)).toMatchObject({
      status: "refunded",
      reversedPaisa: 40_000,
      partialRefund: { decision: { returnedPaisa: 40_000, adminId: ADMIN } },
    });
    expect(await balance(951)).toBe(60_000);
    const booked = await entries(pid);
    expect(booked.filter((e) => e.id.endsWith(":refund"))).toHaveLength(1);
    expect(booked).toHaveLength(2);
    await waitUntil(
      () =>
        pushes(951).some((p) =>
          p.includes(
            "Khalti refunded Rs 400 of your payment of Rs 1,000; Rs 400 was taken back from your balance",
          ),
        ),
      "the customer's notice",
    );
    // The old button again: already decided, nothing booked.
    await admin.tap("Enter the amount returned", new RegExp(`${pid} was already decided`));
    expect(await entries(pid)).toHaveLength(2);
    expect(await balance(951)).toBe(60_000);
    await expectBooksBalanced(ledger());
  });

  it("decided elsewhere between the amount and the Confirm: the service's 'already decided', booked once", async () => {
    const t = await partlyRefunded(952, 800, true);
    const pid = t.paymentId;
    const admin = sys.ts().user(ADMIN);
    await admin.say("/topups", (m) => m.text.includes(`top-up ${pid}`));
    await admin.tap("Enter the amount returned", /How much did khalti return/);
    await admin.say("300", /will be taken back/);
    // Another admin (here, straight through the service) enters it first.
    expect(await topUps().decideRefund(pid, 200_00, 4242)).toMatchObject({ ok: true });
    await admin.tap("✅ Confirm", new RegExp(`${pid} was already decided`));
    expect(await get(t)).toMatchObject({
      status: "refunded",
      reversedPaisa: 20_000,
      partialRefund: { decision: { returnedPaisa: 20_000, adminId: 4242 } },
    });
    expect(await balance(952)).toBe(60_000);
    expect((await entries(pid)).filter((e) => e.id.endsWith(":refund"))).toHaveLength(1);
    await expectBooksBalanced(ledger());
  });

  it("an uncredited partial refund: listed with Reject; rejected once, nothing credited, the customer told", async () => {
    const t = await partlyRefunded(953, 500, false);
    const pid = t.paymentId;
    const admin = sys.ts().user(ADMIN);
    await waitUntil(
      () =>
        admin
          .botTexts()
          .some((p) => p.includes(pid) && p.includes("BEFORE") && p.includes("With /topups here")),
      "the admins' alert",
    );
    const line = await admin.say("/topups", (m) => m.text.includes(`top-up ${pid}`));
    expect(line.text).toContain("Paid Rs 500; nothing credited yet.");
    expect(admin.buttons(line)).toEqual(["Enter the amount returned", "Reject (nothing credited)"]);
    const sure = await admin.tap("Reject (nothing credited)", /Reject top-up/);
    expect(sure.text).toContain("nothing will be credited to 953");
    await admin
      .tap("✅ Confirm", (m) => m.text.startsWith(`${pid}:`))
      .then((m) => expect(m.text).toContain(`${pid}: rejected, nothing credited.`));
    expect((await get(t))?.status).toBe("rejected");
    expect(await balance(953)).toBe(0);
    expect(await entries(pid)).toHaveLength(0);
    await waitUntil(
      () => pushes(953).some((p) => p.includes("Our team could not add any of it")),
      "the customer's notice",
    );
    await admin.tap("Reject (nothing credited)", new RegExp(`${pid} was already decided`));
    expect((await get(t))?.status).toBe("rejected");
    await expectBooksBalanced(ledger());
  });
  it("an uncredited partial refund: the amount returned credits the rest, told in the service's figures", async () => {
    const t = await partlyRefunded(954, 600, false);
    const pid = t.paymentId;
    const admin = sys.ts().user(ADMIN);
    await admin.say("/topups", (m) => m.text.includes(`top-up ${pid}`));
    await admin.tap(/^Enter the amount returned$/, /How much did khalti return/);
    const sure = await admin.say("200", /the rest/);
    expect(sure.text).toContain(
      `khalti returned Rs 200 of the Rs 600 paid for top-up ${pid}: Rs 400 (the rest) will be credited to 954's balance`,
    );
    const done = await admin.tap("✅ Confirm", (m) => m.text.startsWith(`${pid}:`));
    expect(done.text).toBe(
      `${pid}: credited Rs 400 to 954, the rest after the Rs 200 khalti returned. The customer was told.`,
    );
    expect(await get(t)).toMatchObject({ status: "refunded", creditedPaisa: 40_000 });
    expect(await balance(954)).toBe(40_000);
    expect(await entries(pid)).toHaveLength(1);
    await expectBooksBalanced(ledger());
  });
});
