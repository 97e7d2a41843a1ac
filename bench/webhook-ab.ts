import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { Hono } from "hono";
import { createSandbox } from "../dev/sandbox/index.ts";
import { createRedisOrderStore } from "../src/orders/redis-store.ts";
import { encryptPayload, type KeyMode, signature } from "../src/webhook/codec.ts";
import { intEnv } from "./lib/env.ts";
import { benchOrder, benchReference, benchTransactionId, seedOrders } from "./lib/orders.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { type Helper, startHelper } from "./lib/rpc.ts";

/**
 * Paired A/B of the webhook benchmark (bench/webhook-ingest.ts) for two source trees: each tree's
 * bench/webhook-server.ts compiled by its own scripts/build.mjs and served in a process of its own,
 * both on the same Redis prefix, the same seeded orders and the same provider sandbox. Each round
 * runs floor then product on one side, then on the other (the order alternating by round), so
 * the two sides see the same load within seconds; the verdict is the medians of many rounds.
 *
 *   BENCH_AB_A=/path/to/base BENCH_AB_B=/path/to/branch node --import tsx bench/webhook-ab.ts
 *
 * BENCH_AB_A_CONFIRM_FINAL=false (or _B_) serves that side with WEBHOOK_CONFIRM_FINAL off (final
 * claims trusted, no status query): an experiment that prices the confirmation, never a setting
 * to compare a cut against (the confirmation is the final claims' check).
 *
 * Same mix as webhook-ingest: 80 % pending for queued orders, 10 % redelivered pending, 10 %
 * success claims on pending orders (confirmed by a status query to the sandbox, which answers
 * "not found").
 */

const FINAL_BASE = 50_000_000;
const DUP_BASE = 90_000_000;
const DUP_ORDERS = 100;

interface Info {
  url: string;
  webhookPath: string;
  secret: string;
  keyMode: KeyMode;
}

function compile(tree: string, name: string): string {
  const outdir = `${tree}/bench/results/webhook-ab-${name}-dist`;
  execFileSync(
    process.execPath,
    [`${tree}/scripts/build.mjs`, `${tree}/bench/webhook-server.ts`, outdir],
    { stdio: "inherit" },
  );
  return `${outdir}/webhook-server.js`;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const trees = {
    A: resolve(process.env.BENCH_AB_A ?? "."),
    B: resolve(process.env.BENCH_AB_B ?? "."),
  };
  const rounds = intEnv("BENCH_AB_ROUNDS", 10);
  const seconds = intEnv("BENCH_AB_SECONDS", 4);
  const connections = intEnv("BENCH_AB_CONNECTIONS", 50);
  const prefix = benchPrefix("webhook-ab");
  const providerToken = "bench-provider-token";
  const webhookSecret = randomBytes(16).toString("hex");
  const sandbox = createSandbox({ accounts: [{ token: providerToken }], rateLimitPerSecond: 0 });
  const providerApp = new Hono().route("/api/v1", sandbox.app);
  const providerServer = serve({ fetch: providerApp.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((r) => providerServer.once("listening", () => r()));
  const providerUrl = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}/api/v1`;
  const env = {
    BENCH_PREFIX: prefix,
    BENCH_PROVIDER_URL: providerUrl,
    BENCH_PROVIDER_TOKEN: providerToken,
    BENCH_WEBHOOK_SECRET: webhookSecret,
  };
  const sideEnv = (side: "A" | "B") => {
    const confirm = process.env[`BENCH_AB_${side}_CONFIRM_FINAL`];
    return confirm === undefined ? env : { ...env, BENCH_WEBHOOK_CONFIRM_FINAL: confirm };
  };
  const servers: Record<"A" | "B", Helper> = {
    A: await startHelper(compile(trees.A, "A"), sideEnv("A"), [], { tsx: false }),
    B: await startHelper(compile(trees.B, "B"), sideEnv("B"), [], { tsx: false }),
  };
  const redis = connectRedis();
  const store = createRedisOrderStore({ redis, prefix });
  try {
    const info = await servers.A.call<Info>("info");
    const infoB = await servers.B.call<Info>("info");
    const headers = { "content-type": "application/json", "x-signature": signature(info.secret) };
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
    let seededQueued = 0;
    let seededFinal = 0;
    let usedQueued = 0;
    let usedFinal = 0;
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
      if (k === 9) return body(event(FINAL_BASE + (usedFinal++ % seededFinal), "success"));
      return body(event(usedQueued++ % seededQueued, "pending"));
    };
    const floorBody = () => body(event(DUP_BASE, "pending"));
    const load = async (side: "A" | "B", route: "floor" | "product", duration: number) => {
      const server = servers[side];
      const base = side === "A" ? info : infoB;
      const path = route === "product" ? base.webhookPath : "/bench/floor";
      const cpu0 = await server.call<{ cpuMs: number }>("cpu");
      const res = await autocannon({
        url: `${base.url}${path}`,
        connections,
        duration,
        timeout: 10,
        requests: [
          {
            method: "POST",
            path,
            headers,
            body: floorBody(),
            setupRequest: (req) => ({
              ...req,
              body: route === "product" ? nextProductBody() : floorBody(),
            }),
          },
        ],
      });
      await server.call("settle");
      const cpu1 = await server.call<{ cpuMs: number }>("cpu");
      const answered = res["2xx"] + res.non2xx;
      if (res.non2xx > 0) console.error(`[ab] ${side} ${route}: ${res.non2xx} non-2xx`);
      return { us: ((cpu1.cpuMs - cpu0.cpuMs) * 1000) / answered, rps: answered / res.duration };
    };
    let rate = 2000;
    await seedFor(rate * 3 * 3);
    for (const side of ["A", "B"] as const) {
      await load(side, "floor", 3);
      await load(side, "product", 3);
    }
    const out: Record<"A" | "B", { floor: number[]; product: number[]; ratio: number[] }> = {
      A: { floor: [], product: [], ratio: [] },
      B: { floor: [], product: [], ratio: [] },
    };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
      const line: string[] = [];
      for (const side of order) {
        await seedFor(rate * seconds * 1.5);
        const floor = await load(side, "floor", seconds);
        const product = await load(side, "product", seconds);
        rate = Math.max(rate, product.rps);
        out[side].floor.push(floor.us);
        out[side].product.push(product.us);
        out[side].ratio.push(product.us / floor.us);
        line.push(
          `${side}: product ${product.us.toFixed(0)} floor ${floor.us.toFixed(0)} ratio ${(product.us / floor.us).toFixed(2)}`,
        );
      }
      console.log(`round ${r + 1}: ${line.join(" | ")}`);
    }
    const diff = out.A.product.map((a, i) => (out.B.product[i]! - a) / a);
    const ratioDiff = out.A.ratio.map((a, i) => out.B.ratio[i]! / a);
    for (const side of ["A", "B"] as const) {
      console.log(
        `${side} (${trees[side]}): product median ${median(out[side].product).toFixed(1)} us, floor ${median(out[side].floor).toFixed(1)} us, ratio median ${median(out[side].ratio).toFixed(3)} [${out[side].ratio.map((x) => x.toFixed(2)).join(", ")}]`,
      );
    }
    console.log(
      `B vs A, paired by round: product CPU ${(100 * median(diff)).toFixed(1)} % (median), B cheaper in ${diff.filter((d) => d < 0).length} of ${diff.length}; ratio B/A median ${median(ratioDiff).toFixed(3)}`,
    );
  } finally {
    await servers.A.close();
    await servers.B.close();
    await sandbox.close();
    await new Promise<void>((r) => providerServer.close(() => r()));
    redis.disconnect();
    await deleteKeys(prefix);
  }
}

await main();
