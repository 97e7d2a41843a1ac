import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Complaints } from "../../src/complaints/index.ts";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Complaints (issue 30), as the chats read them, on Redis in prepaid mode: a customer raises a
 * complaint from the success push's "Report a problem" (or /complain), gets a number and a time;
 * an admin takes it and resolves it with a refund (one transfer in the books under the
 * complaint's number, the customer told at each step), or rejects it with why; a second
 * complaint on an order while one is open gets the open one's number, also when two instances
 * on one Redis raise at once; the back office answers one with a confirm page and a POST that a
 * repeat does not refund twice.
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

describe.each([
  ["memory", false],
  ["redis", true],
])("complaints, end to end (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis, env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  const complaints = (): Complaints => ts.system.deps.complaints!;
  const balance = async (id: number) =>
    (await ts.system.ledger.balance(account.customer(id))).availablePaisa;

  it("a customer raises from the receipt; an admin takes it and resolves it with a refund", async () => {
    const u = ts.user(10_501);
    const ref = await paidOrder(ts, u);
    expect(await balance(10_501)).toBe(40_000);
    await u.say("/reminders", /9841234567/);
    const push = await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    expect(u.buttons(push)).toContain("⚠️ Report a problem");

    await u.tap("⚠️ Report a problem", new RegExp(`What went wrong with order ${ref}\\?`));
    const raised = await u.tap("Paid but not received", /Complaint C\d+ is registered/);
    const cref = /Complaint (C\d+)/.exec(raised.text)![1]!;
    expect(raised.text).toContain(`for order ${ref}: Paid but not received.`);
    expect(raised.text).toContain("(within 2 working days)");

    const admin = ts.user(ADMIN);
    await admin.waitFor(
      new RegExp(`New complaint ${cref} on order ${ref}: Paid but not received \\(D11\\)`),
    );
    const line = await admin.say("/complaints", new RegExp(cref));
    expect(line.text).toContain(
      `${cref} · order ${ref} · Paid but not received (D11) · customer 10501`,
    );
    expect(line.text).toMatch(/registered · raised \d+m ago · due /);
    expect(line.text).toMatch(/\d+d \d+h left/);

    await admin.tap("Take", new RegExp(`You took complaint ${cref}`));
    await u.waitFor(new RegExp(`Your complaint ${cref} about order ${ref} is being looked into`));

    await admin.say("/complaints", new RegExp(`${cref}[\\s\\S]*being looked into`));
    expect(admin.buttons()).toEqual(["Resolve", "Reject"]);
    await admin.tap("Resolve", /how is it resolved\?/);
    await admin.tap("Refund Rs 100 and resolve", /What was done\?/);
    await admin.say("The operator did not deliver it", /Refund Rs 100 to the customer's balance/);
    const done = await admin.tap("✅ Confirm", /resolved with a refund of Rs 100/);
    expect(done.text).toContain(`(transfer complaint:${cref}:refund)`);

    const told = await u.waitFor(
      new RegExp(`Your complaint ${cref} about order ${ref} is resolved`),
    );
    expect(told.text).toContain("resolved: The operator did not deliver it");
    expect(told.text).toContain(
      "Rs 100 was returned to your balance. Balance after the refund: Rs 500",
    );
    expect(await balance(10_501)).toBe(50_000);
    // /balance names the money that came back.
    const movements = await u.say("/balance", /Last movements/);
    expect(movements.text).toMatch(/\+Rs 100 refunded on a complaint/);
    // Review s24-c note 4: the refunded order's reminder goes with it.
    await u.say("/reminders", /No reminders coming up/);

    // The books: one transfer, from sales back to the customer, under the complaint's number.
    const booked = await ts.system.ledger.entriesOf(cref);
    expect(booked.map((e) => [e.id, e.kind, e.debit, e.credit, e.amountPaisa])).toEqual([
      [`complaint:${cref}:refund`, "reversal", "merchant:sales", "customer:10501", 10_000],
    ]);
    // Answered again (a second admin, a replayed tap): closed, nothing more booked or told.
    const again = await complaints().resolve(cref, ADMIN, { text: "again", refundPaisa: 10_000 });
    expect(again).toMatchObject({ ok: false, code: "closed" });
    expect(await ts.system.ledger.entriesOf(cref)).toHaveLength(1);
    expect(
      u.botTexts().filter((t) => t.includes(`${cref} about order ${ref} is resolved`)),
    ).toHaveLength(1);
    await expectBooksBalanced(ts.system.ledger);
  });

  it("a partial refund keeps the order's reminder; a whole one drops it (review s24-h, 2)", async () => {
    // Rs 5 back on a wrong amount: the recharge arrived and its plan runs, so it is still reminded
    // of. Before: any refund dropped the reminder.
    const u = ts.user(10_521);
    const ref = await paidOrder(ts, u);
    await u.say("/reminders", /9841234567/);
    const raised = await complaints().raise({
      userId: 10_521,
      chatId: 10_521,
      locale: "en",
      orderReference: ref,
      reason: "wrong_amount",
    });
    if (!raised.ok) throw new Error("not raised");
    const part = await complaints().resolve(raised.complaint.reference, ADMIN, {
      text: "Rs 5 short",
      refundPaisa: 500,
    });
    expect(part.ok).toBe(true);
    expect(await balance(10_521)).toBe(40_500);
    await u.say("/reminders", /9841234567/);

    // A whole refund on the next order (all it charged): its plan was paid back, no reminder.
    const u2 = ts.user(10_522);
    const ref2 = await paidOrder(ts, u2);
    await u2.say("/reminders", /9841234567/);
    const raised2 = await complaints().raise({
      userId: 10_522,
      chatId: 10_522,
      locale: "en",
      orderReference: ref2,
      reason: "not_received",
    });
    if (!raised2.ok) throw new Error("not raised");
    const all = await complaints().refundableOf(raised2.complaint.reference);
    if (!all.ok) throw new Error("not refundable");
    const whole = await complaints().resolve(raised2.complaint.reference, ADMIN, {
      text: "not delivered",
      refundPaisa: all.paisa,
    });
    expect(whole.ok).toBe(true);
    await u2.say("/reminders", /No reminders coming up/);
  });

  it("a whole refund of a duplicate keeps the number's reminder: the other payment's plan runs (review s33-rvcomp 2)", async () => {
    // Rs 100 paid twice to one number; the second refunded whole as "charged twice". Before: its
    // reminder was dropped, so the plan the first payment bought was never reminded of.
    const u = ts.user(10_523);
    await paidOrder(ts, u);
    const second = await u.placeMobile("9841234567", "100");
    await u.outcome(second, "succeeded");
    await waitUntil(
      async () => (await ts.system.orders.get(second))?.status === "success",
      "the second order's success",
    );
    await u.say("/reminders", /9841234567/);
    const raised = await complaints().raise({
      userId: 10_523,
      chatId: 10_523,
      locale: "en",
      orderReference: second,
      reason: "duplicate",
    });
    if (!raised.ok) throw new Error("not raised");
    const all = await complaints().refundableOf(raised.complaint.reference);
    if (!all.ok) throw new Error("not refundable");
    const whole = await complaints().resolve(raised.complaint.reference, ADMIN, {
      text: "charged twice: the second payment is back",
      refundPaisa: all.paisa,
    });
    expect(whole.ok).toBe(true);
    expect(await balance(10_523)).toBe(40_000);
    await u.say("/reminders", /9841234567/);
  });

  it("Report a problem tapped while another order waits asks to leave it, then raises", async () => {
    const u = ts.user(10_511);
    const ref = await paidOrder(ts, u);
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    // The old push's button, not a stale "no longer active": the waiting order is asked about first.
    await u.tap("⚠️ Report a problem", /Leave this order\?/);
    await u.tap("🚪 Leave", new RegExp(`What went wrong with order ${ref}\\?`));
  });

  it("a second complaint while one is open gets its number; a rejection says why", async () => {
    const u = ts.user(10_502);
    const ref = await paidOrder(ts, u);
    await u.say("/complain", /Which order is the problem with\?/);
    await u.tap(new RegExp(`^${ref} · `), new RegExp(`What went wrong with order ${ref}`));
    const raised = await u.tap("Wrong amount", /Complaint C\d+ is registered/);
    const cref = /Complaint (C\d+)/.exec(raised.text)![1]!;
    expect(raised.text).toContain("(within 3 working days)");

    const second = await u.say(`/complain ${ref}`, /already has an open complaint/);
    expect(second.text).toContain(
      `Order ${ref} already has an open complaint: ${cref} (registered)`,
    );

    const admin = ts.user(ADMIN);
    await admin.say("/complaints", new RegExp(cref));
    await admin.tap("Reject", /Why is it rejected\?/);
    await admin.say("ok", /Please write 3 to 200 characters/);
    await admin.say("Rs 100 reached the number as asked", /Reject complaint C\d+ because/);
    await admin.tap("✅ Confirm", new RegExp(`Complaint ${cref} is rejected`));
    const told = await u.waitFor(
      new RegExp(`Your complaint ${cref} about order ${ref} was not accepted`),
    );
    expect(told.text).toContain("not accepted: Rs 100 reached the number as asked");
    expect(await balance(10_502)).toBe(40_000);
    expect(await ts.system.ledger.entriesOf(cref)).toEqual([]);
    // Closed: a new complaint on the order may be raised.
    await u.say(`/complain ${ref}`, new RegExp(`What went wrong with order ${ref}`));
    await u.tap("Charged twice", /Complaint C\d+ is registered/);
    const open = await complaints().openOf(ref);
    expect(open?.reason).toBe("duplicate");
    await complaints().reject(open!.reference, ADMIN, "one charge only in the books");
  });

  it("the back office resolves with a refund once, however often the POST comes", async () => {
    const u = ts.user(10_503);
    const ref = await paidOrder(ts, u);
    await u.say(`/complain ${ref}`, /What went wrong/);
    const raised = await u.tap("Paid but not received", /Complaint C\d+ is registered/);
    const cref = /Complaint (C\d+)/.exec(raised.text)![1]!;

    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    const list = await (await c.get("/dashboard/complaints")).text();
    expect(list).toContain(cref);
    expect(list).toContain("paid but not received (D11)");
    const confirm = await c.get(`/dashboard/complaints/act?ref=${cref}&a=refund`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain(`complaint:${cref}:refund`);
    // No words for the customer: the form again, nothing done.
    const empty = new URLSearchParams({ ref: cref, a: "refund", text: "" }).toString();
    expect((await c.post("/dashboard/complaints/act", {}, empty)).status).toBe(400);
    // Another origin: refused by the CSRF check.
    const body = new URLSearchParams({
      ref: cref,
      a: "refund",
      text: "Refunded: not delivered",
    }).toString();
    expect(
      (await c.post("/dashboard/complaints/act", { origin: "https://evil.example" }, body)).status,
    ).toBe(403);
    expect(await balance(10_503)).toBe(40_000);

    expect((await c.post("/dashboard/complaints/act", {}, body)).status).toBe(200);
    expect((await c.post("/dashboard/complaints/act", {}, body)).status).toBe(409);
    expect(await balance(10_503)).toBe(50_000);
    expect(await ts.system.ledger.entriesOf(cref)).toHaveLength(1);
    await u.waitFor(/Rs 100 was returned to your balance\. Balance after the refund: Rs 500/);
    const audit = await (await c.get("/dashboard/audit")).text();
    expect(audit).toContain("complaint_resolve");
    expect(audit).toContain(`${cref} on order ${ref}: refund Rs 100`);
    await expectBooksBalanced(ts.system.ledger);
  });
});

describe("complaints on two instances of one Redis", () => {
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

  it("two instances on one Redis: two raises at once give one complaint", async () => {
    const u = ts.user(10_504);
    const ref = await paidOrder(ts, u);
    const b = await startTestSystem({
      redis: true,
      prefix: ts.prefix,
      env: { ACCESS_MODE: "prepaid" },
    });
    try {
      const input = { userId: 10_504, chatId: 10_504, locale: "en", orderReference: ref };
      const [one, two] = await Promise.all([
        complaints().raise({ ...input, reason: "not_received" }),
        b.system.deps.complaints!.raise({ ...input, reason: "duplicate" }),
      ]);
      expect(one.ok && two.ok).toBe(true);
      if (!one.ok || !two.ok) return;
      expect([one.created, two.created].sort()).toEqual([false, true]);
      expect(one.complaint.reference).toBe(two.complaint.reference);
      // The customer, on the other instance's chat, is told the open one's number.
      const other = b.user(10_504);
      const said = await other.say(`/complain ${ref}`, /already has an open complaint/);
      expect(said.text).toContain(one.complaint.reference);
      // Raising moves no money.
      expect(await balance(10_504)).toBe(40_000);
    } finally {
      await b.stop();
    }
  });
});
