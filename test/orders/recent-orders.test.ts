import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createLogger } from "../../src/logger.ts";
import { recentOrders } from "../../src/orders/recent.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import type { StatusResult } from "../../src/provider/schemas.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { createWebhookRoutes } from "../../src/webhook/routes.ts";
import { mobileInput, placedOrder, testRedis } from "../support/orders.ts";

/**
 * The orders a process last wrote or read serve as compare-and-set starting points
 * (src/orders/recent.ts): on real Redis, two order services on two connections stand for two
 * processes sharing the store. What one process remembers may be behind what the other wrote: it
 * may cost a retry, never a lost, wrong or doubled step.
 */

const SECRET = "whsec-recent-0123456789";

/**
 * The aggregator, as far as these tests need it: execute answers "queued"; a status query counts
 * itself, lets `whileOut` act while it is out (then forgets it), and answers `value`.
 */
interface StatusScript {
  value: string;
  queries: number;
  whileOut?: () => Promise<unknown>;
}
function provider(status: StatusScript): OrdersProvider {
  return {
    async execute(req) {
      return {
        kind: "accepted",
        referenceNo: req.referenceNo,
        transactionId: `TX-${req.referenceNo}`,
        status: "queued",
        message: "queued",
        amountPaisa: 10_000,
        serviceChargePaisa: 0,
        instantDiscountPaisa: 0,
        debitAmountPaisa: 10_000,
        creditAvailablePaisa: null,
        commissionPaisa: 0,
      };
    },
    async statusByReference(_region, referenceNo): Promise<StatusResult> {
      status.queries++;
      const whileOut = status.whileOut;
      status.whileOut = undefined;
      await whileOut?.();
      return {
        status: status.value,
        transactionId: `TX-${referenceNo}`,
        referenceNo,
        amountPaisa: 10_000,
        timestampMs: null,
        connectionNo: null,
        operator: null,
        packageName: null,
      };
    },
  };
}

/** Plain reads of an order's JSON (`HGET <order> j`) seen by Redis while `work` runs. */
async function orderReadsDuring(monitorFrom: Redis, prefix: string, work: () => Promise<unknown>) {
  const monitor = await monitorFrom.monitor();
  const reads: string[] = [];
  monitor.on("monitor", (_time: string, args: string[]) => {
    const [name, key, field] = args;
    if (name?.toLowerCase() === "hget" && key?.startsWith(prefix) && field === "j") reads.push(key);
  });
  try {
    await work();
    // MONITOR lines trail the replies a little: a PING through it marks the end of what `work` sent.
    await monitorFrom.ping();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    monitor.disconnect();
  }
  return reads;
}

describe("recentOrders (pure)", () => {
  it("keeps the latest word on each order and forgets the oldest orders past its cap", () => {
    const recent = recentOrders(2);
    const a1 = placedOrder({ reference: "1", version: 1 });
    const a2 = placedOrder({ reference: "1", version: 2 });
    recent.remember(a2);
    // Even an older version: after a failover the store itself may be back there.
    recent.remember(a1);
    expect(recent.hint("1")).toBe(a1);
    recent.remember(placedOrder({ reference: "2" }));
    recent.remember(placedOrder({ reference: "3" }));
    expect(recent.hint("1")).toBeUndefined();
    expect(recent.hint("2")?.reference).toBe("2");
    expect(recent.hint(undefined)).toBeUndefined();
    const none = recentOrders(0);
    none.remember(a1);
    expect(none.hint("1")).toBeUndefined();
  });
});

describe("orders remembered by the process that wrote them (Redis, two processes)", () => {
  const r = testRedis("recent-orders");
  const status: StatusScript = { value: "success", queries: 0 };
  const lines: string[] = [];
  const logger = createLogger({
    level: "info",
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  const serviceOn = (redis: Redis) =>
    createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: createRedisOrderStore({ redis, prefix: r.prefix }),
      provider: provider(status),
      logger,
    });
  let a: ReturnType<typeof createOrders>;
  let b: ReturnType<typeof createOrders>;
  let other: Redis;
  beforeAll(() => {
    a = serviceOn(r.redis);
    other = r.connect();
    b = serviceOn(other);
  });
  afterAll(() => r.cleanup());

  const sentBy = async (orders: typeof a) => {
    const placed = await orders.place(mobileInput());
    const sent = await orders.submit(placed.reference);
    expect(sent.status).toBe("queued");
    return sent.reference;
  };
  /** The provider's signed final claim, delivered to `orders`' process's webhook route. */
  const claimAt = async (orders: typeof a, reference: string, claimed: string) => {
    const routes = createWebhookRoutes({
      secret: SECRET,
      orders,
      provider: provider(status),
      logger,
    });
    const data = encryptPayload(SECRET, {
      status: claimed,
      transaction_id: 1,
      order_id: Number(reference),
      amount: "100.00",
      timestamp: "2024-12-21T15:18:00Z",
      details: {},
      package_name: null,
    });
    const res = await routes.request("/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": signature(SECRET) },
      body: JSON.stringify({ data }),
    });
    expect(res.status).toBe(200);
    await routes.settled();
  };
  /** Exactly one "contradicts a final order" line since `lines` was emptied: stored success, claimed failed. */
  const expectOneAlarm = (reference: string) => {
    const alarms = lines.filter((l) => l.includes("provider contradicts a final order"));
    expect(alarms).toHaveLength(1);
    expect(JSON.parse(alarms[0]!)).toMatchObject({
      reference,
      stored: "success",
      claimed: "failed",
    });
  };
  const pending = (reference: string) =>
    ({ reference, source: "webhook", status: "pending", at: Date.now() }) as const;

  it("moves its own order on without reading it first; another process reads it once", async () => {
    const mine = await sentBy(a);
    const theirs = await sentBy(b);
    const reads = await orderReadsDuring(r.connect(), r.prefix, async () => {
      expect((await a.apply(pending(mine))).outcome).toBe("changed");
      expect((await a.apply(pending(theirs))).outcome).toBe("changed");
    });
    expect(reads).toEqual([`${r.prefix}{money}:order:${theirs}`]);
    expect((await b.get(mine))?.status).toBe("pending");
  });

  it("a copy the other process has overtaken costs a retry, never a lost or doubled step", async () => {
    const ref = await sentBy(a); // a remembers it queued
    await b.apply(pending(ref));
    const success = await b.apply({ reference: ref, source: "status", status: "success", at: 1 });
    expect(success.order?.status).toBe("success");
    const version = success.order?.version;

    // a's copy says queued: the late pending and a contradicting failure both meet the real order
    // (the failure is recorded as the aggregator's contradiction, once; the status stays).
    expect((await a.apply(pending(ref))).outcome).toBe("unchanged");
    const late = await a.apply({ reference: ref, source: "status", status: "failed", at: 2 });
    expect(late.outcome).toBe("recorded");
    expect(late.order?.status).toBe("success");
    expect(late.order?.contradicted).toMatchObject({ said: "failed", at: 2 });
    expect(late.order?.version).toBe((version ?? 0) + 1);

    const stored = await b.get(ref);
    expect(stored?.status).toBe("success");
    expect(stored?.version).toBe((version ?? 0) + 1);
    expect(stored?.history.filter((h) => h.status === "pending")).toHaveLength(1);
    expect(stored?.history.filter((h) => h.status === "success")).toHaveLength(1);
  });

  it("'nothing to do' judged on a stale copy is judged again on a fresh read", async () => {
    const ref = await sentBy(a); // a remembers it queued
    await b.apply(pending(ref));
    // Meant only for a pending order: on a's queued copy it would be nothing to do.
    const r2 = await a.apply({
      reference: ref,
      source: "status",
      status: "success",
      at: Date.now(),
      expect: ["pending"],
    });
    expect(r2.outcome).toBe("changed");
    expect((await b.get(ref))?.status).toBe("success");
  });

  it("a claim lands on an order a failover took back under a process that remembers it final", async () => {
    // A failover loses the final write the replica never had: the store holds the order pending
    // again while this process remembers it final. The provider's final claim must still land.
    const ref = await sentBy(a);
    await a.apply(pending(ref));
    const key = `${r.prefix}{money}:order:${ref}`;
    const before = await r.redis.hgetall(key);
    const done = await a.apply({ reference: ref, source: "status", status: "success", at: 1 });
    expect(done.order?.status).toBe("success"); // a remembers it final
    await r.redis.hset(key, "v", before.v!, "j", before.j!); // the write lost at the failover
    expect((await b.get(ref))?.status).toBe("pending");

    status.value = "success";
    await claimAt(a, ref, "success");
    expect((await b.get(ref))?.status).toBe("success");
  });

  it("a final claim replayed to a process whose copy is behind costs no status query", async () => {
    const ref = await sentBy(a); // a remembers it queued
    await b.apply({ reference: ref, source: "status", status: "success", at: 1 });
    const before = status.queries;
    await claimAt(a, ref, "success");
    expect(status.queries).toBe(before);
    expect((await b.get(ref))?.status).toBe("success");
  });

  it("a claim on an order made final while its status query is out still raises the alarm", async () => {
    const ref = await sentBy(a);
    lines.length = 0;
    // The claim says failed, and so does the provider; meanwhile the other process has been told
    // success (the reconciler, an earlier webhook): the order is final with the opposite outcome.
    status.value = "failed";
    status.whileOut = () =>
      b.apply({ reference: ref, source: "status", status: "success", at: Date.now() });
    await claimAt(a, ref, "failed");
    status.value = "success";
    expect((await b.get(ref))?.status).toBe("success");
    expectOneAlarm(ref);
  });

  it("a signed claim against an order the other process made final still raises the alarm", async () => {
    const ref = await sentBy(a); // a remembers it queued
    await b.apply({ reference: ref, source: "status", status: "success", at: 1 });
    lines.length = 0;
    await claimAt(a, ref, "failed");
    expect((await b.get(ref))?.status).toBe("success");
    expectOneAlarm(ref);
  });
});
