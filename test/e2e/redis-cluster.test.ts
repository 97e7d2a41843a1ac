import { randomBytes } from "node:crypto";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHourlyAlertsFlush } from "../../src/books/index.ts";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import { redisKv } from "../../src/dashboard/index.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { account, postedAround } from "../../src/ledger/index.ts";
import { COLLISION_NOTE } from "../../src/orders/owed.ts";
import { creditCap } from "../../src/payments/caps.ts";
import { createRedisTopUpStore, creditTransferId, type TopUp } from "../../src/payments/index.ts";
import { writeRefusalOwed } from "../support/hourly-crash.ts";
import { placedOrder } from "../support/orders.ts";
import { type OwnCluster, startOwnCluster } from "../support/redis-cluster.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * The order flow on a Redis Cluster of three masters (issue 18): every script and transaction the
 * product sends has its keys in one slot (a cross-slot one would be refused with CROSSSLOT), the
 * money path lives in the `{money}` slot, and the per-user state (sessions, conversations, limits,
 * update claims) spreads over the masters. Prepaid: holds, captures and releases in the books.
 */
describe("the order flow on a 3-master Redis Cluster", () => {
  let cluster: OwnCluster;
  let ts: TestSystem;
  const prefix = `test:cluster:${randomBytes(4).toString("hex")}:`;

  beforeAll(async () => {
    cluster = await startOwnCluster(3);
    ts = await startTestSystem({
      env: { ACCESS_MODE: "prepaid", REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: prefix },
    });
  }, 60_000);
  afterAll(async () => {
    await ts?.stop();
    await cluster?.destroy();
  });

  const ledger = () => ts.system.ledger;
  const balance = (userId: number) => ledger().balance(account.customer(userId));

  async function order(userId: number, number: string, amount: string) {
    const u = ts.user(userId);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say(number, /How much/);
    await u.say(amount, /Please check your order/);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    return { u, ref: /Order (\d+)/.exec(receipt.text)![1]! };
  }

  it("runs on the cluster: the stores' connection is a Cluster client", () => {
    expect(ts.system.redis).toBeInstanceOf(Cluster);
  });

  it("registers, holds, captures on success and releases on failure, with the books balanced", async () => {
    const a = ts.user(801);
    await a.register();
    await a.credit(50_000);
    const ok = await order(801, "9841234567", "150");
    await ok.u.waitFor(new RegExp(`Order ${ok.ref} succeeded`));
    const placed = await ts.system.orders.get(ok.ref);
    await waitUntil(
      async () => (await ledger().pendingOf(placed!.holdId!))?.state === "posted",
      "the hold posted",
    );
    expect(await balance(801)).toMatchObject({ postedPaisa: 35_000, heldPaisa: 0 });

    const b = ts.user(802);
    await b.register();
    await b.credit(20_000);
    const bad = await order(802, "9861230000", "100");
    await bad.u.waitFor(new RegExp(`Order ${bad.ref} failed`));
    const failed = await ts.system.orders.get(bad.ref);
    await waitUntil(
      async () => (await ledger().pendingOf(failed!.holdId!))?.state === "voided",
      "the hold voided",
    );
    expect(await balance(802)).toMatchObject({ availablePaisa: 20_000, heldPaisa: 0 });

    // One debit per successful order at the aggregator; none for the failed one.
    const debits = ts.system.sandbox!.ledger(ts.system.config.sandbox.token);
    expect(debits.filter((r) => r.referenceNo === ok.ref)).toHaveLength(1);
    expect((await ledger().check()).ok).toBe(true);
    expect(await ts.system.orders.listByUser(801, 10)).toHaveLength(1);
  });

  it("keeps the money path in one slot and spreads the chats' state over the masters", async () => {
    // A few more customers walk into a flow, so their sessions and conversations exist.
    for (const id of [811, 812, 813, 814, 815, 816]) {
      const u = ts.user(id);
      await u.register();
      // With money to spend: a balance of Rs 0 is told so before the first question (issue 30).
      await u.credit(5_000);
      await u.say("/recharge", /What would you like to pay/);
      await u.tap("📱 Mobile top-up", /Which mobile number/);
    }
    const held = await Promise.all(
      cluster.direct().map(async (node) => {
        const keys: string[] = [];
        let cursor = "0";
        do {
          const [next, batch] = await node.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
          cursor = next;
          keys.push(...batch);
        } while (cursor !== "0");
        return keys;
      }),
    );
    const money = held.map((keys) => keys.filter((k) => k.includes("{money}")).length);
    // Every money key on one master; the others hold none.
    expect(money.filter((n) => n > 0)).toHaveLength(1);
    const chatState = held.map(
      (keys) => keys.filter((k) => k.includes("session:") || k.includes("conversation:")).length,
    );
    expect(chatState.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });

  it("checks a top-up credit's daily cap in its script: the user's other top-ups read by name in {money}", async () => {
    const redis = ts.system.redis;
    if (!redis) throw new Error("the system runs on the cluster");
    const store = createRedisTopUpStore({ redis, prefix });
    const at = Date.now();
    const topUp = (n: number): TopUp => ({
      id: `TUcluster${n}`,
      gateway: "khalti",
      paymentId: `clustercap${n}`,
      paymentUrl: `http://127.0.0.1:9/pay?pidx=clustercap${n}`,
      userId: 821,
      chatId: 821,
      locale: "en",
      amountPaisa: 300_000,
      status: "pending",
      createdAt: at,
      updatedAt: at,
      expiresAt: at + 3_600_000,
      version: 0,
    });
    const caps = { maxPaisa: 1_000_000, dailyCapPaisa: 500_000 };
    const credit = (t: TopUp) =>
      store.update(
        0,
        { ...t, status: "completed", creditedPaisa: t.amountPaisa },
        {
          id: creditTransferId(t.gateway, t.paymentId),
          debit: account.merchant.gateway("khalti"),
          credit: account.customer(821),
          amountPaisa: t.amountPaisa,
          kind: "topup",
        },
        null,
        creditCap(caps, t, t.amountPaisa),
      );
    const [a, b] = [topUp(1), topUp(2)];
    await store.create(a, at);
    await store.create(b, at);
    expect(await credit(a)).toMatchObject({ ok: true });
    expect(await credit(b)).toEqual({ ok: false, reason: "cap", limitPaisa: 200_000 });
    expect(await balance(821)).toMatchObject({ postedPaisa: 300_000 });
    // The admins' list of open top-ups past the watch scans the schedule and reads each top-up in
    // one pipeline: one slot ({money}), so a Cluster answers it.
    expect((await store.openSince(at + 1, 10)).topUps.map((t) => t.paymentId)).toEqual([
      "clustercap2",
    ]);
  });

  it("writes a back office audit line once with its mark: the list and its marks in one slot", async () => {
    const redis = ts.system.redis;
    if (!redis) throw new Error("the system runs on the cluster");
    const audit = createAuditLog(redisKv(redis), dashboardKeys(prefix));
    const line = {
      at: Date.now(),
      userId: 1,
      role: "admin",
      action: "float_propose" as const,
      ip: "127.0.0.1",
      userAgent: "cluster",
      detail: "float-move:cluster-once",
    };
    // A cross-slot script would be refused (CROSSSLOT): the line and its mark are one script.
    expect(await audit.recordOnce(line, "float:cluster-once:propose")).toBe(true);
    expect(await audit.recordOnce(line, "float:cluster-once:propose")).toBe(false);
    expect(await audit.marked(["float:cluster-once:propose", "float:other:propose"])).toEqual([
      true,
      false,
    ]);
    const lines = (await audit.all()).filter((e) => e.detail === "float-move:cluster-once");
    expect(lines).toHaveLength(1);
  });

  it("reads a booking's balances at it (a float approval's figures): the journal and index in one slot", async () => {
    const l = ledger();
    const { float, adjustments } = account.merchant;
    const booked = await l.transfer({
      id: `float-move:cluster-${randomBytes(4).toString("hex")}`,
      debit: adjustments,
      credit: float,
      amountPaisa: 1_234,
      kind: "adjustment",
      reason: "correction down on the cluster",
    });
    if (!booked.ok) throw new Error("not booked");
    const onFloat = await postedAround(l, booked.entry, float);
    const onAdjustments = await postedAround(l, booked.entry, adjustments);
    expect(onFloat && onFloat.afterPaisa - onFloat.beforePaisa).toBe(1_234);
    expect(onAdjustments && onAdjustments.afterPaisa - onAdjustments.beforePaisa).toBe(-1_234);
  });

  it("marks a refused order owed its hourly count and repairs it: the owed set in {money}", async () => {
    // h-collide: the order's update script with an owed set among its keys, then the flush's
    // repair (owedBefore, the count's and the tell's scripts with the set), as after a crash.
    const { store, crossings } = ts.system;
    const reference = `77${randomBytes(5).readUIntBE(0, 5) % 10_000_000_000}`;
    await store.create(
      placedOrder({ reference, idempotencyKey: `k-${reference}`, status: "submitting" }),
    );
    const markedAt = Date.now();
    const written = await writeRefusalOwed(store, reference, markedAt);
    expect(written?.owed).toEqual([COLLISION_NOTE]);
    const at = Date.now() + 2 * 60_000;
    // h-owedfix: a mark set aside (its score moved, its own time kept in a hash in the same slot).
    expect(await crossings.owedRetry(COLLISION_NOTE, reference, at - 60_000, 0)).toBe("retry");
    const owed = await crossings.owedBefore(COLLISION_NOTE, at, 10);
    expect(owed.map((o) => [o.reference, o.at])).toEqual([[reference, at - 60_000]]);
    expect(owed[0]?.markedAt).toBeLessThanOrEqual(at - 60_000);
    await createHourlyAlertsFlush({ crossings, adminChatIds: [], orders: store })(at);
    expect(await crossings.owedBefore(COLLISION_NOTE, at, 10)).toEqual([]);
    expect(JSON.parse((await crossings.recall(COLLISION_NOTE)) ?? "null")).toMatchObject({
      since: at,
      more: 0,
    });
  });

  it("answers a WhatsApp customer: the person is read apart from the chat's script", async () => {
    // On one node the arrival's script reads the phone's owner and locale too; their hashes are
    // in the {accounts} slot, so a Cluster must not send them in the chat's script (CROSSSLOT).
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const u = new WhatsAppChatUser(standIn, "9779841000831", { name: "Kiran" });
    await u.say("hi", /Namaste Kiran/);
    // Every node connection of this process (the system runs in it) while the second "hi" runs.
    const reads: string[] = [];
    const send = Redis.prototype.sendCommand;
    Redis.prototype.sendCommand = function (this: Redis, cmd: { name: string; args: unknown[] }) {
      const key = String(cmd.args[0] ?? "");
      if (cmd.name === "hget" && key.startsWith(prefix)) reads.push(key.slice(prefix.length));
      return send.call(this, cmd as never);
    } as typeof send;
    try {
      await u.say("hi", /Namaste Kiran/);
    } finally {
      Redis.prototype.sendCommand = send;
    }
    // The phone's owner and the locale in one script of their own slot, no HGET apart.
    expect(reads.filter((k) => k.includes("{accounts}"))).toEqual([]);
  });
});
