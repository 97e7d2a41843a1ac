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
 * success asked for meanwhile; turning reminders back on asks for a look at once and clears
 * every stop; a day's marks are given back only while they are the ones written; a refunded
 * order's account is dropped.
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

  // Review s24-c note 1: "Turn reminders back on" left each account's stop in place, for good.
  it("turns reminders off and back on (a look at once), every account's stop with them", async () => {
    const [s] = make();
    await s.setOff(14, ["eeeeeeeeee"], true, T);
    await s.setOff(14, ["eeeeeeeee2"], true, T);
    await s.setOff(14, "all", true, T);
    let state = await s.read(14);
    expect(state.off.has("eeeeeeeeee") && state.allOff).toBe(true);
    await s.setOff(14, "all", false, T);
    state = await s.read(14);
    expect(state.allOff).toBe(false);
    expect([...state.off]).toEqual([]);
    expect(await s.due(T, 10)).toContain(14);
  });

  it("gives a day's marks back only while they are the ones written", async () => {
    const [a, b] = make();
    await a.markSent(16, "2027-01-14", [{ id: "gggggggggg", dueAt: T }]);
    await a.markSent(16, "2027-01-15", [
      { id: "gggggggggg", dueAt: T + 1 },
      { id: "hhhhhhhhhh", dueAt: T + 2 },
    ]);
    await b.unmarkSent(16, { wrote: "2027-01-15", before: "2027-01-14" }, [
      { id: "gggggggggg", dueAt: T + 1, before: T },
      { id: "hhhhhhhhhh", dueAt: T + 2, before: undefined },
    ]);
    let state = await a.read(16);
    expect(state.day).toBe("2027-01-14");
    expect([...state.sent]).toEqual([["gggggggggg", T]]);
    // Written since by another: kept.
    await a.markSent(16, "2027-01-16", [{ id: "gggggggggg", dueAt: T + 3 }]);
    await b.unmarkSent(16, { wrote: "2027-01-15", before: undefined }, [
      { id: "gggggggggg", dueAt: T + 1, before: undefined },
    ]);
    state = await a.read(16);
    expect(state.day).toBe("2027-01-16");
    expect(state.sent.get("gggggggggg")).toBe(T + 3);
  });

  it("drops the account whose record is a given order (its stop stays), and no other", async () => {
    const [s] = make();
    await s.record(17, "iiiiiiiiii", record(T), T);
    await s.record(17, "jjjjjjjjjj", { ...record(T), ref: "1700000000002" }, T);
    await s.markSent(17, "2027-01-15", [{ id: "iiiiiiiiii", dueAt: T + 1 }]);
    await s.setOff(17, ["iiiiiiiiii"], true, T);
    expect(await s.dropOrder(17, "1700000000009")).toBe(false);
    expect(await s.dropOrder(17, "1700000000001")).toBe(true);
    const state = await s.read(17);
    expect([...state.records.keys()]).toEqual(["jjjjjjjjjj"]);
    expect([...state.times.keys()]).toEqual(["jjjjjjjjjj"]);
    expect(state.sent.size).toBe(0);
    expect(state.off.has("iiiiiiiiii")).toBe(true);
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
