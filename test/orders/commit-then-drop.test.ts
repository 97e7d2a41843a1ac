import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../dev/sandbox/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLease } from "../../src/orders/lease.ts";
import { isFinal, type Notification, notificationSchema } from "../../src/orders/model.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createProviderClient, type ProviderClient } from "../../src/provider/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import {
  mobileInput,
  placeAndSubmit,
  serveFetch,
  testRedis,
  waitUntil,
} from "../support/orders.ts";

/**
 * Acceptance: the sandbox commits every execute and drops the connection ("commit then drop"). The
 * client cannot know what happened; every order must still end final through the reconciler, with
 * one debit per reference and no second execute request for any reference.
 */

const TOKEN = "ctd-token";
const N = 100;

describe("commit then drop on 100 executes", () => {
  const r = testRedis("ctd");
  let sandbox: Sandbox;
  let server: { url: string; close(): Promise<void> };
  let client: ProviderClient;
  const executeRequests = new Map<string, number>();

  beforeAll(async () => {
    sandbox = createSandbox({
      accounts: [{ token: TOKEN, balancePaisa: 100_000_000 }],
      delays: { toPendingMs: 20, toFinalMs: 40 },
      faults: { [TOKEN]: { commitThenDrop: 1 } },
      rateLimitPerSecond: 0,
    });
    // Count execute requests as they reach the provider, by reference.
    server = await serveFetch(async (req, env) => {
      if (req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute")) {
        const body = (await req.clone().json()) as { reference_no?: unknown };
        const ref = String(body.reference_no);
        executeRequests.set(ref, (executeRequests.get(ref) ?? 0) + 1);
      }
      return sandbox.app.fetch(req, env);
    });
    client = createProviderClient({
      baseUrl: server.url,
      token: TOKEN,
      executeTimeoutMs: 2_000,
      lookupTimeoutMs: 2_000,
      maxRetries: 1,
    });
  });

  afterAll(async () => {
    await client.close();
    sandbox.close();
    await server.close();
    await r.cleanup();
  });

  it("ends every order final, one debit and one execute request per reference", async () => {
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: client,
    });

    // Numbers ending 0000 fail at the sandbox; the rest succeed.
    const inputs = Array.from({ length: N }, (_, i) =>
      mobileInput({
        connectionNo: i % 10 === 0 ? `984${String(i).padStart(3, "0")}0000` : `98412${20_000 + i}`,
      }),
    );
    const submitted = await Promise.all(inputs.map((input) => placeAndSubmit(orders, input)));
    expect(submitted.every((o) => o.status === "unknown")).toBe(true);

    // Two processes run the reconciler on one Redis; the lease lets one work per tick.
    const reconcilers = [r.redis, r.connect()].map((redis) =>
      createReconciler({
        orders: createOrders({
          categories: CATEGORY_MODULES,
          accessMode: "staff",
          store: createRedisOrderStore({ redis, prefix: r.prefix }),
          provider: client,
        }),
        provider: client,
        lease: createRedisLease(redis, r.prefix),
        intervalMs: 1,
        minAgeMs: 0,
        maxAgeMs: 3_600_000,
        executeTimeoutMs: 2_000,
        adminChatIds: [],
      }),
    );
    const refs = submitted.map((o) => o.reference);
    await waitUntil(
      async () => {
        await Promise.all(reconcilers.map((rec) => rec.runOnce()));
        const now = await Promise.all(refs.map((ref) => orders.get(ref)));
        return now.every((o) => o && isFinal(o.status));
      },
      "every order final",
      { timeoutMs: 15_000, intervalMs: 30 },
    );

    const finals = await Promise.all(refs.map((ref) => orders.get(ref)));
    const failed = finals.filter((o) => o?.status === "failed");
    expect(failed).toHaveLength(N / 10);
    expect(failed.every((o) => o?.connectionNo.endsWith("0000"))).toBe(true);
    expect(finals.filter((o) => o?.status === "success")).toHaveLength(N - failed.length);

    // One execute request per reference, never a second one.
    expect(executeRequests.size).toBe(N);
    expect([...executeRequests.values()].every((count) => count === 1)).toBe(true);
    expect(new Set(executeRequests.keys())).toEqual(new Set(refs));

    // One debit per reference in the sandbox ledger.
    const ledger = sandbox.ledger(TOKEN);
    const perRef = new Map<string, number>();
    for (const row of ledger) perRef.set(row.referenceNo, (perRef.get(row.referenceNo) ?? 0) + 1);
    expect(perRef.size).toBe(N);
    expect([...perRef.values()].every((c) => c === 1)).toBe(true);
    expect(ledger.every((row) => row.debitPaisa > 0)).toBe(true);

    // The outbox holds exactly one final notification per order.
    const entries = await r.redis.xrange(keyspace(r.prefix).outbox, "-", "+");
    const notes: Notification[] = entries.map(([, f]) =>
      notificationSchema.parse(JSON.parse(f[1] ?? "")),
    );
    for (const ref of refs) {
      const finalsFor = notes.filter((n) => n.reference === ref && isFinal(n.status));
      expect(finalsFor).toHaveLength(1);
    }
  });
});
