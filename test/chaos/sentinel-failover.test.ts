import type { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/model.ts";
import { audit, auditFigures, problemStories, problems } from "../support/chaos/audit.ts";
import { pool, report, secretNeedles, waitUntil } from "../support/chaos/env.ts";
import {
  everyOrderFinal,
  everyPushDelivered,
  orderStream,
  patientMobileOrder,
} from "../support/chaos/flows.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { MASTER_NAME, type SentinelSetup, startSentinelSetup } from "../support/chaos/sentinel.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { ChatUser } from "../support/chat.ts";
import { placeAndSubmit as placeThenSubmit } from "../support/orders.ts";

/**
 * Redis under Sentinel: a primary, a replica, three Sentinels (quorum 2), all processes of the
 * test's own. The product (REDIS_SENTINELS, REDIS_WAIT_REPLICAS=1) takes orders from a stream of
 * API callers and from chat users through the Bot API emulator; the primary is killed with
 * SIGKILL mid-traffic, a replica promoted. No order may be lost or executed twice, the books must
 * agree, every order must end final and be pushed exactly once (what the README promises for a
 * failover the pushing process survives: the sending lock and the sent marker are WAITed for, so
 * neither the marker nor the order's final status can vanish after a push); a second copy is
 * allowed only where the product counted a possible duplicate (notify_push_possible_duplicates_total:
 * a send whose answer was lost, on an order without a receipt). The service must answer again
 * (health 200 and a new order accepted): how long that took is printed.
 *
 * Before the WAITs, 1 run in 10 pushed 4 orders twice, one of them with the other outcome (the
 * order's final status was lost with the old primary after its push).
 *
 * One replica and WAIT 1: a write WAIT acknowledged is on the only node that can be promoted.
 * (With two replicas and WAIT 1 the Sentinels may promote the one that had not acknowledged it,
 * and an order the caller had been told about vanished: seen while writing this test.) The new
 * primary has no replica until the killed node is back, so the test restarts it at once, as its
 * supervisor would; the Sentinels turn it into the new primary's replica, and orders are taken
 * again once it acknowledges.
 */

/** A counter's total over its labels (NaN when the product does not register it). */
async function counterTotal(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  return metric ? (await metric.get()).values.reduce((a, v) => a + v.value, 0) : Number.NaN;
}

const STREAM_USERS = 12;
const FIRST_STREAM_USER = 640_001;
const STREAM_ORDERS = 90;
const KILL_AFTER = 30;
const CHAT_USERS = Array.from({ length: 5 }, (_, i) => 640_101 + i);
const ORDERS_PER_CHAT = 2;

describe("Redis primary killed under Sentinel", () => {
  let redis: SentinelSetup;
  beforeAll(async () => {
    redis = await startSentinelSetup({ replicas: 1 });
  }, 90_000);
  afterAll(async () => {
    await redis?.destroy();
  });
  // Registered after the Sentinel setup: started once it runs, stopped before it is destroyed.
  const stack = useChaosStack("sentinel-failover", () => ({
    extra: {
      REDIS_URL: "",
      REDIS_SENTINELS: redis.sentinelsEnv,
      REDIS_SENTINEL_NAME: MASTER_NAME,
      REDIS_WAIT_REPLICAS: "1",
      REDIS_WAIT_TIMEOUT_MS: "500",
    },
    deleteKeys: false,
  }));
  const { secrets, logs } = stack;
  const { input, placeAndSubmit } = orderStream({
    app: () => stack.app,
    name: "sentinel",
    firstUser: FIRST_STREAM_USER,
    users: STREAM_USERS,
    attempts: 200,
  });

  const healthy = async () => {
    try {
      return (await fetch(`${stack.app.url}/healthz`)).status === 200;
    } catch {
      return false;
    }
  };

  it("loses no order, executes none twice and answers again after the failover", async () => {
    const { emu, provider, app } = stack;
    for (let u = 0; u < STREAM_USERS; u++) emu.emulator.users.upsert(FIRST_STREAM_USER + u, {});
    const chatUsers = CHAT_USERS.map((id) => new ChatUser(emu.emulator, id));
    const failures = { place: 0, submit: 0 };
    const streamRefs: string[] = [];
    let placed = 0;

    const stream = pool(
      Array.from({ length: STREAM_ORDERS }, (_, i) => i),
      6,
      async (i) => {
        const o = await placeAndSubmit(i, failures);
        placed++;
        streamRefs.push(o.reference);
        return o;
      },
    );
    const known = new Set<string>();
    const chats = Promise.all(
      chatUsers.map(async (u, n) => {
        const refs: string[] = [];
        for (let k = 0; k < ORDERS_PER_CHAT; k++) {
          const r = await patientMobileOrder(
            u,
            `984${String(u.id).slice(-3)}${5 + k}${n}21`,
            "100",
            known,
            {
              deadlineMs: 120_000,
            },
          );
          refs.push(r.reference);
        }
        return refs;
      }),
    );

    // Mid-traffic: kill -9 the primary the Sentinels name.
    await waitUntil(() => placed >= KILL_AFTER, `${KILL_AFTER} stream orders placed`, {
      timeoutMs: 60_000,
    });
    const oldPrimary = await redis.primaryPort();
    const killedAt = Date.now();
    await redis.kill(oldPrimary);
    const newPrimary = await waitUntil(
      async () => {
        const p = await redis.primaryPort().catch(() => 0);
        return p !== 0 && p !== oldPrimary ? p : 0;
      },
      "a replica promoted",
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    const promotedMs = Date.now() - killedAt;
    // Its supervisor starts the killed node again (same directory, AOF); the Sentinels demote it.
    await redis.restart(oldPrimary);

    // Answering again: /healthz 200 and a new order placed and accepted by the aggregator.
    let probe = 0;
    let healthyMs = 0;
    const fresh = await waitUntil(
      async () => {
        if (!(await healthy())) return null;
        healthyMs ||= Date.now() - killedAt;
        try {
          const o = await placeThenSubmit(app.orders, input(1_000 + probe, `fresh-${probe++}`));
          return ["queued", "pending", "success"].includes(o.status) ? o : null;
        } catch {
          return null;
        }
      },
      "the service answering again",
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    const answeringMs = Date.now() - killedAt;

    const streamed = await stream;
    const chatRefs = (await chats).flat();
    // Probes that threw may still have created orders: they are audited like any other.
    const freshOrders = (
      await Promise.all(
        Array.from({ length: probe }, (_, p) => app.orders.store.getByIdempotencyKey(`fresh-${p}`)),
      )
    ).filter((o): o is Order => o !== null);
    expect(freshOrders.map((o) => o.reference)).toContain(fresh.reference);

    await everyOrderFinal(app);
    const allRefs = [
      ...streamed.map((o) => o.reference),
      ...chatRefs,
      ...freshOrders.map((o) => o.reference),
    ];
    const chatIds = [
      ...Array.from({ length: STREAM_USERS }, (_, u) => FIRST_STREAM_USER + u),
      ...CHAT_USERS,
    ];
    await everyPushDelivered(app, emu.emulator, chatIds, allRefs.length);

    const stored = await Promise.all(allRefs.map((r) => app.orders.get(r)));
    const lost = allRefs.filter((_, i) => stored[i] === null);
    // Audited: every order of these users, also those whose caller never heard back (a checkout
    // that failed after its order was placed, settled by the reconciler and pushed all the same).
    const everyOrder = new Map<string, Order>();
    for (const id of chatIds)
      for (const o of await app.orders.listByUser(id, 1_000)) everyOrder.set(o.reference, o);
    const result = audit(
      [...everyOrder.values()],
      provider.sandbox.ledger(secrets.providerToken),
      provider.executes,
      emu.emulator,
      chatIds,
    );
    const dead = await app.queue.listDead(100);
    const possibleDuplicates = await counterTotal(
      app.registry,
      "notify_push_possible_duplicates_total",
    );
    const unknownOutcomes = await counterTotal(app.registry, "notify_push_outcome_unknown_total");
    const withheld = await counterTotal(app.registry, "notify_push_withheld_total");
    const scan = logs.scan(secretNeedles(secrets));
    report("Redis primary killed under Sentinel (1 primary, 1 replica, 3 sentinels, WAIT 1)", {
      "primary killed (port) / promoted (port)": `${oldPrimary} / ${newPrimary}`,
      "kill -9 to replica promoted (ms)": promotedMs,
      "kill -9 to /healthz 200 (ms)": healthyMs,
      "kill -9 to a new order accepted, WAIT 1 met again (ms)": answeringMs,
      "stream orders / chat orders / probe orders": `${streamed.length} / ${chatRefs.length} / ${freshOrders.length}`,
      "client retries (place / submit) during the failover": `${failures.place} / ${failures.submit}`,
      "orders audited (every order of these users)": everyOrder.size,
      "orders lost": lost.length,
      "notifications dead-lettered": dead.length,
      "pushes with an unknown outcome / sent again (possible duplicates)": `${unknownOutcomes} / ${possibleDuplicates}`,
      "pushes withheld (their status lost in the failover)": withheld,
      ...auditFigures(result),
      ...secretFigures(scan),
    });
    const found = problems({ ...result, duplicatePushes: [] });
    if (Object.keys(found).length > 0)
      console.log(
        `[chaos story]\n${problemStories(result, [...everyOrder.values()], emu.emulator, logs)}`,
      );
    expect(newPrimary).not.toBe(oldPrimary);
    expect(lost).toEqual([]);
    expect(dead).toEqual([]);
    // Exactly once, but for a push the product counted as a possible duplicate (a send whose
    // answer was lost, under this test's load, on an order without a receipt): README, Reliability.
    expect(found).toEqual({});
    expect(result.duplicatePushes.length).toBeLessThanOrEqual(possibleDuplicates);
    expect(scan.leaks).toEqual([]);
  });
});
