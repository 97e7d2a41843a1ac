import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Complaints } from "../../src/complaints/index.ts";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A complaint's refund and the aggregator's reversal of the same order (review s33-rvcomp 5), on
 * Redis in prepaid mode with the embedded sandbox: the admins' alert of the reversal ("the
 * customer may be owed a refund") said so even when a complaint refund had already returned the
 * money, and the complaint's refund screens (chat and back office) did not show the reversal, so
 * an admin reading either could pay the customer twice (a complaint refund plus a /credit). Now
 * the alert names the complaint's refund (its amount, number and time) and the refund screens
 * show the aggregator's word and when it said it.
 */

const ADMIN = 3001;

/** A registered customer with Rs 500 who recharged Rs 100 successfully: the order's reference. */
async function paidOrder(ts: TestSystem, u: TestUser): Promise<string> {
  await u.register();
  await u.credit(50_000);
  const ref = await u.placeMobile("9841234567", "100");
  await u.outcome(ref, "succeeded");
  await waitUntil(
    async () => (await ts.system.orders.get(ref))?.status === "success",
    "the order success",
  );
  return ref;
}

describe("a complaint refund and the aggregator's reversal of one order (redis)", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  const complaints = (): Complaints => ts.system.deps.complaints!;
  const balance = async (id: number) =>
    (await ts.system.ledger.balance(account.customer(id))).availablePaisa;

  /** The sandbox takes the success back (its webhook, confirmed by a status query, says failed). */
  async function reverse(ref: string): Promise<void> {
    const { transactionId } = (await ts.system.orders.get(ref))!;
    const forced = ts.system.sandbox!.forceStatus(
      ts.system.config.sandbox.token,
      transactionId!,
      "failed",
    );
    expect(forced.ok).toBe(true);
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.contradicted !== undefined,
      "the contradiction recorded",
    );
  }

  it("the reversal's alert after a complaint refund says it was paid, with the amount and the complaint", async () => {
    const u = ts.user(10_601);
    const ref = await paidOrder(ts, u);
    const raised = await complaints().raise({
      userId: 10_601,
      chatId: 10_601,
      locale: "en",
      orderReference: ref,
      reason: "not_received",
    });
    if (!raised.ok) throw new Error("not raised");
    const cref = raised.complaint.reference;
    const done = await complaints().resolve(cref, ADMIN, {
      text: "not delivered",
      refundPaisa: 10_000,
    });
    expect(done.ok).toBe(true);
    expect(await balance(10_601)).toBe(50_000);

    await reverse(ref);
    const admin = ts.user(ADMIN);
    const alert = await admin.waitFor(
      new RegExp(`Order ${ref} \\(.*aggregator now says it failed`),
    );
    expect(alert.text).toContain(
      `Complaint ${cref} already refunded Rs 100 of it to the customer (`,
    );
    expect(alert.text).toContain("do not refund that again");
    expect(alert.text).not.toContain("may be owed a refund");
    // Nothing moved: the customer still has the one refund.
    expect(await balance(10_601)).toBe(50_000);
  });

  it("after a reversal, the refund screens in the chat and the back office show the aggregator's word and time", async () => {
    const u = ts.user(10_602);
    const ref = await paidOrder(ts, u);
    await reverse(ref);
    const admin = ts.user(ADMIN);
    // No refund booked yet: the alert says one may be owed.
    const alert = await admin.waitFor(
      new RegExp(`Order ${ref} \\(.*aggregator now says it failed`),
    );
    expect(alert.text).toContain("The customer may be owed a refund.");

    await u.say(`/complain ${ref}`, /What went wrong/);
    const raised = await u.tap("Paid but not received", /Complaint C\d+ is registered/);
    const cref = /Complaint (C\d+)/.exec(raised.text)![1]!;
    // The new complaint's alert (through the outbox) in before the list whose buttons are tapped.
    await admin.waitFor(new RegExp(`New complaint ${cref}`));

    const can = await complaints().refundableOf(cref);
    expect(can).toMatchObject({ ok: true, paisa: 10_000, reversed: { word: "failed" } });

    const reply = await admin.say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    const page = await (await c.get(`/dashboard/complaints/act?ref=${cref}&a=refund`)).text();
    expect(page).toContain("The aggregator answered &quot;failed&quot; for this order at ");
    expect(page).toContain("before refunding");

    await admin.say("/complaints", new RegExp(cref));
    const how = await admin.tap("Resolve", new RegExp(`Complaint ${cref}, order ${ref}`));
    expect(how.text).toContain(`The aggregator answered "failed" for order ${ref} on `);
    expect(how.text).toContain("before refunding");
    expect(admin.buttons(how)).toContain("Refund Rs 100 and resolve");
    expect(await balance(10_602)).toBe(40_000);
  });
});
