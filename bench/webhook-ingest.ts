import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import autocannon, { type AutocannonResult } from "autocannon";
import { Hono } from "hono";
import { createSandbox } from "../dev/sandbox/index.ts";
import { createRedisOrderStore } from "../src/orders/redis-store.ts";
import {
  decryptionKey,
  decryptWithKey,
  encryptPayload,
  type KeyMode,
  signature,
  signatureVerifier,
} from "../src/webhook/codec.ts";
import { parseWebhookPayload } from "../src/webhook/payload.ts";
import { envelopeData } from "../src/webhook/routes.ts";
import { childMain } from "./lib/child.ts";
import { compiledServer } from "./lib/compiled.ts";
import { intEnv, listEnv } from "./lib/env.ts";
import { benchOrder, benchReference, benchTransactionId, seedOrders } from "./lib/orders.ts";
import { profileWanted } from "./lib/profiler.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { startHelper } from "./lib/rpc.ts";

/**
 * Webhook ingest: the product's provider webhook route (size cap, X-Signature check, envelope,
 * AES-256-CBC decrypt, zod payload, orders.apply through the Redis order store's Lua
 * compare-and-set, outbox XADD) under autocannon, against a bare Hono route answering JSON,
 * mounted on the same app and served by the same @hono/node-server in the same process. The
 * server runs in its own process; autocannon runs here, in another one. A second reference, the
 * floor, is measured beside them: the same body read and appended to a Redis stream, nothing else.
 * It is what a webhook that persists and queues before answering costs at the very least on this
 * machine. A third, "checked", adds the product's signature check, decrypt and payload schema to
 * the floor: an inbox design that stores each verified event once and updates orders later. Both
 * show how much of the distance to the bare route any implementation could close.
 *
 * Every request carries a freshly encrypted event for an order that exists in Redis:
 *  - 80%: "pending" for an order in "queued" -> status change, history, outbox entry (one Lua write);
 *  - 10%: a redelivered "pending" the order already has -> read, recognised as a duplicate, no write;
 *  - 10%: "success" for a pending order -> with WEBHOOK_CONFIRM_FINAL on (the default) the claim is
 *    recorded (one write) and answered 200; the confirming status query runs AFTER the answer,
 *    against the provider: a sandbox served from THIS process on loopback (PROVIDER_URL), so only
 *    the client side of the query is the product's work, as in production. The sandbox never saw
 *    the seeded orders and answers "not found"; the claim is then recorded once more for the
 *    reconciler: about the cost of an agreeing answer (one round trip, one write). The server's
 *    CPU per request is read after those confirmations settle; autocannon's latency is the
 *    provider's view, the time to the 200.
 */

const SERVER = fileURLToPath(new URL("./webhook-server.ts", import.meta.url));
const FINAL_BASE = 50_000_000;
const DUP_BASE = 90_000_000;
const DUP_ORDERS = 100;

type Route = "bare" | "floor" | "checked" | "product";
const ROUTE_PATH = {
  bare: "/bench/bare",
  floor: "/bench/floor",
  checked: "/bench/checked",
} as const;

export interface LoadRun {
  route: Route;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server process CPU per answered request (background confirmations included). */
  serverCpuUsPerRequest: number;
}

interface ServerInfo {
  url: string;
  webhookPath: string;
  secret: string;
  keyMode: KeyMode;
  confirmFinal: boolean;
}

export async function runWebhookIngest() {
  // The first level is the headline and its pairs; the last one the growth figure (200 between
  // them was a reference only: BENCH_WEBHOOK_CONNECTIONS=50,200,800 brings it back).
  const levels = listEnv("BENCH_WEBHOOK_CONNECTIONS", [50, 800]);
  const seconds = intEnv("BENCH_WEBHOOK_SECONDS", 10);
  const warmupSeconds = intEnv("BENCH_WEBHOOK_WARMUP_SECONDS", 3);
  const prefix = benchPrefix("webhook");
  const providerToken = "bench-provider-token";
  const webhookSecret = randomBytes(16).toString("hex");
  const sandbox = createSandbox({ accounts: [{ token: providerToken }], rateLimitPerSecond: 0 });
  const providerApp = new Hono().route("/api/v1", sandbox.app);
  const providerServer = serve({ fetch: providerApp.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => providerServer.once("listening", () => resolve()));
  const providerUrl = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}/api/v1`;
  // Compiled as `npm start` runs the product (lib/compiled.ts), floors and product alike;
  // BENCH_WEBHOOK_RUNNER=tsx serves it under tsx instead, for comparison.
  const tsx = process.env.BENCH_WEBHOOK_RUNNER === "tsx";
  const server = await startHelper(
    tsx ? SERVER : compiledServer(SERVER),
    {
      BENCH_PREFIX: prefix,
      BENCH_PROVIDER_URL: providerUrl,
      BENCH_PROVIDER_TOKEN: providerToken,
      BENCH_WEBHOOK_SECRET: webhookSecret,
    },
    [],
    { tsx },
  );
  const redis = connectRedis();
  try {
    const info = await server.call<ServerInfo>("info");
    const store = createRedisOrderStore({ redis, prefix });
    const headers = {
      "content-type": "application/json",
      "x-signature": signature(info.secret),
    };
    const body = (payload: Record<string, unknown>) =>
      JSON.stringify({ data: encryptPayload(info.secret, payload, { mode: info.keyMode }) });
    const event = (i: number, status: string) => ({
      status,
      transaction_id: Number(benchTransactionId(i)),
      order_id: benchReference(i),
      amount: 150,
      timestamp: new Date().toISOString(),
      details: { connection_no: `98412${String(i % 100_000).padStart(5, "0")}`, operator: "NTC" },
    });

    // Orders: fresh "queued" ones for pending events, "pending" ones for final claims, and a few
    // "pending" ones whose pending event is redelivered over and over.
    let seededQueued = 0;
    let seededFinal = 0;
    let usedQueued = 0;
    let usedFinal = 0;
    let wrapped = 0;
    let sent = 0;
    await seedOrders(store, DUP_BASE, DUP_BASE + DUP_ORDERS, (i) => benchOrder(i, "pending"));
    const seedFor = async (requests: number) => {
      const queued = usedQueued + Math.ceil(requests * 0.8);
      const finals = usedFinal + Math.ceil(requests * 0.1);
      if (queued > seededQueued) {
        await seedOrders(store, seededQueued, queued, (i) => benchOrder(i, "queued"));
        seededQueued = queued;
      }
      if (finals > seededFinal) {
        await seedOrders(store, FINAL_BASE + seededFinal, FINAL_BASE + finals, (i) =>
          benchOrder(i, "pending"),
        );
        seededFinal = finals;
      }
    };
    const nextProductBody = () => {
      const k = sent++ % 10;
      if (k === 8) return body(event(DUP_BASE + (sent % DUP_ORDERS), "pending"));
      if (k === 9) {
        if (usedFinal >= seededFinal) wrapped++;
        return body(event(FINAL_BASE + (usedFinal++ % seededFinal), "success"));
      }
      if (usedQueued >= seededQueued) wrapped++;
      return body(event(usedQueued++ % seededQueued, "pending"));
    };
    const bareBody = body(event(DUP_BASE, "pending"));
    const bareBodyFresh = () => body(event(DUP_BASE, "pending"));

    const load = async (route: Route, connections: number, duration: number): Promise<LoadRun> => {
      const path = route === "product" ? info.webhookPath : ROUTE_PATH[route];
      const cpu0 = await server.call<{ cpuMs: number }>("cpu");
      const res: AutocannonResult = await autocannon({
        url: `${info.url}${path}`,
        connections,
        duration,
        timeout: 10,
        requests: [
          {
            method: "POST",
            path,
            headers,
            body: bareBody,
            // Fresh encryptions cost the load generator too: both floors pay the same as "product",
            // so that the three run at comparable rates.
            ...(route === "product"
              ? { setupRequest: (req) => ({ ...req, body: nextProductBody() }) }
              : route === "checked" || route === "floor"
                ? { setupRequest: (req) => ({ ...req, body: bareBodyFresh() }) }
                : {}),
          },
        ],
      });
      await server.call("settle");
      const cpu1 = await server.call<{ cpuMs: number }>("cpu");
      const answered = res["2xx"] + res.non2xx;
      return {
        route,
        connections,
        seconds: res.duration,
        requests: res["2xx"],
        requestsPerSecond: res["2xx"] / res.duration,
        latencyMs: {
          mean: res.latency.mean,
          p50: res.latency.p50,
          p90: res.latency.p90,
          p99: res.latency.p99,
          max: res.latency.max,
        },
        non2xx: res.non2xx,
        errors: res.errors,
        timeouts: res.timeouts,
        serverCpuUsPerRequest: answered
          ? ((cpu1.cpuMs - cpu0.cpuMs) * 1000) / answered
          : Number.NaN,
      };
    };

    // The spec's checks alone, with the product's functions on the bodies the product receives:
    // CPU per request, no server and no load generator around them (the "checked floor minus
    // floor" of the load runs also carries the two runs' different request rates).
    const checksCpuUs = (() => {
      const bodies = Array.from({ length: 1_000 }, (_, i) => body(event(DUP_BASE + i, "pending")));
      const signatureOk = signatureVerifier(info.secret);
      const key = decryptionKey(info.secret, info.keyMode);
      const check = (b: string) => {
        const data = signatureOk(headers["x-signature"]) ? envelopeData(b) : null;
        return data === null ? null : parseWebhookPayload(decryptWithKey(key, data));
      };
      for (let i = 0; i < 5_000; i++) check(bodies[i % 1_000]!);
      const n = 50_000;
      const t0 = process.cpuUsage();
      let ok = 0;
      for (let i = 0; i < n; i++) if (check(bodies[i % 1_000]!)) ok++;
      const t = process.cpuUsage(t0);
      if (ok !== n) throw new Error(`the checks refused ${n - ok} good webhooks`);
      return (t.user + t.system) / n;
    })();

    // Warm both paths (JIT, connection pools, Lua script cache), then measure each level.
    let expectedRate = intEnv("BENCH_WEBHOOK_EXPECTED_RPS", 4000);
    await seedFor(expectedRate * warmupSeconds * 1.5);
    await load("bare", levels[0] ?? 50, warmupSeconds);
    await load("floor", levels[0] ?? 50, warmupSeconds);
    await load("checked", levels[0] ?? 50, warmupSeconds);
    await load("product", levels[0] ?? 50, warmupSeconds);
    const runs: Array<{ bare: LoadRun; floor: LoadRun; checked: LoadRun; product: LoadRun }> = [];
    for (const connections of levels) {
      const profiledLoad = async (route: Route, name: string) => {
        if (profileWanted(name)) await server.call("profileStart");
        try {
          return await load(route, connections, seconds);
        } finally {
          if (profileWanted(name)) await server.call("profileStop", name);
        }
      };
      const bare = await load("bare", connections, seconds);
      const floor = await profiledLoad("floor", `webhook-floor-${connections}`);
      const checked = await profiledLoad("checked", `webhook-checked-${connections}`);
      await seedFor(expectedRate * seconds * 1.5);
      const name = `webhook-${connections}`;
      if (profileWanted(name)) await server.call("profileStart");
      const product = await load("product", connections, seconds);
      if (profileWanted(name)) await server.call("profileStop", name);
      expectedRate = Math.max(expectedRate, product.requestsPerSecond);
      runs.push({ bare, floor, checked, product });
      console.error(
        `[webhook] ${connections} conns: product ${product.requestsPerSecond.toFixed(0)} req/s p99 ${product.latencyMs.p99} ms (non2xx ${product.non2xx}); floor ${floor.requestsPerSecond.toFixed(0)} req/s; checked ${checked.requestsPerSecond.toFixed(0)} req/s; bare ${bare.requestsPerSecond.toFixed(0)} req/s p99 ${bare.latencyMs.p99} ms`,
      );
    }
    // Issue 31 target 1, "in 5 runs of 5": the floor and the product in turn, BENCH_WEBHOOK_PAIRS
    // times at the first level, each pair seconds apart so both see the same load; each pair's
    // ratio is judged on its own.
    const pairs: Array<{ floor: LoadRun; product: LoadRun }> = [];
    const pairCount = intEnv("BENCH_WEBHOOK_PAIRS", 5);
    const pairSeconds = intEnv("BENCH_WEBHOOK_PAIR_SECONDS", 5);
    const pairLevel = levels[0] ?? 50;
    for (let i = 0; i < pairCount; i++) {
      const floor = await load("floor", pairLevel, pairSeconds);
      await seedFor(expectedRate * pairSeconds * 1.5);
      const product = await load("product", pairLevel, pairSeconds);
      pairs.push({ floor, product });
      console.error(
        `[webhook] pair ${i + 1}/${pairCount} at ${pairLevel} conns: product ${product.serverCpuUsPerRequest.toFixed(0)} us/req, floor ${floor.serverCpuUsPerRequest.toFixed(0)} us/req`,
      );
    }
    return {
      runs,
      pairs,
      checksCpuUs,
      ordersSeeded: seededQueued + seededFinal + DUP_ORDERS,
      productRequestsSent: sent,
      wrappedRequests: wrapped,
      confirmFinal: info.confirmFinal,
    };
  } finally {
    await server.close();
    await sandbox.close();
    await new Promise<void>((resolve) => providerServer.close(() => resolve()));
    redis.disconnect();
    await deleteKeys(prefix);
  }
}

childMain(import.meta.url, runWebhookIngest);
