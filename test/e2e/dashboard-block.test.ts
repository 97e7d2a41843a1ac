import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisBlocked } from "../../src/accounts/index.ts";
import { auditEntrySchema } from "../../src/dashboard/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { REDIS_URL, startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Blocking from the back office, through the whole product on Redis (issue 29): the admin logs in
 * by the link the bot sends, blocks a customer with a reason, and the chat refuses that customer
 * at once (/start, the menu, a Confirm already on screen, /addmoney); an order placed before the
 * block goes on to its push; unblocking lets them order again. The chat reads the blocked list in
 * Redis on every check, so a block written by another instance holds at once too. Every change
 * is in the audit log.
 */

const ADMIN = 3001;
const CUSTOMER = 1042;
const BLOCKED = /Your account is blocked by the shop/;

describe("block a customer and see the bot refuse them", () => {
  let ts: TestSystem;
  let other: Redis;
  beforeAll(async () => {
    // The sandbox answers an order after three seconds: long enough to block while it is in flight.
    ts = await startTestSystem({
      redis: true,
      sandbox: { delays: { toPendingMs: 20, toFinalMs: 3_000 } },
    });
    other = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    other?.disconnect();
    await ts?.cleanup();
  });

  async function admin() {
    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    return c;
  }

  const setBlock = async (c: ReturnType<typeof client>, verb: "block" | "unblock", why: string) => {
    expect((await c.get(`/dashboard/customers/${CUSTOMER}/${verb}`)).status).toBe(200);
    const res = await c.post(`/dashboard/customers/${CUSTOMER}/${verb}`, {}, `reason=${why}`);
    expect(res.status).toBe(303);
  };

  it("refuses at once; an order already in flight still ends with its push", async () => {
    const c = await admin();
    const u = ts.user(CUSTOMER);
    await u.say("/start", /Namaste/);
    // An order placed before the block, and a second one waiting at its confirmation.
    const inFlight = await u.placeMobile("9841234567", "150");
    await u.mobileToConfirm("9841234568", "100");
    await setBlock(c, "block", "abusive+messages");
    const status = (await ts.system.orders.get(inFlight))?.status;
    expect(status === "success" || status === "failed", `in flight at the block: ${status}`).toBe(
      false,
    );

    const refused = await u.tap("✅ Confirm", BLOCKED);
    expect(refused.text).toContain("Orders you placed before go on as usual");
    const start = await u.say("/start", BLOCKED);
    expect(start.text).toContain("Namaste User1042");
    await u.say("/recharge", BLOCKED);
    await u.say("/addmoney", BLOCKED);
    // The order placed before the block is not touched: its push arrives.
    await u.outcome(inFlight, "succeeded");
    expect((await ts.system.orders.get(inFlight))?.status).toBe("success");
  });

  it("unblocking lets the customer order again", async () => {
    const c = await admin();
    await setBlock(c, "unblock", "apologised");
    const u = ts.user(CUSTOMER);
    await u.say("/recharge", /What would you like to pay/);
    await u.say("/cancel");
  });

  it("a block another instance writes to Redis holds at once", async () => {
    const elsewhere = createRedisBlocked({ redis: other, prefix: ts.prefix });
    await elsewhere.block({
      userId: CUSTOMER,
      reason: "from another instance",
      by: ADMIN,
      at: Date.now(),
    });
    const u = ts.user(CUSTOMER);
    await u.say("/recharge", BLOCKED);
    await elsewhere.unblock(CUSTOMER);
    await u.say("/recharge", /What would you like to pay/);
  });

  it("wrote each change to the audit log with who, from where, before and after", async () => {
    const raw = await other.lrange(keyspace(ts.prefix).dashboardAudit, 0, 100);
    const entries = raw.map((l) => auditEntrySchema.parse(JSON.parse(l)));
    const block = entries.find((e) => e.action === "block");
    const unblock = entries.find((e) => e.action === "unblock");
    expect(block).toMatchObject({
      userId: ADMIN,
      role: "admin",
      detail: `customer ${CUSTOMER}: abusive messages`,
      before: { block: "not blocked" },
    });
    expect(block?.ip).toMatch(/127\.0\.0\.1/);
    expect(block?.after?.block).toContain("abusive messages");
    expect(unblock).toMatchObject({
      detail: `customer ${CUSTOMER}: apologised`,
      after: { block: "not blocked" },
    });
  });
});

describe("local mode's memory stores: registration shown, block refused (prepaid)", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("finds a customer registered in the chat by phone, with name and time; a block holds", async () => {
    const u = ts.user(10_044, { first_name: "Gita" });
    await u.register();
    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    const found = await c.get(`/dashboard/customers?by=phone&q=${u.phone()}`);
    expect(found.headers.get("location")).toBe("/dashboard/customers/10044");
    const text = await (await c.get("/dashboard/customers/10044")).text();
    expect(text).toContain("Customer 10044");
    expect(text).toMatch(/Name<\/th><td>Gita/);
    expect(text).toMatch(/Registered<\/th><td>\d{4}-\d{2}-\d{2} /);
    expect(text).toContain("+977 9800010044");

    await u.say("/recharge", /What would you like to pay/);
    await u.say("/cancel");
    const res = await c.post("/dashboard/customers/10044/block", {}, "reason=chargebacks");
    expect(res.status).toBe(303);
    await u.say("/recharge", BLOCKED);
  });
});
