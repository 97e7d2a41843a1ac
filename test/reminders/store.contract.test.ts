import { afterAll, describe, expect, it } from "vitest";
import {
  memoryReminders,
  type ReminderRecord,
  type ReminderStore,
  redisReminders,
} from "../../src/reminders/index.ts";
import { testRedis } from "../support/redis.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * One contract for the reminders' store, kept by the memory and the Redis store: a success is
 * recorded with its payment time and asks for a look no later than its own; a customer is claimed
 * by one worker at a time; a day is claimed once with its marks; a release keeps an earlier look a
 * success asked for meanwhile; turning reminders back on asks for a look at once.
 */

const redis = testRedis("reminders");
afterAll(() => redis.cleanup());

const T = 1_800_000_000_000;
const record = (at: number): ReminderRecord => ({
  ref: "1700000000001",
  category: "mobile",
  number: "9841000001",
  operatorName: "NTC Prepaid",
  amountPaisa: 10_000,
  region: "np",
  locale: "en",
  chatId: 7,
  at,
});

const stores: Array<[string, () => [ReminderStore, ReminderStore]]> = [
  [
    "memory",
    () => {
      const s = memoryReminders();
      return [s, s];
    },
  ],
  // Two connections: two processes on one Redis.
  [
    "redis",
    () => [
      redisReminders(redis.redis, redis.prefix),
      redisReminders(redis.connect(), redis.prefix),
    ],
  ],
];

describe.each(stores)("reminder store (%s)", (_name, make) => {
  it("records a success and its time, and looks at the customer by the earliest time asked", async () => {
    const [s] = make();
    await s.record(11, "aaaaaaaaaa", record(T), T + 1000);
    await s.record(11, "aaaaaaaaaa", record(T + 50), T + 5000);
    expect(await s.due(T + 999, 10)).not.toContain(11);
    expect(await s.due(T + 1000, 10)).toContain(11);
    const state = await s.read(11);
    expect(state.records.get("aaaaaaaaaa")?.at).toBe(T + 50);
    expect(state.times.get("aaaaaaaaaa")?.sort()).toEqual([T, T + 50]);
  });

  it("hands a due customer to one worker at a time, and claims a day once", async () => {
    const [a, b] = make();
    await a.record(12, "bbbbbbbbbb", record(T), T);
    const claims = await Promise.all([a.claim(12, T, 60_000), b.claim(12, T, 60_000)]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    const marks = [{ id: "bbbbbbbbbb", dueAt: T + 9 }];
    const days = await Promise.all([
      a.markSent(12, "2027-01-15", marks),
      b.markSent(12, "2027-01-15", marks),
    ]);
    expect(days.filter(Boolean)).toHaveLength(1);
    expect((await a.read(12)).sent.get("bbbbbbbbbb")).toBe(T + 9);
    expect(await b.markSent(12, "2027-01-16", marks)).toBe(true);
  });

  it("keeps an earlier look a success asked for while the customer was claimed", async () => {
    const [a, b] = make();
    await a.record(13, "cccccccccc", record(T), T);
    const until = await a.claim(13, T, 60_000);
    expect(until).not.toBeNull();
    // A success meanwhile asks for a look sooner than the worker's plan.
    await b.record(13, "dddddddddd", record(T + 1), T + 2000);
    await a.release(13, until!, T + 9_000_000);
    expect(await a.due(T + 2000, 10)).toContain(13);
    // Released with nothing left, untouched meanwhile: no look at all.
    const again = await a.claim(13, T + 2000, 60_000);
    await a.release(13, again!, null);
    expect(await a.due(T + 99_000_000, 10)).not.toContain(13);
  });

  it("turns reminders off and back on (a look at once)", async () => {
    const [s] = make();
    await s.setOff(14, ["eeeeeeeeee"], true, T);
    await s.setOff(14, "all", true, T);
    let state = await s.read(14);
    expect(state.off.has("eeeeeeeeee") && state.allOff).toBe(true);
    await s.setOff(14, "all", false, T);
    state = await s.read(14);
    expect(state.allOff).toBe(false);
    expect(await s.due(T, 10)).toContain(14);
  });
});

describe("reminder store on Redis, what an order pays", () => {
  it("records a success in two commands (issue 31 caps an order at 90)", async () => {
    const s = redisReminders(redis.redis, redis.prefix);
    const monitor = await redis.connect().monitor();
    const seen: string[] = [];
    monitor.on("monitor", (_time: string, args: string[]) => {
      if (args.some((a) => String(a).startsWith(redis.prefix))) seen.push(String(args[0]));
    });
    try {
      await s.record(15, "ffffffffff", record(T), T);
      // A marker after it: once the monitor shows it, it showed everything before it.
      await redis.redis.get(`${redis.prefix}marker`);
      await waitUntil(() => seen.includes("get"), "the marker in the monitor");
      expect(seen.filter((c) => c !== "get").map((c) => c.toLowerCase())).toEqual(["hset", "zadd"]);
    } finally {
      monitor.disconnect();
    }
  });
});
