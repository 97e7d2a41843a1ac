import { afterEach, describe, expect, it } from "vitest";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import type { NotificationQueue } from "../../src/notify/queue.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { transition } from "../../src/orders/state.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/** ONE contract suite for both notification queue adapters (and their outbox link to the store). */
interface Harness {
  queue: NotificationQueue;
  /** Another handle on the same queue (another process). */
  second(): NotificationQueue;
  /** An order store whose outbox is this queue. */
  store: OrderStore;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  const queue = createMemoryNotificationQueue();
  return {
    queue,
    second: () => queue,
    store: createMemoryOrderStore({ outbox: queue }),
    close: async () => {},
  };
}

function redisHarness(): Harness {
  const t = testRedis("queue");
  return {
    queue: createRedisNotificationQueue({ redis: t.redis, prefix: t.prefix }),
    second: () => createRedisNotificationQueue({ redis: t.connect(), prefix: t.prefix }),
    store: createRedisOrderStore({ redis: t.redis, prefix: t.prefix }),
    close: () => t.cleanup(),
  };
}

const note = (
  reference: string,
  status: Extract<Notification, { kind: "status" }>["status"] = "success",
): Notification => ({
  kind: "status",
  reference,
  status,
  chatId: 42,
  at: 1,
});

describe.each([
  ["memory", memoryHarness],
  ["redis", redisHarness],
] as const)("notification queue contract: %s", (_name, make) => {
  let h: Harness;
  const setup = () => {
    h = make();
    return h;
  };
  afterEach(async () => {
    await h.close();
  });

  it("delivers what the store's outbox wrote, including entries older than any consumer", async () => {
    const { queue, store } = setup();
    await store.create(placedOrder({ reference: "11" }));
    await store.update("11", (cur) => {
      const t = transition(cur, { source: "execute", status: "pending", at: 2 });
      return { order: t.order, notifications: t.notifications };
    });
    const c = queue.consumer("a");
    const got = await c.read(10, 0);
    expect(got.map((d) => d.notification)).toEqual([{ ...note("11", "pending"), at: 2 }]);
    expect(await queue.backlog()).toBe(1);
    await c.ack(got[0]!.id);
    expect(await queue.backlog()).toBe(0);
    expect(await c.read(10, 0)).toEqual([]);
    await c.close();
  });

  it("keeps an unacknowledged entry for another consumer after the idle time, not before", async () => {
    const { queue } = setup();
    await queue.enqueue([note("21")]);
    const dead = queue.consumer("dies");
    const [d] = await dead.read(10, 0);
    expect(d?.notification.reference).toBe("21");
    const heir = h.second().consumer("heir");
    expect(await heir.read(10, 0)).toEqual([]); // delivered already, not new
    expect(await heir.claimStale(60_000, 10)).toEqual([]); // not idle long enough
    const claimed = await heir.claimStale(0, 10);
    expect(claimed.map((x) => x.notification.reference)).toEqual(["21"]);
    await heir.ack(claimed[0]!.id);
    expect(await queue.backlog()).toBe(0);
    await dead.close();
    await heir.close();
  });

  it("leaves an entry its consumer keeps to it, and claims the others", async () => {
    const { queue } = setup();
    await queue.enqueue([note("51"), note("52")]);
    const busy = queue.consumer("busy");
    const [kept, left] = await busy.read(10, 0);
    await new Promise((r) => setTimeout(r, 400));
    await busy.keep([kept!.id]); // e.g. its receipt edit still waits for a slot
    const heir = h.second().consumer("heir");
    const claimed = await heir.claimStale(350, 10);
    expect(claimed.map((x) => x.notification.reference)).toEqual([left!.notification.reference]);
    await busy.close();
    await heir.close();
  });

  it("a blocked read wakes for a new entry, and returns empty once closed", async () => {
    const { queue } = setup();
    const c = queue.consumer("blocker");
    await c.read(1, 0); // make sure the group exists before the blocking read
    const pending = c.read(10, 5_000);
    setTimeout(() => void h.second().enqueue([note("31")]), 20);
    const got = await pending;
    expect(got.map((d) => d.notification.reference)).toEqual(["31"]);
    const idle = c.read(10, 5_000);
    setTimeout(() => void c.close(), 20);
    expect(await idle).toEqual([]);
  });

  it("counts attempts per entry", async () => {
    const { queue } = setup();
    await queue.enqueue([note("41")]);
    const c = queue.consumer("x");
    const [d] = await c.read(1, 0);
    expect(await c.noteAttempt(d!.id)).toBe(1);
    expect(await c.noteAttempt(d!.id)).toBe(2);
    await c.close();
  });

  it("marks an entry taken over from a failed attempt as reclaimed, a first delivery not", async () => {
    const { queue } = setup();
    await queue.enqueue([note("42")]);
    const c = queue.consumer("first");
    const [fresh] = await c.read(1, 0);
    expect(fresh?.reclaimed).toBeUndefined();
    const other = queue.consumer("second");
    const [again] = await other.claimStale(0, 10);
    expect(again?.id).toBe(fresh?.id);
    expect(again?.reclaimed).toBe(true);
    await other.ack(again!.id, true);
    expect(await queue.backlog()).toBe(0);
    await c.close();
    await other.close();
  });

  it("keeps sent markers, exclusive sending locks, inactive chats and dead letters", async () => {
    const { queue } = setup();
    const other = h.second();
    expect(await queue.isSent("status:1:success")).toBe(false);
    await queue.markSent("status:1:success");
    expect(await other.isSent("status:1:success")).toBe(true);

    const lock = async (q: NotificationQueue, key: string, ttlMs = 10_000) =>
      (await q.lockSending(key, ttlMs)).lock;
    expect(await lock(queue, "k")).toBe("locked");
    expect(await lock(other, "k")).toBe("held");
    expect(await other.isSent("k")).toBe(false);
    await queue.unlockSending("k");
    expect(await lock(other, "k")).toBe("locked");
    // Taking the lock tells a key already sent.
    await other.markSent("k");
    expect(await lock(queue, "k")).toBe("sent");
    expect(await queue.isSent("k")).toBe(true);

    // A lock left behind (its consumer died mid-send) stops excluding once its time is up, and
    // says the send may have happened; so does one whose answer was lost (markUncertain).
    expect(await lock(queue, "u", 50)).toBe("locked");
    expect(await lock(other, "u")).toBe("held");
    await new Promise((r) => setTimeout(r, 80));
    expect(await other.lockSending("u", 10_000)).toEqual({ lock: "abandoned", uncertain: 1 });
    expect(await lock(queue, "u")).toBe("held");
    await other.markUncertain("u");
    expect(await queue.lockSending("u", 10_000)).toEqual({ lock: "unanswered", uncertain: 2 });
    // A definite failure puts the record back: the earlier sends may still have arrived.
    await queue.unlockSending("u");
    expect(await other.lockSending("u", 10_000)).toEqual({ lock: "unanswered", uncertain: 2 });
    await other.markSent("u");
    expect(await lock(queue, "u")).toBe("sent");
    await queue.markChatInactive(42);
    expect(await other.isChatInactive(42)).toBe(true);
    await other.reactivateChat(42);
    expect(await queue.isChatInactive(42)).toBe(false);
    // Found active (and remembered so), then blocked here: inactive at once, and a reactivation
    // elsewhere is seen at once too.
    expect(await queue.isChatInactive(43)).toBe(false);
    await queue.markChatInactive(43);
    expect(await queue.isChatInactive(43)).toBe(true);
    await other.reactivateChat(43);
    expect(await queue.isChatInactive(43)).toBe(false);
    // A push accepted by a chat this instance marked: the mark was wrong, and is gone everywhere.
    await queue.markChatInactive(44);
    await queue.chatReached(44);
    expect(await other.isChatInactive(44)).toBe(false);

    await queue.deadLetter({ id: "1-1", notification: note("51") }, "too many attempts");
    expect(await other.listDead(5)).toMatchObject([
      { notification: note("51"), reason: "too many attempts" },
    ]);
  });

  it("counts a key's sends that may have arrived, across claims and handles", async () => {
    const { queue } = setup();
    const other = h.second();
    // Each lost answer adds one, whoever sent it; a definite failure in between adds none and
    // loses none; a withheld or carried attempt (unlocked) neither.
    expect(await queue.lockSending("c", 10_000)).toEqual({ lock: "locked", uncertain: 0 });
    await queue.markUncertain("c");
    expect(await other.lockSending("c", 10_000)).toEqual({ lock: "unanswered", uncertain: 1 });
    await other.markUncertain("c");
    expect(await queue.lockSending("c", 10_000)).toEqual({ lock: "unanswered", uncertain: 2 });
    await queue.unlockSending("c");
    expect(await other.lockSending("c", 10_000)).toEqual({ lock: "unanswered", uncertain: 2 });
    await other.markUncertain("c");
    expect(await queue.lockSending("c", 10_000)).toEqual({ lock: "unanswered", uncertain: 3 });
    // Given up (a dead letter): still "unanswered", the count starts again for a replay.
    await queue.giveUpSending("c");
    expect(await other.lockSending("c", 10_000)).toEqual({ lock: "unanswered", uncertain: 1 });
    // A fresh lock unlocked leaves no record.
    expect(await queue.lockSending("d", 10_000)).toEqual({ lock: "locked", uncertain: 0 });
    await queue.unlockSending("d");
    expect(await other.lockSending("d", 10_000)).toEqual({ lock: "locked", uncertain: 0 });
  });

  it("keeps a lost answer's retry time and 'receipt gone' on its record, for any handle", async () => {
    const { queue } = setup();
    const other = h.second();
    expect(await queue.lockSending("m", 10_000)).toEqual({ lock: "locked", uncertain: 0 });
    await queue.markUncertain("m", { retryAt: 1_700_000_060_000 });
    expect(await other.lockSending("m", 10_000)).toEqual({
      lock: "unanswered",
      uncertain: 1,
      retryAt: 1_700_000_060_000,
    });
    // Not due yet: the claim is put back, the record with it.
    await other.unlockSending("m");
    // The receipt edit carrying it found the receipt gone: said on the record, time kept.
    await other.markReceiptGone("m");
    await other.markReceiptGone("m");
    expect(await queue.lockSending("m", 10_000)).toEqual({
      lock: "unanswered",
      uncertain: 1,
      retryAt: 1_700_000_060_000,
      receiptGone: true,
    });
    // Lost again: the next retry time, "receipt gone" carried on by the sender.
    await queue.markUncertain("m", { retryAt: 1_700_000_180_000, receiptGone: true });
    expect(await other.lockSending("m", 10_000)).toEqual({
      lock: "unanswered",
      uncertain: 2,
      retryAt: 1_700_000_180_000,
      receiptGone: true,
    });
    // A lock held now, or a key sent, is not marked.
    await queue.markReceiptGone("m");
    await other.markUncertain("m");
    expect(await queue.lockSending("m", 10_000)).toEqual({ lock: "unanswered", uncertain: 3 });
    await queue.markSent("m");
    await queue.markReceiptGone("m");
    expect(await other.lockSending("m", 10_000)).toEqual({ lock: "sent", uncertain: 0 });
  });

  it("reads a lost answer's record without a claim, and drops its retry time once resent", async () => {
    const { queue } = setup();
    const other = h.second();
    expect(await queue.unansweredRecord("r")).toBeUndefined(); // none
    expect(await queue.lockSending("r", 10_000)).toEqual({ lock: "locked", uncertain: 0 });
    expect(await other.unansweredRecord("r")).toBeUndefined(); // held now
    await queue.markUncertain("r", { retryAt: 1_700_000_060_000, receiptGone: true });
    const record = { uncertain: 1, retryAt: 1_700_000_060_000, receiptGone: true };
    expect(await other.unansweredRecord("r")).toEqual(record);
    expect(await other.unansweredRecord("r")).toEqual(record); // a read takes nothing
    // The owed resend failed before reaching the chat: the record stays, without the time.
    expect(await other.lockSending("r", 10_000)).toMatchObject({ lock: "unanswered" });
    await other.unlockSending("r", { resent: true });
    expect(await queue.unansweredRecord("r")).toEqual({ uncertain: 1, receiptGone: true });
    // Lost again: counted.
    expect(await queue.lockSending("r", 10_000)).toMatchObject({ uncertain: 1 });
    await queue.markUncertain("r", { retryAt: 1_700_000_180_000 });
    expect(await other.unansweredRecord("r")).toEqual({
      uncertain: 2,
      retryAt: 1_700_000_180_000,
    });
    await queue.markSent("r");
    expect(await other.unansweredRecord("r")).toBeUndefined();
  });

  it("says whether 'receipt gone' could be marked: not while another claim holds the lock", async () => {
    // Before: nothing was answered, and the edit lane let the entry go unmarked; its reclaim
    // edited the gone receipt again, every claim idle time, until a mark landed.
    const { queue } = setup();
    const other = h.second();
    expect(await queue.markReceiptGone("g")).toBe(true); // no record: nothing to mark
    expect(await queue.lockSending("g", 10_000)).toMatchObject({ lock: "locked" });
    await queue.markUncertain("g");
    expect(await other.lockSending("g", 10_000)).toMatchObject({ lock: "unanswered" });
    expect(await queue.markReceiptGone("g")).toBe(false); // held now: not marked
    await other.unlockSending("g");
    expect(await queue.unansweredRecord("g")).toEqual({ uncertain: 1 });
    expect(await queue.markReceiptGone("g")).toBe(true);
    expect(await queue.markReceiptGone("g")).toBe(true); // marked before
    expect(await other.unansweredRecord("g")).toEqual({ uncertain: 1, receiptGone: true });
    await queue.markSent("g");
    expect(await queue.markReceiptGone("g")).toBe(true); // sent: nothing to mark
  });
});

describe("redis notification queue: acknowledging", () => {
  const t = testRedis("queue-ack");
  afterEach(() => t.cleanup());

  it("deletes the entry and leaves no pending record after the next claim", async () => {
    const queue = createRedisNotificationQueue({ redis: t.redis, prefix: t.prefix });
    await queue.enqueue([note("61"), note("62")]);
    const c = queue.consumer("a");
    const got = await c.read(10, 0);
    expect(got).toHaveLength(2);
    const { outbox } = keyspace(t.prefix);
    await c.ack(got[0]!.id);
    expect(await queue.backlog()).toBe(1);
    // Another consumer's claim (long idle time: nothing is due) clears the acknowledged entry's
    // pending record and takes nothing.
    expect(await queue.consumer("b").claimStale(60_000, 10)).toEqual([]);
    const pending = (await t.redis.xpending(outbox, "notifier")) as [number, ...unknown[]];
    expect(pending[0]).toBe(1);
    // The acknowledged entry never comes back, however long it waits.
    await c.ack(got[1]!.id);
    expect(await queue.consumer("b").claimStale(0, 10)).toEqual([]);
    expect(((await t.redis.xpending(outbox, "notifier")) as [number])[0]).toBe(0);
    await c.close();
  });
});

describe("redis notification queue: taking over a dead consumer's entries", () => {
  const t = testRedis("queue-claim");
  afterEach(() => t.cleanup());

  // Redis scans at most COUNT×10 pending entries per XAUTOCLAIM: entries kept fresh by the edit
  // lanes at the head of the pending list must not hide a dead consumer's entries behind them.
  it("reaches a dead consumer's entries behind 600 kept ones within a few claims", async () => {
    const queue = createRedisNotificationQueue({ redis: t.redis, prefix: t.prefix });
    const kept = 600;
    await queue.enqueue(Array.from({ length: kept }, (_, i) => note(String(100_000 + i))));
    const live = queue.consumer("live");
    const held: string[] = [];
    while (held.length < kept) held.push(...(await live.read(200, 0)).map((d) => d.id));
    await queue.enqueue([note("99001"), note("99002")]);
    const dead = queue.consumer("dead");
    expect(await dead.read(10, 0)).toHaveLength(2); // read, then its instance dies
    await new Promise((r) => setTimeout(r, 400));
    const heir = queue.consumer("heir");
    const taken: string[] = [];
    for (let round = 0; round < 4 && taken.length < 2; round++) {
      await live.keep(held); // the lane's keeper: these stay the live consumer's
      const got = await heir.claimStale(300, 50);
      taken.push(...got.map((d) => d.notification.reference as string));
    }
    expect(taken.sort()).toEqual(["99001", "99002"]);
    await Promise.all([live.close(), dead.close(), heir.close()]);
  });
});

describe("redis sending lock record", () => {
  const t = testRedis("queue-lock-record");
  afterEach(() => t.cleanup());
  /** The pattern the previous version's script reads a lock with (its time, or no match: held). */
  const previousReads = (v: string | null) => /^L:[^:]+:(\d+)$/.exec(v ?? "")?.[1];

  it("reads the previous version's records and writes ones it reads", async () => {
    const queue = createRedisNotificationQueue({ redis: t.redis, prefix: t.prefix });
    const marker = keyspace(t.prefix).sent("old");
    // Left "unanswered" by the previous version (no count in it).
    await t.redis.set(marker, "L:2f1c-old:0", "PX", 60_000);
    expect(await queue.lockSending("old", 10_000)).toEqual({ lock: "unanswered", uncertain: 1 });
    expect(Number(previousReads(await t.redis.get(marker)))).toBeGreaterThan(Date.now());
    await queue.markUncertain("old");
    // The count rides in the token: the previous version still reads "unanswered" (time 0).
    expect(await t.redis.get(marker)).toMatch(/^L:[^:/]+\/1:0$/);
    expect(previousReads(await t.redis.get(marker))).toBe("0");
    expect(await t.redis.pttl(marker)).toBeGreaterThan(0);
  });
});
