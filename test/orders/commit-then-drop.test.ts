import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFinal } from "../../src/orders/model.ts";
import {
  ordersOnRedis,
  outboxOf,
  reconcilerOnRedis,
  type SandboxAggregator,
  startSandboxAggregator,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Acceptance: the sandbox commits every execute and drops the connection ("commit then drop"). The
 * client cannot know what happened; every order must still end final through the reconciler, with
 * one debit per reference and no second execute request for any reference.
 */

const TOKEN = "ctd-token";
const N = 100;

describe("commit then drop on 100 executes", () => {
  const r = testRedis("ctd");
  let aggregator: SandboxAggregator;
  const executeRequests = new Map<string, number>();

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: 100_000_000,
      delays: { toPendingMs: 20, toFinalMs: 40 },
      faults: { [TOKEN]: { commitThenDrop: 1 } },
      maxRetries: 1,
      // Count execute requests as they reach the provider, by reference.
      front: async (req, env, sandbox) => {
        if (req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute")) {
          const body = (await req.clone().json()) as { reference_no?: unknown };
          const ref = String(body.reference_no);
          executeRequests.set(ref, (executeRequests.get(ref) ?? 0) + 1);
        }
        return sandbox.app.fetch(req, env);
      },
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("ends every order final, one debit and one execute request per reference", async () => {
    const { client } = aggregator;
    const orders = ordersOnRedis(r, { accessMode: "staff", provider: client });

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
      reconcilerOnRedis(
        { redis, prefix: r.prefix },
        {
          orders: ordersOnRedis(
            { redis, prefix: r.prefix },
            { accessMode: "staff", provider: client },
          ),
          provider: client,
          maxAgeMs: 3_600_000,
        },
      ),
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
    const ledger = aggregator.sandbox.ledger(TOKEN);
    const perRef = new Map<string, number>();
    for (const row of ledger) perRef.set(row.referenceNo, (perRef.get(row.referenceNo) ?? 0) + 1);
    expect(perRef.size).toBe(N);
    expect([...perRef.values()].every((c) => c === 1)).toBe(true);
    expect(ledger.every((row) => row.debitPaisa > 0)).toBe(true);

    // The outbox holds exactly one final notification per order.
    const notes = await outboxOf(r);
    for (const ref of refs) {
      const finalsFor = notes.filter(
        (n) => n.kind !== "complaint" && n.reference === ref && isFinal(n.status),
      );
      expect(finalsFor).toHaveLength(1);
    }
  });
});
