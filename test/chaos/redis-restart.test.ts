import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFinal, type Order } from "../../src/orders/model.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { audit, auditFigures, problems } from "../support/chaos/audit.ts";
import { expectAnchored, expectNoDrift } from "../support/chaos/books.ts";
import { pool, report, secretNeedles, sleep, waitUntil } from "../support/chaos/env.ts";
import { everyOrderFinal, everyPushDelivered, orderStream } from "../support/chaos/flows.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * Redis (a server of the test's own, AOF with fsync always) is shut down and started again on the
 * same directory twice while the product runs: once with notifications queued and conversations
 * half-way, once under a stream of orders. Nothing the product had stored may be gone: no order,
 * no session or conversation, no queued notification; and every order still ends final and pushed
 * exactly once.
 */

const FIRST_USER = 620_001;
const USERS = 20;
const QUEUED_ORDERS = 60;
const LOAD_ORDERS = 150;
const MID_FLOW = [620_101, 620_102, 620_103, 620_104, 620_105];

describe("Redis restarted mid-run", () => {
  let redisServer: OwnRedis;
  let probe: Redis;
  beforeAll(async () => {
    redisServer = await startOwnRedis();
    probe = new Redis(redisServer.url, { maxRetriesPerRequest: 20 });
    probe.on("error", () => {});
  });
  afterAll(async () => {
    probe?.disconnect();
    await redisServer?.destroy();
  });
  // Registered after the own Redis: started once it runs, stopped before it is destroyed.
  const stack = useChaosStack("redis-restart", () => ({
    redisUrl: redisServer.url,
    deleteKeys: false,
  }));
  const { secrets, logs, prefix } = stack;
  const { placeAndSubmit } = orderStream({
    app: () => stack.app,
    name: "redis",
    firstUser: FIRST_USER,
    users: USERS,
    attempts: 100,
  });

  async function restartRedis(downMs: number) {
    await redisServer.shutdown();
    await sleep(downMs);
    await redisServer.start();
  }

  it("loses no order, session or queued notification across two restarts", async () => {
    const { emu, provider, app } = stack;
    const k = keyspace(prefix);
    // The opening float is booked before the first order (the books check at start).
    await expectAnchored(app.books);
    // Five users stop half-way through a mobile top-up: session and conversation live in Redis.
    // Each chose a language first: an untouched session is not stored at all.
    const midFlow = MID_FLOW.map((id) => new ChatUser(emu.emulator, id));
    await Promise.all(
      midFlow.map(async (u, n) => {
        await u.say("/language", /Choose your language/);
        u.press("English");
        await u.waitFor(/Language set to English/);
        await u.say("/recharge", /What would you like to pay/);
        await u.tap("📱 Mobile top-up", /Which mobile number/);
        await u.say(`98410${String(n).padStart(2, "0")}555`, /How much\?/);
      }),
    );
    for (let u = 0; u < USERS; u++) emu.emulator.users.upsert(FIRST_USER + u, {});

    // Notifications pile up while the notifier is stopped.
    await app.notifier.stop();
    const failures = { place: 0, submit: 0 };
    const queued = await pool(
      Array.from({ length: QUEUED_ORDERS }, (_, i) => i),
      10,
      (i) => placeAndSubmit(i, failures),
    );
    await waitUntil(
      async () =>
        (await Promise.all(queued.map((o) => app.orders.get(o.reference)))).every(
          (o) => o && isFinal(o.status),
        ),
      "the queued orders final",
    );
    // What Redis holds of the queued orders, the backlog and the half-way conversations.
    const inRedis = async () => ({
      orders: await Promise.all(queued.map((o) => probe.hget(k.order(o.reference), "j"))),
      backlog: await probe.xlen(k.outbox),
      sessions: await Promise.all(MID_FLOW.map((id) => probe.get(`${prefix}session:${id}`))),
      conversations: await Promise.all(
        MID_FLOW.map((id) => probe.get(`${prefix}conversation:${id}`)),
      ),
      keys: (await probe.keys(`${prefix}*`)).length,
    });
    const before = await inRedis();
    expect(before.backlog).toBeGreaterThanOrEqual(QUEUED_ORDERS);

    // Restart 1: everything stored must come back from the AOF.
    const down1 = Date.now();
    await restartRedis(1_000);
    const down1Ms = Date.now() - down1;
    const after = await inRedis();
    expect(after.orders).toEqual(before.orders);
    expect(after.backlog).toBe(before.backlog);
    expect(after.sessions).toEqual(before.sessions);
    expect(after.conversations).toEqual(before.conversations);
    expect(before.sessions.every((s) => s !== null)).toBe(true);
    expect(before.conversations.every((s) => s !== null)).toBe(true);

    // Restart 2: under a stream of orders, with the notifier draining the backlog.
    app.notifier.start();
    let placedCount = 0;
    const load = pool(
      Array.from({ length: LOAD_ORDERS }, (_, i) => QUEUED_ORDERS + i),
      6,
      async (i) => {
        const o = await placeAndSubmit(i, failures);
        placedCount++;
        return o;
      },
    );
    await waitUntil(() => placedCount >= 50, "50 orders of the stream placed");
    const down2 = Date.now();
    await restartRedis(1_500);
    const down2Ms = Date.now() - down2;
    const streamed = await load;

    // The half-way conversations go on where they were.
    const midRefs: string[] = [];
    for (const u of midFlow) {
      const confirm = await u.say("150", /Please check your order/, 15_000);
      expect(confirm.text).toContain("Amount: Rs 150");
      const receipt = await u.tap("✅ Confirm", /Order \d+/, 15_000);
      midRefs.push(/Order (\d+)/.exec(receipt.text)?.[1] ?? "");
    }

    const allRefs = [...queued, ...streamed].map((o) => o.reference).concat(midRefs);
    await everyOrderFinal(app);
    const chats = [...Array.from({ length: USERS }, (_, u) => FIRST_USER + u), ...MID_FLOW];
    await everyPushDelivered(app, emu.emulator, chats, allRefs.length);

    const stored = await Promise.all(allRefs.map((r) => app.orders.get(r)));
    const lost = allRefs.filter((_, i) => stored[i] === null);
    const result = audit(
      stored.filter((o): o is Order => o !== null),
      provider.sandbox.ledger(secrets.providerToken),
      provider.executes,
      emu.emulator,
      chats,
    );
    const dead = await app.queue.listDead(100);
    const scan = logs.scan(secretNeedles(secrets));
    report("Redis restarted mid-run (own redis-server, appendonly yes, appendfsync always)", {
      "restarts (SHUTDOWN + start on the same dir)": 2,
      "restart 1 down for (ms)": down1Ms,
      "restart 2 down for (ms), under load": down2Ms,
      "orders stored before restart 1": QUEUED_ORDERS,
      "queued notifications at restart 1": before.backlog,
      "queued notifications after restart 1": after.backlog,
      "conversations half-way at restart 1": MID_FLOW.length,
      "keys before / after restart 1": `${before.keys} / ${after.keys}`,
      "orders in the stream through restart 2": LOAD_ORDERS,
      "client retries (place / submit) during outages": `${failures.place} / ${failures.submit}`,
      "orders lost": lost.length,
      "half-way conversations completed": midRefs.length,
      "notifications dead-lettered": dead.length,
      ...auditFigures(result),
      ...secretFigures(scan),
      // Issue 25: every debit booked once, whatever the outage did to its answer (drift 0).
      ...(await expectNoDrift(app.books)),
    });
    expect(lost).toEqual([]);
    expect(midRefs.every((r) => r !== "")).toBe(true);
    expect(dead).toEqual([]);
    expect(problems(result)).toEqual({});
    expect(scan.leaks).toEqual([]);
  });
});
