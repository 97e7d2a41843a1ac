import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { MOBILE_FLOW } from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { type Summary, summarize } from "./lib/stats.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * User-felt latency, the product as `npm start` builds it with workers on (the bot long-polls the
 * Bot API emulator, the notifier and the webhook route run as in production), on Redis:
 *
 *  1. Tap on Confirm -> the receipt on screen: N users walk the mobile top-up to the confirm
 *     screen (untimed), then all tap Confirm at once; from the tap to the receipt message in the
 *     chat. The execute goes to the embedded sandbox in this process (answering at once), so
 *     this is the product's own time plus a loopback round trip.
 *  2. Final webhook -> push sent: the orders of step 1 are made final at the sandbox at a steady
 *     rate, each for a different chat; from the sandbox's status change (it sends the encrypted
 *     webhook at once) to the final push in the chat: delivery, decrypt, the confirming status
 *     query, the compare-and-set, the outbox, the notifier's receipt edit and push, all included.
 */

const RECEIPT = /Order \d+/;
const FINAL_PUSH = /^(?:✅|❌) Order (\d+) (succeeded|failed)\./;

export interface LatencyOut {
  users: number;
  rounds: number;
  confirmToReceiptMs: Summary;
  webhooksPerSecond: number;
  webhooks: number;
  webhookToPushMs: Summary;
  /** Of which: until the order is stored final (delivery, decrypt, confirming query, write). */
  webhookToFinalMs: Summary;
  /** And from the order stored final to the push in the chat (outbox, notifier, pacer, send). */
  finalToPushMs: Summary;
  pushesLate: number;
}

export async function runLatency(): Promise<LatencyOut> {
  const users = intEnv("BENCH_LATENCY_USERS", 100);
  const rounds = intEnv("BENCH_LATENCY_ROUNDS", 3);
  const rate = intEnv("BENCH_LATENCY_WEBHOOKS_PER_SECOND", 20);
  const prefix = benchPrefix("latency");
  const system = await startBenchSystem({ prefix, workers: true });
  try {
    const emu = system.emulator;
    const sandbox = system.sandbox;
    if (!emu || !sandbox)
      throw new Error("the latency benchmark needs the embedded emulator and sandbox");
    const token = system.config.sandbox.token;

    // 1. Confirm -> receipt, all users of a round at once.
    const confirm: number[] = [];
    const steps = MOBILE_FLOW.slice(0, -1);
    const tapConfirm = MOBILE_FLOW.at(-1)!;
    for (let round = 0; round < rounds; round++) {
      // Numbers ending in 0000 fail at the sandbox: start at 1.
      const ids = Array.from({ length: users }, (_, i) => 7_300_001 + round * users + i);
      for (const id of ids) emu.users.upsert(id, { first_name: `Lat${id}` });
      await Promise.all(
        ids.map(async (id) => {
          for (const step of steps) {
            step.act(emu, id);
            await emu.waitForBotMessage(id, step.expect, { timeoutMs: 60_000 });
          }
        }),
      );
      await sleep(500); // let the walk's tail settle so the taps start together
      const times = await Promise.all(
        ids.map(async (id) => {
          const t0 = performance.now();
          tapConfirm.act(emu, id);
          await emu.waitForBotMessage(id, RECEIPT, { timeoutMs: 60_000 });
          return performance.now() - t0;
        }),
      );
      confirm.push(...times);
    }
    // Every order is now queued at the sandbox (its timers are an hour long in the benchmark).
    await sleep(2_000);
    // The number each user typed is 984 followed by the user id (mobileNumberOf): the chat.
    const finals = sandbox
      .transactions(token)
      .filter((t) => t.status === "queued" || t.status === "pending")
      .map((t) => ({ tx: t.transactionId, chatId: Number(t.connectionNo.slice(3)) }));

    // 2. Final webhooks at a steady rate, one per chat.
    const gapMs = 1000 / rate;
    const start = performance.now();
    const waits = finals.map(async (o, i) => {
      const ahead = start + i * gapMs - performance.now();
      if (ahead > 0) await sleep(ahead);
      const t0 = performance.now();
      const wallT0 = Date.now();
      const r = sandbox.forceStatus(token, o.tx, "success");
      if (!r.ok) throw new Error(r.message);
      const m = await emu.waitForBotMessage(o.chatId, FINAL_PUSH, { timeoutMs: 120_000 });
      const ms = performance.now() - t0;
      return { ms, wallT0, pushedAt: wallT0 + ms, reference: FINAL_PUSH.exec(m.text)?.[1] };
    });
    const pushed = await Promise.all(waits);
    const push = pushed.map((p) => p.ms);
    // The order's history says when it was stored final (whole milliseconds of the same clock).
    const split = await Promise.all(
      pushed.map(async (p) => {
        const order = p.reference ? await system.orders.get(p.reference) : null;
        const at = order?.history.find((h) => h.status === "success")?.at;
        return at === undefined ? undefined : { toFinal: at - p.wallT0, toPush: p.pushedAt - at };
      }),
    );
    const known = split.filter((x) => x !== undefined);
    return {
      users,
      rounds,
      confirmToReceiptMs: summarize(confirm),
      webhooksPerSecond: rate,
      webhooks: push.length,
      webhookToPushMs: summarize(push),
      webhookToFinalMs: summarize(known.map((x) => x.toFinal)),
      finalToPushMs: summarize(known.map((x) => x.toPush)),
      pushesLate: push.filter((ms) => ms > 250).length,
    };
  } finally {
    await system.stop();
    await deleteKeys(prefix);
  }
}

childMain(import.meta.url, runLatency);
