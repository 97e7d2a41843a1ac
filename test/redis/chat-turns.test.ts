import { afterAll, describe, expect, it } from "vitest";
import { epochKey, redisChatTurns } from "../../src/redis/chat-turns.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A chat's turn across instances on real Redis (src/redis/chat-turns.ts): one at a time, in
 * update_id order whatever the order of arrival, free again when a holder or a waiter dies, and
 * never a wait without end. Each "instance" is a ChatTurns of its own on a connection of its own.
 */

const t = testRedis("chat-turns");
afterAll(() => t.cleanup());

const FAST = { leaseMs: 600, aliveMs: 600, pollMs: 20 };

describe("chat turns in Redis", () => {
  it("hands the turn out one at a time, lowest update id first, whoever asked first", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const first = await a.take("c1", 10);
    expect(first.held).toBe(true);
    const got: number[] = [];
    let inside = 0;
    let overlap = false;
    const run = async (turns: typeof a, id: number) => {
      const turn = await turns.take("c1", id);
      inside++;
      if (inside > 1) overlap = true;
      got.push(id);
      await new Promise((r) => setTimeout(r, 30));
      inside--;
      await turn.release();
    };
    // 12 asks before 11 (at the other instance): 11 still goes first.
    const twelve = run(b, 12);
    await new Promise((r) => setTimeout(r, 60));
    const eleven = run(a, 11);
    await new Promise((r) => setTimeout(r, 60));
    expect(got).toEqual([]);
    await first.release();
    await Promise.all([eleven, twelve]);
    expect(got).toEqual([11, 12]);
    expect(overlap).toBe(false);
  });

  it("frees the turn of an instance that died holding it, within the lease", async () => {
    const dying = t.connect();
    const a = redisChatTurns(dying, t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const held = await a.take("c2", 20);
    expect(held.held).toBe(true);
    // The process is gone: no renewal, no release.
    dying.disconnect();
    const next = await b.take("c2", 21);
    expect(next.held).toBe(true);
    expect(next.tries).toBeGreaterThan(1);
    await next.release();
  });

  it("skips a waiter whose instance died, once it has not been heard of for its alive time", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const dying = t.connect();
    const gone = redisChatTurns(dying, t.prefix, FAST);
    const c = redisChatTurns(t.connect(), t.prefix, FAST);
    const holder = await a.take("c3", 30);
    // 31 queues at an instance that then dies; 32 waits behind it.
    const lost = gone.take("c3", 31).catch(() => null);
    await waitUntil(
      async () => (await t.redis.zscore(`${t.prefix}{chat:c3}:turns`, "31")) !== null,
      "31 queued",
    );
    dying.disconnect();
    await lost;
    const later = c.take("c3", 32);
    await holder.release();
    const turn = await later;
    expect(turn.held).toBe(true);
    await turn.release();
  });

  it("moves the chat's epoch on each turn released, so a read made before a take can tell it is stale", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const epoch = async () => String((await t.redis.get(epochKey(t.prefix, "c5"))) ?? "0");
    const one = await a.take("c5", 50);
    expect(one.epoch).toBe("0");
    // Read before the next take (as the prefetch does), then a turn ends in between.
    const before = await epoch();
    await one.release();
    const two = await a.take("c5", 51);
    expect(two.epoch).not.toBe(before);
    expect(two.epoch).not.toBe("0");
    // A read with no turn ended before the take matches it.
    await two.release();
    const freed = await epoch();
    const three = await b.take("c5", 52);
    expect(three.epoch).toBe(freed);
    await three.release();
    // Every release writes an epoch none wrote before, whichever instance frees the turn.
    const seen = new Set([before, two.epoch, three.epoch, await epoch()]);
    expect(seen.size).toBe(4);
  });

  it("takes a free turn with nobody waiting without entering the queue; a waiter enters it and leaves it", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const queue = `${t.prefix}{chat:c6}:turns`;
    const one = await a.take("c6", 60);
    expect(one.tries).toBe(1);
    expect(await t.redis.exists(queue)).toBe(0);
    const waiting = b.take("c6", 61);
    await waitUntil(async () => (await t.redis.zscore(queue, "61")) !== null, "61 queued");
    // The queue is not empty: a later update waits behind 61 even though the turn is then free.
    await one.release();
    const two = await waiting;
    expect(two.held).toBe(true);
    const late = a.take("c6", 62);
    await two.release();
    const three = await late;
    expect(three.held).toBe(true);
    await three.release();
    expect(await t.redis.exists(queue)).toBe(0);
    expect(await t.redis.exists(`${t.prefix}{chat:c6}:alive`)).toBe(0);
  });

  it("a freed turn someone waits for is marked: a new update goes behind the waiter, and the fast path comes back once nobody waits", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    // 71 must still count as alive when 72 asks, however slow the machine: alive for a minute
    // (it leaves the queue by its release below, not by its alive time).
    const b = redisChatTurns(t.connect(), t.prefix, { ...FAST, aliveMs: 60_000 });
    const queue = `${t.prefix}{chat:c7}:turns`;
    const turnKey = epochKey(t.prefix, "c7");
    const gaveUp = () => {
      const c = new AbortController();
      c.abort();
      return { signal: c.signal };
    };
    const holder = await a.take("c7", 70);
    // 71 asks once and stays queued (alive) without polling again.
    const waiter = await b.take("c7", 71, gaveUp());
    expect(waiter.held).toBe(false);
    expect(await t.redis.get(turnKey)).toMatch(/\|q$/);
    await holder.release();
    expect(await t.redis.get(turnKey)).toMatch(/^f:.*\|q$/);
    // The turn is free, but 71 waits for it: 72 does not take it past 71.
    const late = await a.take("c7", 72, gaveUp());
    expect(late.held).toBe(false);
    const second = await b.take("c7", 71);
    expect(second.held).toBe(true);
    await second.release();
    await waiter.release();
    await late.release();
    // Nobody is queued any more: the next take clears the mark, the one after skips the queue.
    const clearing = await a.take("c7", 73);
    expect(await t.redis.get(turnKey)).not.toMatch(/\|q$/);
    await clearing.release();
    const fast = await a.take("c7", 74);
    expect(fast.tries).toBe(1);
    expect(await t.redis.zscore(queue, "74")).toBeNull();
    expect(await a.holder("c7")).toBe(74);
    await fast.release();
    expect(await t.redis.exists(queue)).toBe(0);
  });

  it("a holder keeps renewing its turn once a waiter marked it", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, { ...FAST, leaseMs: 300 });
    const b = redisChatTurns(t.connect(), t.prefix, { ...FAST, maxWaitMs: 50 });
    const holder = await a.take("c8", 80);
    const waiter = await b.take("c8", 81);
    expect(waiter.held).toBe(false);
    expect(await t.redis.get(epochKey(t.prefix, "c8"))).toMatch(/\|q$/);
    // Three leases long: only renewals keep it.
    await new Promise((r) => setTimeout(r, 900));
    expect(await b.holder("c8")).toBe(80);
    await waiter.release();
    await holder.release();
    expect(await b.holder("c8")).toBeUndefined();
  });

  it("a release after the lease ran out moves the epoch when nobody holds the turn, not a new holder's", async () => {
    // The update's done mark is written just before the release (bot/chat-order.ts): a read of
    // it made before must not pass for current, even when the releaser had lost its turn.
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const turnKey = epochKey(t.prefix, "c5");
    const lost = await a.take("c5", 50);
    expect(await a.holder("c5")).toBe(50);
    await t.redis.del(turnKey); // the lease ran out (a stalled process)
    expect(await b.holder("c5")).toBeUndefined();
    await lost.release();
    const moved = await t.redis.get(turnKey);
    expect(moved?.startsWith("f:")).toBe(true);
    // Lost again, and someone else holds the turn now: theirs stays.
    const lostAgain = await a.take("c5", 51);
    await t.redis.del(turnKey);
    const other = await b.take("c5", 52);
    await lostAgain.release();
    expect(await b.holder("c5")).toBe(52);
    await other.release();
    expect(await b.holder("c5")).toBeUndefined();
  });

  it("a release with a mark writes the mark whether the turn was ours, lost, or someone else's", async () => {
    // The done mark goes with the release (one script): written in every case, and the turn
    // treated as a plain release would (freed, epoch moved, or another holder's left alone).
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const turnKey = epochKey(t.prefix, "c9");
    const mark = (id: number) => ({ key: `${t.prefix}mark:${id}`, value: "2", ttlSeconds: 60 });
    const ours = await a.take("c9", 90);
    await ours.release(mark(90));
    expect(await t.redis.get(mark(90).key)).toBe("2");
    expect(await t.redis.ttl(mark(90).key)).toBeGreaterThan(0);
    const freed = await t.redis.get(turnKey);
    expect(freed?.startsWith("f:")).toBe(true);
    const lost = await a.take("c9", 91);
    await t.redis.del(turnKey);
    await lost.release(mark(91));
    expect(await t.redis.get(mark(91).key)).toBe("2");
    const moved = await t.redis.get(turnKey);
    expect(moved?.startsWith("f:") && moved !== freed).toBe(true);
    const lostAgain = await a.take("c9", 92);
    await t.redis.del(turnKey);
    const other = await b.take("c9", 93);
    await lostAgain.release(mark(92));
    expect(await t.redis.get(mark(92).key)).toBe("2");
    expect(await b.holder("c9")).toBe(93);
    await other.release();
  });

  it("a release frees its own turn in one SET … GET, and puts another holder's value back as it was, with a lease", async () => {
    // The release writes the freed value first and looks at what it replaced: ours (the usual
    // case) is done; a marked one of ours is freed marked; another holder's (we lost the turn)
    // is put back, mark and all, never left freed or without an expiry.
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const turnKey = epochKey(t.prefix, "c10");
    const ours = await a.take("c10", 100);
    await ours.release();
    const freed = await t.redis.get(turnKey);
    expect(freed?.startsWith("f:") && !freed.endsWith("|q")).toBe(true);
    expect(await t.redis.pttl(turnKey)).toBeGreaterThan(3_600_000);
    const marked = await a.take("c10", 101);
    const token = await t.redis.get(turnKey);
    await t.redis.set(turnKey, `${token}|q`, "KEEPTTL"); // a waiter marked it
    await marked.release();
    const freedMarked = await t.redis.get(turnKey);
    expect(freedMarked?.startsWith("f:") && freedMarked.endsWith("|q")).toBe(true);
    await t.redis.set(turnKey, "f:x"); // nobody waits any more
    const lost = await a.take("c10", 102);
    await t.redis.del(turnKey);
    const other = await b.take("c10", 103);
    const theirs = `${await t.redis.get(turnKey)}|q`;
    await t.redis.set(turnKey, theirs, "PX", 300);
    await lost.release();
    expect(await t.redis.get(turnKey)).toBe(theirs);
    const ttl = await t.redis.pttl(turnKey);
    expect(ttl > 0 && ttl <= FAST.leaseMs).toBe(true);
    await other.release();
    expect((await t.redis.get(turnKey))?.startsWith("f:")).toBe(true);
  });

  it("a take tried as free (this instance freed the turn last) puts back whatever else it found", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, FAST);
    const b = redisChatTurns(t.connect(), t.prefix, FAST);
    const once = () => {
      const c = new AbortController();
      c.abort(); // one poll only
      return { signal: c.signal };
    };
    // Another instance holds it: its value stays, with a lease, and we wait.
    const k11 = epochKey(t.prefix, "c11");
    await (await a.take("c11", 110)).release();
    const other = await b.take("c11", 111);
    const theirs = `${await t.redis.get(k11)}|q`; // marked already: nothing else rewrites it
    await t.redis.set(k11, theirs, "KEEPTTL");
    const waited = await a.take("c11", 112, once());
    expect(waited.held).toBe(false);
    expect(await t.redis.get(k11)).toBe(theirs);
    const ttl = await t.redis.pttl(k11);
    expect(ttl > 0 && ttl <= FAST.leaseMs).toBe(true);
    await waited.release();
    await other.release();
    // Freed but marked (someone may wait): put back with the epoch's day; taken through the queue
    // once nobody is ahead, the epoch the marked value.
    const k12 = epochKey(t.prefix, "c12");
    await (await a.take("c12", 120)).release();
    const marked = `${await t.redis.get(k12)}|q`;
    await t.redis.set(k12, marked, "KEEPTTL");
    // A waiter ahead of us, alive: we wait, and the freed value stays as it was.
    const q = keyspace(t.prefix).chatTurn("c12");
    await t.redis.zadd(q.queue, 1, "1");
    await t.redis.hset(q.alive, "1", String(Date.now() + 60_000));
    const behind = await a.take("c12", 121, once());
    expect(behind.held).toBe(false);
    expect(await t.redis.get(k12)).toBe(marked);
    expect(await t.redis.pttl(k12)).toBeGreaterThan(3_600_000);
    await behind.release(); // not held: moves the epoch, marked
    await t.redis.zrem(q.queue, "1");
    const moved = await t.redis.get(k12);
    expect(moved?.endsWith("|q") && moved !== marked).toBe(true);
    const viaQueue = await a.take("c12", 122);
    expect(viaQueue.epoch).toBe(moved);
    await viaQueue.release();
    // Absent (expired): taken as a never-taken turn, epoch "0".
    const k13 = epochKey(t.prefix, "c13");
    await (await a.take("c13", 130)).release();
    await t.redis.del(k13);
    const fresh = await a.take("c13", 131);
    expect(fresh.epoch).toBe("0");
    expect(await t.redis.pttl(k13)).toBeLessThanOrEqual(FAST.leaseMs);
    await fresh.release();
    // Absent (expired) while a live waiter is ahead: we wait, and the turn stays absent (our
    // token, written by the try, is deleted again: nobody holds the turn).
    const k14 = epochKey(t.prefix, "c14");
    await (await a.take("c14", 140)).release();
    await t.redis.del(k14);
    const q14 = keyspace(t.prefix).chatTurn("c14");
    await t.redis.zadd(q14.queue, 1, "1");
    await t.redis.hset(q14.alive, "1", String(Date.now() + 60_000));
    const absentBehind = await a.take("c14", 141, once());
    expect(absentBehind.held).toBe(false);
    expect(await t.redis.get(k14)).toBeNull();
    await absentBehind.release();
    await t.redis.zrem(q14.queue, "1");
    // Freed by us and untouched: taken as it was, the epoch our release's.
    const freed = await t.redis.get(k13);
    const fast = await a.take("c13", 132);
    expect(fast.epoch).toBe(freed);
    expect(fast.tries).toBe(1);
    await fast.release();
  });

  it("gives up waiting after maxWaitMs (held false) and leaves the queue", async () => {
    const a = redisChatTurns(t.connect(), t.prefix, { ...FAST, leaseMs: 5_000 });
    const b = redisChatTurns(t.connect(), t.prefix, { ...FAST, maxWaitMs: 200 });
    const holder = await a.take("c4", 40);
    const late = await b.take("c4", 41);
    expect(late.held).toBe(false);
    await late.release();
    // A wait that ran out frees nothing and moves no epoch: the holder's turn is untouched.
    const turnKey = epochKey(t.prefix, "c4");
    const held = await t.redis.get(turnKey);
    expect(held?.startsWith("f:")).toBe(false);
    expect(await t.redis.zscore(`${t.prefix}{chat:c4}:turns`, "41")).toBeNull();
    await holder.release();
    expect((await t.redis.get(turnKey))?.startsWith("f:")).toBe(true);
  });
});
