import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { isFinal } from "../../src/orders/model.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { creditCustomer } from "../support/order-rig.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * /settle end to end, as chats (prepaid, on Redis): a customer's order the aggregator keeps
 * pending (the sandbox's final step is an hour of real time away) holds their money; an admin
 * may settle it only once it is older than SETTLE_AFTER_MS (4 hours by default; the process's
 * clock is moved), with a reason. Two admins are configured: one proposes, the other approves
 * (maker-checker), in the chat or in the back office; the customer is told the money is back,
 * the proposer of the approval, /status shows who settled it, and a second /settle finds it final.
 */

const HOUR = 3_600_000;
const ADMIN = 7101;
const OTHER_ADMIN = 7102;
const CUSTOMER = 7201;

describe("an admin settles a stuck order from the chat", () => {
  let ts: TestSystem;
  /**
   * The process's clock runs behind the real one and each test moves it 5 hours on, to real time
   * at most (three moves). A flow's question arms its idle deadline by the real clock
   * (bot/flow/next-update.ts) while the sweeper reads the process's: ahead of the real clock,
   * every question asked after a move was already past its 10 minutes, and the sweeper could end
   * the chat ("Your previous request ended after 10 minutes") between a question and its answer.
   */
  let offset = -15 * HOUR;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `${ADMIN},${OTHER_ADMIN}`, SETTLE_ENABLED: "true" },
      sandbox: { delays: { toPendingMs: 20, toFinalMs: HOUR } },
      now: () => Date.now() + offset,
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const balance = async () =>
    (await ts.system.ledger.balance(account.customer(CUSTOMER))).availablePaisa;

  /** The customer's Rs `rupees` order for `number`, confirmed in the chat; its reference once pending. */
  async function pendingOrder(customer: TestUser, number: string, rupees: string): Promise<string> {
    await customer.say("/recharge", /What would you like to pay/);
    await customer.tap("📱 Mobile top-up", /Which mobile number/);
    await customer.say(number, /How much/);
    await customer.say(rupees, /Please check your order/);
    const receipt = await customer.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.status === "pending",
      "the order pending at the aggregator",
    );
    return ref;
  }

  it("settles as failed with a reason: the money back once, everyone told, recorded", async () => {
    const customer = ts.user(CUSTOMER);
    await customer.register();
    // The other admin has a chat with the bot (alerts go there).
    await ts.user(OTHER_ADMIN).say("/start", /./);
    await creditCustomer(ts.system.ledger, CUSTOMER, 50_000, `fund-${CUSTOMER}`);
    const ref = await pendingOrder(customer, "9841550001", "200");
    expect(await balance()).toBe(30_000);

    const admin = ts.user(ADMIN);
    // Too recent: the aggregator may still answer.
    const young = await admin.say(`/settle ${ref}`, /too recent to settle/);
    expect(young.text).toContain(`Order ${ref} is too recent to settle by hand`);
    expect((await admin.say(`/status ${ref}`, /Order/)).text).not.toContain("/settle");

    offset += 5 * HOUR;
    const shown = await admin.say(`/status ${ref}`, /Order/);
    expect(shown.text).toContain(
      `No final answer from the aggregator for too long: /settle ${ref}`,
    );

    // A first proposal, withdrawn by its admin: nothing moved.
    await admin.say(`/settle ${ref}`, /How should it be settled/);
    await admin.tap(/As succeeded/, /Why\?/);
    await admin.say("typed the wrong one", /Settle order \d+ as succeeded\?/);
    await admin.tap("✅ Confirm", /Proposed/);
    await admin.say(`/settle ${ref}`, /waits for another admin/);
    const withdrawn = await admin.tap("Withdraw my proposal", /withdrawn/);
    expect(withdrawn.text).toBe(
      `The proposal to settle order ${ref} was withdrawn. Nothing moved.`,
    );
    expect((await ts.system.orders.get(ref))?.settleProposal).toBeUndefined();

    await admin.say(`/settle ${ref}`, /How should it be settled/);
    await admin.tap(/As failed/, /Why\?/);
    await admin.say("ok", /3 to 200 characters/);
    const ask = await admin.say("operator confirms no recharge", /Settle order \d+ as failed\?/);
    // Two admins: a proposal, which the other approves (maker-checker).
    expect(ask.text).toContain("Another admin must approve it: nothing moves until then.");
    const proposed = await admin.tap("✅ Confirm", /Proposed/);
    expect(proposed.text).toContain(`Proposed: order ${ref} as ❌ failed. Nothing moves`);
    expect(await balance()).toBe(30_000);
    const other = ts.user(OTHER_ADMIN);
    await other.waitFor(new RegExp(`admin ${ADMIN} proposes to settle it as failed`));
    expect((await admin.say(`/settle ${ref}`, /waits for another admin/)).text).toContain(
      "(operator confirms no recharge) waits for another admin's approval",
    );
    await admin.say("/cancel", /./);

    await other.say(`/settle ${ref}`, new RegExp(`Admin ${ADMIN} proposes to settle order ${ref}`));
    const done = await other.tap("✅ Approve", /settled as failed/);
    expect(done.text).toContain(
      `Order ${ref} settled as failed: the customer is not charged for it (held money is back in their balance)`,
    );
    // Two people: the proposer is told of the approval.
    expect(done.text).toContain("The other admins were told.");
    expect(done.text).toMatch(/The aggregator said: status pending/);

    const push = await customer.waitFor(new RegExp(`Order ${ref} failed`));
    expect(push.text).toContain("has been returned to your balance");
    expect(push.text).toContain(
      "Reason: the aggregator never confirmed the recharge, so the order was closed as failed",
    );
    const told = await admin.waitFor(
      new RegExp(
        `Order ${ref} was settled as failed by admin ${ADMIN}, approved by admin ${OTHER_ADMIN}`,
      ),
    );
    expect(told.text).toContain("operator confirms no recharge");
    expect(await balance()).toBe(50_000);
    await expectBooksBalanced(ts.system.ledger);

    const after = await admin.say(`/status ${ref}`, /Order/);
    expect(after.text).toContain(`Settled by admin ${ADMIN}`);
    expect(after.text).toContain(`Approved by admin ${OTHER_ADMIN}`);
    expect(after.text).toContain(
      "operator confirms no recharge (the aggregator said: status pending)",
    );
    expect((await customer.say(`/status ${ref}`, /Order/)).text).not.toContain("Settled by admin");

    // A second /settle (another tap, another admin) finds it final: nothing moves.
    const again = await admin.say(`/settle ${ref}`, /already final/);
    expect(again.text).toContain(`Order ${ref} is already final`);
    expect(await balance()).toBe(50_000);
    const order = await ts.system.orders.get(ref);
    expect(order && isFinal(order.status) && order.settled?.by).toBe(ADMIN);
  });

  it("settles from the back office's order page as succeeded: audited, posted once, told", async () => {
    const customer = ts.user(CUSTOMER);
    const ref = await pendingOrder(customer, "9841550002", "100");
    const logIn = async (id: number) => {
      const c = client(ts.system.url);
      const reply = await ts.user(id).say("/dashboard", /back-office login link/);
      expect((await c.post(new URL(linkIn(reply.text) ?? "").pathname)).status).toBe(303);
      return c;
    };
    let c = await logIn(ADMIN);
    // Too recent: no form on the page, and a POST is refused.
    expect(await (await c.get(`/dashboard/orders?ref=${ref}`)).text()).not.toContain(
      "Settle order",
    );
    const body = new URLSearchParams({ ref, outcome: "success", reason: "operator: recharged" });
    expect((await c.post("/dashboard/orders/settle", {}, body.toString())).status).toBe(409);

    offset += 5 * HOUR;
    c = await logIn(ADMIN); // the session did not outlive the hours
    expect(await (await c.get(`/dashboard/orders?ref=${ref}`)).text()).toContain(
      `Settle order ${ref}`,
    );
    // A reason of spaces only (the browser's minlength lets it through): the order's settle form
    // again under the reason, and a way back to the order (review s32-backoffice, 5).
    const blank = new URLSearchParams({ ref, outcome: "success", reason: "   " });
    const refused = await c.post("/dashboard/orders/settle", {}, blank.toString());
    expect(refused.status).toBe(400);
    const asked = await refused.text();
    expect(asked).toContain("a reason of 3 to 200 characters");
    expect(asked).toContain(`Settle order ${ref}`);
    expect(asked).toContain(`href="/dashboard/orders?ref=${ref}"`);
    const proposed = await c.post("/dashboard/orders/settle", {}, body.toString());
    expect(proposed.status).toBe(200);
    expect(await proposed.text()).toContain(`Order ${ref}: proposed as success`);
    const own = await c.post("/dashboard/orders/settle", {}, body.toString());
    expect(own.status).toBe(409);
    expect(await own.text()).toContain("Your own proposal waits");
    expect((await ts.system.orders.get(ref))?.status).toBe("pending");

    const checker = await logIn(OTHER_ADMIN);
    const shown = await (await checker.get(`/dashboard/orders?ref=${ref}`)).text();
    expect(shown).toContain(`Approve: settle order ${ref} as success`);
    // The form names the proposal it shows: its admin and its time.
    const proposedAt = /name="proposedAt" value="(\d+)"/.exec(shown)?.[1] ?? "";
    const approveAt = (at: string) =>
      new URLSearchParams({
        ref,
        outcome: "success",
        reason: "operator: recharged",
        approves: String(ADMIN),
        proposedAt: at,
      });
    const approve = approveAt(proposedAt);
    // Without naming the proposal (or naming an older one) it is not approved blindly.
    expect((await checker.post("/dashboard/orders/settle", {}, body.toString())).status).toBe(409);
    const older = approveAt(String(Number(proposedAt) - 1));
    expect((await checker.post("/dashboard/orders/settle", {}, older.toString())).status).toBe(409);
    const done = await checker.post("/dashboard/orders/settle", {}, approve.toString());
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`Order ${ref} settled as success`);
    const again = await checker.post("/dashboard/orders/settle", {}, approve.toString());
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("final already");

    const order = await ts.system.orders.get(ref);
    expect(order?.status).toBe("success");
    expect(order?.settled).toMatchObject({
      by: ADMIN,
      approvedBy: OTHER_ADMIN,
      reason: "operator: recharged",
    });
    const posts = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.id === order?.holdId || e.pendingId === order?.holdId,
    );
    expect(posts.map((e) => e.kind).sort()).toEqual(["hold", "post"]);
    await expectBooksBalanced(ts.system.ledger);
    await customer.waitFor(new RegExp(`Order ${ref} succeeded`));
    await ts.user(ADMIN).waitFor(new RegExp(`Order ${ref} was settled as success`));
    const page = await (await c.get(`/dashboard/orders?ref=${ref}`)).text();
    expect(page).toContain("Settled by an admin");
    expect(page).toContain("operator: recharged");
    const audit = await (await c.get("/dashboard/audit")).text();
    expect(audit).toContain("order_settle");
    expect(audit).toContain(`order ${ref} proposed as success: operator: recharged`);
    expect(audit).toContain(`order ${ref} as success, proposed by ${ADMIN}: operator: recharged`);
  });

  it("a failed write of the aggregator's answer says nothing was settled (not the generic error)", async () => {
    const customer = ts.user(CUSTOMER);
    const ref = await pendingOrder(customer, "9841550003", "100");
    const held = await balance();
    offset += 5 * HOUR;
    // Now past the reconciler's maximum age: its stuck flag is a write of the order's script too,
    // and must not be the write the failure below meets.
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.flaggedAt !== undefined,
      "the order flagged as stuck",
    );
    const admin = ts.user(ADMIN);
    await admin.say(`/settle ${ref}`, /How should it be settled/);
    await admin.tap(/As failed/, /Why\?/);
    await admin.say("operator says no recharge", /Settle order \d+ as failed\?/);
    // The write of the aggregator's answer ("pending", asked once more) fails once: a Redis
    // error before the order's script ran.
    const redis = ts.system.redis;
    if (!redis) throw new Error("a Redis test system");
    const orderKey = keyspace(ts.prefix).order(ref);
    const send = redis.sendCommand.bind(redis);
    let failNext = true;
    type Cmd = { name: string; args: unknown[]; reject(e: Error): void; promise: Promise<unknown> };
    redis.sendCommand = ((cmd: Cmd) => {
      if (failNext && cmd.name.startsWith("eval") && cmd.args.some((a) => String(a) === orderKey)) {
        failNext = false;
        cmd.reject(new Error("Command timed out"));
        return cmd.promise;
      }
      return send(cmd as never);
    }) as typeof redis.sendCommand;
    try {
      const stopped = await admin.tap("✅ Confirm", /could not be saved/);
      expect(stopped.text).toBe(
        `The aggregator answered for order ${ref} (it said: status pending), but its answer could not be saved, so nothing was settled and no money moved on your word. Try /settle ${ref} again in a moment: it shows the order as it then stands.`,
      );
    } finally {
      redis.sendCommand = send;
    }
    expect(failNext).toBe(false);
    expect(await balance()).toBe(held);
    const after = await ts.system.orders.get(ref);
    expect(after?.status).toBe("pending");
    expect(after?.settleProposal).toBeUndefined();
    expect(after?.settled).toBeUndefined();
  });

  // Review s32-backoffice, 1: the settlement is done when the balance read after it fails; the
  // approving admin read a 500 "Please try again" and the audit log never named the settlement.
  it("settles from the back office when the balance read after it fails: said done, audited", async () => {
    const customer = ts.user(CUSTOMER);
    const ref = await pendingOrder(customer, "9841550004", "100");
    offset += 5 * HOUR;
    const logIn = async (id: number) => {
      const c = client(ts.system.url);
      const reply = await ts.user(id).say("/dashboard", /back-office login link/);
      expect((await c.post(new URL(linkIn(reply.text) ?? "").pathname)).status).toBe(303);
      return c;
    };
    const reason = "operator: no recharge";
    const body = new URLSearchParams({ ref, outcome: "failed", reason });
    expect(
      (await (await logIn(ADMIN)).post("/dashboard/orders/settle", {}, body.toString())).status,
    ).toBe(200);
    const checker = await logIn(OTHER_ADMIN);
    const shown = await (await checker.get(`/dashboard/orders?ref=${ref}`)).text();
    const proposedAt = /name="proposedAt" value="(\d+)"/.exec(shown)?.[1] ?? "";
    body.set("approves", String(ADMIN));
    body.set("proposedAt", proposedAt);
    // The back office's balance reads: the one before the settlement passes, the one after fails.
    const ledger = ts.system.ledger;
    const real = ledger.balance;
    let reads = 0;
    ledger.balance = async (a) => {
      if (++reads > 1) throw new Error("balance read failed");
      return real.call(ledger, a);
    };
    let done: Response;
    try {
      done = await checker.post("/dashboard/orders/settle", {}, body.toString());
    } finally {
      ledger.balance = real;
    }
    expect(reads).toBe(2);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`Order ${ref} settled as failed`);
    expect((await ts.system.orders.get(ref))?.status).toBe("failed");
    const audit = await (await checker.get("/dashboard/audit")).text();
    expect(audit).toContain(`order ${ref} as failed, proposed by ${ADMIN}: ${reason}`);
    expect(audit).toMatch(new RegExp(`${account.customer(CUSTOMER)}: \\d+ → not read`));
  });

  it("is for admins only", async () => {
    expect((await ts.user(CUSTOMER).say("/settle 123", /admins/)).text).toBe(
      "/settle is for admins.",
    );
  });
});
