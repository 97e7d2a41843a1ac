import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createSandbox } from "../dev/sandbox/index.ts";
import { orderEventSchema, orderSchema } from "../src/orders/model.ts";
import { createRedisOrderStore } from "../src/orders/redis-store.ts";
import { encryptPayload, signature } from "../src/webhook/codec.ts";
import { intEnv } from "./lib/env.ts";
import { benchOrder, benchReference, benchTransactionId, seedOrders } from "./lib/orders.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * A count, not a timing: how many times zod parses the event (orderEventSchema, apply.ts) and the
 * order (orderSchema) per webhook of webhook-ingest's mix (80 % pending for queued orders, 10 %
 * redelivered pending, 10 % success claims confirmed by a status query that answers "not
 * found"), the product in this process, requests one at a time.
 *
 *   node --import tsx bench/webhook-parses.ts   (BENCH_PARSES_REQUESTS, default 1000)
 */

function counted(schema: { parse: (v: unknown) => unknown }): { n: number } {
  const count = { n: 0 };
  const parse = schema.parse.bind(schema);
  schema.parse = (v: unknown) => {
    count.n++;
    return parse(v);
  };
  return count;
}

async function main() {
  const requests = intEnv("BENCH_PARSES_REQUESTS", 1000);
  const prefix = benchPrefix("webhook-parses");
  const providerToken = "bench-provider-token";
  const secret = randomBytes(16).toString("hex");
  const sandbox = createSandbox({ accounts: [{ token: providerToken }], rateLimitPerSecond: 0 });
  const providerServer = serve({
    fetch: new Hono().route("/api/v1", sandbox.app).fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((r) => providerServer.once("listening", () => r()));
  const port = (providerServer.address() as AddressInfo).port;
  const system = await startBenchSystem({
    prefix,
    env: {
      PROVIDER_URL: `http://127.0.0.1:${port}/api/v1`,
      PROVIDER_TOKEN: providerToken,
      WEBHOOK_SECRET: secret,
    },
  });
  const redis = connectRedis();
  try {
    const store = createRedisOrderStore({ redis, prefix });
    const n = Math.ceil(requests / 10);
    await seedOrders(store, 0, 8 * n, (i) => benchOrder(i, "queued"));
    await seedOrders(store, 8 * n, 10 * n, (i) => benchOrder(i, "pending"));
    const { keyMode, path } = system.config.webhook;
    const events = counted(orderEventSchema);
    const orders = counted(orderSchema);
    for (let sent = 0; sent < requests; sent++) {
      const k = sent % 10;
      const block = Math.floor(sent / 10);
      // 8 in 10 fresh queued orders; the 9th a redelivery of an order already moved to pending.
      const i = k < 8 ? block * 8 + k : k === 8 ? Math.max(0, block * 8 - 1) : 8 * n + block;
      const payload = {
        status: k === 9 ? "success" : "pending",
        transaction_id: Number(benchTransactionId(i)),
        order_id: benchReference(i),
        amount: 150,
        timestamp: new Date().toISOString(),
        details: { connection_no: `98412${String(i % 100_000).padStart(5, "0")}`, operator: "NTC" },
      };
      const res = await fetch(`${system.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-signature": signature(secret) },
        body: JSON.stringify({ data: encryptPayload(secret, payload, { mode: keyMode }) }),
      });
      if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      await res.arrayBuffer();
    }
    await system.webhook.settled();
    console.log(
      `${requests} webhooks: orderEventSchema.parse ${events.n} (${(events.n / requests).toFixed(3)} a webhook), orderSchema.parse ${orders.n} (${(orders.n / requests).toFixed(3)})`,
    );
  } finally {
    await system.stop();
    await sandbox.close();
    await new Promise<void>((r) => providerServer.close(() => r()));
    redis.disconnect();
    await deleteKeys(prefix);
  }
}

await main();
