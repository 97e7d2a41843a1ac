import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { waResendKeys } from "../../src/redis/keyspace.ts";
import { lateResender } from "../../src/whatsapp/late-resend.ts";
import {
  createRedisLateResendStore,
  type LateResendStore,
} from "../../src/whatsapp/late-resend-store.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The late resends' worker (review s24-f items 1, 2, 3, 6) over real Redis, two instances where it
 * matters: only a failure of the send itself counts as "nothing went out"; a store error after
 * Meta took the resend never sends it again; each entry's lease is renewed right before its send
 * (a slow batch never shares its tail with another instance); `stop` ends between entries; an
 * entry that cannot be read is removed.
 */
const redis = testRedis("wa-late-worker");
afterAll(() => redis.cleanup());
const quiet = createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) });
const HOUR = 3_600_000;
const T0 = 1_800_000_000_000;

let n = 0;
function stores() {
  n += 1;
  const prefix = `${redis.prefix}${n}:`;
  return {
    prefix,
    store: () => createRedisLateResendStore(redis.connect(), prefix, quiet),
  };
}
const entry = (wamid: string, at: number) => ({
  wamid,
  chatId: 1,
  code: 1,
  at,
  tries: 0,
  uncertain: 0,
});
const sentOnce = (wamid: string) => ({ result: "sent" as const, wamids: [`${wamid}.again`] });

describe("late resends: after Meta took the resend", () => {
  it("a done mark that fails is tried again, never the send", async () => {
    let now = T0;
    const inner = stores().store();
    let failures = 2;
    const owed: LateResendStore = {
      ...inner,
      done: async (w, c) => {
        if (failures-- > 0) throw new Error("READONLY You can't write against a read only replica");
        return inner.done(w, c);
      },
    };
    await owed.owe(entry("w", now));
    const sends: string[] = [];
    const router = {
      resendFailed: async (_c: number, w: string) => {
        sends.push(w);
        return sentOnce(w);
      },
    };
    const r = lateResender({
      owed,
      router,
      now: () => now,
      logger: quiet,
      options: { retryForMs: HOUR },
    });
    for (let i = 0; i < 20; i += 1) {
      await r.runOnce();
      now += 10 * 60_000;
    }
    expect(sends).toEqual(["w"]);
  });

  it("an error no one knows (after the send, say) may have arrived: at most 3 sends, not one a try for 6 h", async () => {
    let now = T0;
    const owed = stores().store();
    await owed.owe(entry("w", now));
    let sends = 0;
    const router = {
      resendFailed: async () => {
        sends += 1;
        throw new Error("CLUSTERDOWN The cluster is down");
      },
    };
    const r = lateResender({
      owed,
      router,
      now: () => now,
      logger: quiet,
      options: { retryForMs: 6 * HOUR },
    });
    while (now < T0 + 7 * HOUR) {
      await r.runOnce();
      now += 60_000;
    }
    expect(sends).toBe(3);
  });
});

describe("late resends: one lease per entry", () => {
  it("a slow batch's tail, claimed by a second instance after the lease, is sent by that one only", async () => {
    let now = T0;
    const world = stores();
    const a = world.store();
    const b = world.store();
    for (let i = 0; i < 5; i += 1) await a.owe(entry(`w${i}`, now));
    const sends: string[] = [];
    const options = { retryForMs: HOUR, leaseMs: 60_000 };
    const fast = {
      resendFailed: async (_c: number, w: string) => {
        sends.push(w);
        return sentOnce(w);
      },
    };
    const other = lateResender({ owed: b, router: fast, now: () => now, logger: quiet, options });
    // Each send takes 40 s (Meta slow, the pacer); the other instance polls during the second.
    const slow = {
      resendFailed: async (_c: number, w: string) => {
        sends.push(w);
        now += 40_000;
        if (sends.length === 2) await other.runOnce();
        return sentOnce(w);
      },
    };
    const first = lateResender({ owed: a, router: slow, now: () => now, logger: quiet, options });
    await first.runOnce();
    expect([...sends].sort()).toEqual(["w0", "w1", "w2", "w3", "w4"]);
  });

  it("stop() ends between entries: the untried ones are given back to another instance", async () => {
    const now = T0;
    const world = stores();
    const a = world.store();
    const b = world.store();
    for (let i = 0; i < 5; i += 1) await a.owe(entry(`w${i}`, now));
    const sends: string[] = [];
    let began!: () => void;
    const started = new Promise<void>((r) => (began = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = {
      resendFailed: async (_c: number, w: string) => {
        sends.push(w);
        began();
        await gate;
        return sentOnce(w);
      },
    };
    const options = { retryForMs: HOUR, leaseMs: 60_000 };
    const first = lateResender({ owed: a, router: slow, now: () => now, logger: quiet, options });
    first.start();
    await started;
    const stopping = first.stop();
    release();
    await stopping;
    expect(sends).toEqual(["w0"]);
    const fast = {
      resendFailed: async (_c: number, w: string) => {
        sends.push(w);
        return sentOnce(w);
      },
    };
    const second = lateResender({ owed: b, router: fast, now: () => now, logger: quiet, options });
    expect(await second.runOnce()).toBe(4);
    expect([...sends].sort()).toEqual(["w0", "w1", "w2", "w3", "w4"]);
  });
});

describe("late resends: an entry that cannot be read", () => {
  it("is removed at its claim and logged once, not leased again for ever", async () => {
    const world = stores();
    const lines: string[] = [];
    const logger = createLogger({
      destination: new Writable({
        write: (c, _e, cb) => {
          lines.push(String(c));
          cb();
        },
      }),
    });
    const conn = redis.connect();
    const owed = createRedisLateResendStore(conn, world.prefix, logger);
    const k = waResendKeys(world.prefix);
    await conn.hset(k.entries, "bad", JSON.stringify({ wamid: "bad", shape: "old" }));
    await conn.zadd(k.due, T0, "bad");
    await owed.owe(entry("good", T0));
    expect((await owed.claim(T0, T0 + 1_000, 20)).map((e) => e.wamid)).toEqual(["good"]);
    expect(await conn.hexists(k.entries, "bad")).toBe(0);
    expect(await conn.zscore(k.due, "bad")).toBeNull();
    expect(await owed.claim(T0 + 5_000, T0 + 6_000, 20)).toHaveLength(1);
    expect(lines.filter((l) => l.includes("unreadable"))).toHaveLength(1);
  });
});
