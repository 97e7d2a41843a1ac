import { decryptionKey, decryptWithKey, signatureVerifier } from "../src/webhook/codec.ts";
import { parseWebhookPayload } from "../src/webhook/payload.ts";
import { envelopeData } from "../src/webhook/routes.ts";
import { startProfile, stopProfile } from "./lib/profiler.ts";
import { serveHelper } from "./lib/rpc.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * The server side of the webhook benchmark, in a process of its own (the load generator must not
 * share its event loop): the whole product from startSystem, workers off, with extra routes, the
 * baseline and two floors, mounted on the SAME Hono app and served by the same @hono/node-server
 * instance: POST /bench/bare answers {"ok":true} without reading the body;
 * POST /bench/floor reads the body and appends it to a capped Redis stream before answering, the
 * least any webhook that persists and queues before its 200 can do (one Redis write, no checks);
 * POST /bench/checked adds the checks the spec requires before anything is stored (signature,
 * envelope, decrypt, payload schema) with the product's own functions: the cheapest design that
 * honours the spec, an inbox written once per webhook with the orders updated later.
 */

const prefix = process.env.BENCH_PREFIX;
if (!prefix) throw new Error("BENCH_PREFIX is required");

// The provider (a sandbox in the load generator's process) is reached over loopback, as a real
// aggregator would be: only the client side of the confirming status queries is this process's work.
const env: Record<string, string> = {};
for (const name of ["PROVIDER_URL", "PROVIDER_TOKEN", "WEBHOOK_SECRET", "WEBHOOK_CONFIRM_FINAL"]) {
  const value = process.env[`BENCH_${name}`];
  if (value) env[name] = value;
}
const started = startBenchSystem({ prefix, env });
const ready = started.then((system) => {
  system.app.post("/bench/bare", (c) => c.json({ ok: true }));
  const redis = system.redis;
  if (!redis) throw new Error("the webhook benchmark needs Redis");
  system.app.post("/bench/floor", async (c) => {
    const body = await c.req.text();
    await redis.xadd(`${prefix}floor`, "MAXLEN", "~", "1000", "*", "b", body);
    return c.json({ ok: true });
  });
  const { secret, keyMode } = system.config.webhook;
  const signatureOk = signatureVerifier(secret);
  const key = decryptionKey(secret, keyMode);
  system.app.post("/bench/checked", async (c) => {
    const body = await c.req.text();
    const data = signatureOk(c.req.header("x-signature")) ? envelopeData(body) : null;
    const payload = data === null ? null : parseWebhookPayload(decryptWithKey(key, data));
    if (!payload) return c.json({ ok: false }, 400);
    await redis.xadd(`${prefix}checked`, "MAXLEN", "~", "1000", "*", "p", JSON.stringify(payload));
    return c.json({ ok: true });
  });
});

serveHelper(
  ready.then(() => undefined),
  {
    async info() {
      const system = await started;
      return {
        url: system.url,
        webhookPath: system.config.webhook.path,
        secret: system.config.webhook.secret,
        keyMode: system.config.webhook.keyMode,
        confirmFinal: system.config.webhook.confirmFinalWithStatusQuery,
      };
    },
    cpu() {
      const u = process.cpuUsage();
      return { cpuMs: (u.user + u.system) / 1000, rss: process.memoryUsage().rss };
    },
    profileStart: () => startProfile(),
    profileStop: (name) => stopProfile(String(name)),
    async settle() {
      const system = await started;
      await system.webhook.settled();
    },
    async stop() {
      const system = await started;
      await system.stop();
    },
  },
);
