import { afterAll, describe, expect, it } from "vitest";
import {
  backfillRefundMarks,
  createComplaints,
  createRedisComplaintStore,
  ensureRefundMarks,
} from "../../src/complaints/index.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import {
  complaintRefundedOrdersKey,
  complaintRefundMarksCursorKey,
} from "../../src/redis/keyspace.ts";
import { paidOrder } from "../support/complaints.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Complaint refunds booked before the order's refund mark existed (review s24-b, 6 added the mark)
 * were guarded only by the service's read of the order's 100 newest complaints: after 100 later
 * complaints a second refund of the order got through. The backfill (run at every start) writes
 * the mark for every refunded complaint, in bounded steps from a cursor, idempotently.
 */

const redis = testRedis("refund-marks");
afterAll(() => redis.cleanup());

const REF = "1700000000001";
/** Another order: its complaints are raised while one on REF is open. */
const OTHER = "1700000000002";
const order = paidOrder(REF, 42, 10_000, 500);

function setUp(prefix: string) {
  const store = createRedisComplaintStore({ redis: redis.redis, prefix });
  const ledger = createRedisLedger({ redis: redis.redis, prefix });
  const s = createComplaints({
    store,
    orders: {
      get: async (ref) =>
        ref === REF ? order : ref === OTHER ? { ...order, reference: OTHER } : null,
    },
    logger: createLogger({ level: "silent" }),
  });
  const raise = async (orderReference = REF) => {
    const c = await s.raise({
      userId: 42,
      chatId: 42,
      locale: "en",
      orderReference,
      reason: "not_received",
    });
    if (!c.ok) throw new Error("not raised");
    return c.complaint.reference;
  };
  return { s, ledger, raise };
}

async function refunds(ledger: LedgerStore) {
  const all = (await ledger.journal({ limit: 1_000 })).entries;
  return all.filter((e) => e.kind === "reversal" && e.debit === account.merchant.sales);
}

/** A refund as a version before the mark booked it: the refund, then its mark taken away. */
async function oldRefund(prefix: string, t: ReturnType<typeof setUp>) {
  const first = await t.raise();
  expect(await t.s.resolve(first, 1, { text: "refunded", refundPaisa: 5_000 })).toMatchObject({
    ok: true,
  });
  await redis.redis.hdel(complaintRefundedOrdersKey(prefix), REF);
  // 100 later complaints on the order, each closed: the refund is past the service's read.
  for (let i = 0; i < 100; i++) {
    const c = await t.raise();
    expect(await t.s.reject(c, 1, "no")).toMatchObject({ ok: true });
  }
  return first;
}

describe("the complaint refund marks' backfill", () => {
  it("marks an old refund, so a second refund of the order is refused", async () => {
    const prefix = `${redis.prefix}a:`;
    const t = setUp(prefix);
    const first = await oldRefund(prefix, t);
    expect(await t.s.refundOf(REF)).toBeNull(); // the old guard no longer sees it
    let marked = 0;
    await ensureRefundMarks(redis.redis, prefix, (n) => {
      marked += n;
    });
    const last = await t.raise();
    expect(await t.s.resolve(last, 1, { text: "again", refundPaisa: 5_000 })).toMatchObject({
      ok: false,
      code: "already_refunded",
    });
    expect((await refunds(t.ledger)).map((e) => e.amountPaisa)).toEqual([5_000]);
    expect(marked).toBe(1);
    expect(await redis.redis.hget(complaintRefundedOrdersKey(prefix), REF)).toBe(first);
    expect((await t.s.refundOf(REF))?.reference).toBe(first);
    // Run again (the next start): nothing to write, nothing changed.
    await ensureRefundMarks(redis.redis, prefix, (n) => {
      marked += n;
    });
    expect(marked).toBe(1);
  });

  it("works in bounded steps, keeps a mark already there and stops before an open complaint", async () => {
    const prefix = `${redis.prefix}b:`;
    const t = setUp(prefix);
    const first = await oldRefund(prefix, t); // C100001, then 100 closed ones
    const open = await t.raise(); // C100102, still open
    const cursor = async () => Number(await redis.redis.get(complaintRefundMarksCursorKey(prefix)));
    // A step reads at most `limit` complaints.
    const one = await backfillRefundMarks(redis.redis, prefix, { limit: 40 });
    expect(one).toEqual({ marked: 1, next: 40, done: false });
    expect(await cursor()).toBe(40);
    const two = await backfillRefundMarks(redis.redis, prefix, { limit: 40 });
    expect(two).toEqual({ marked: 0, next: 80, done: false });
    const three = await backfillRefundMarks(redis.redis, prefix, { limit: 40 });
    expect(three).toMatchObject({ next: 102, done: true });
    // The open complaint holds the cursor: looked at again until it is closed.
    expect(await cursor()).toBe(101);
    expect(open).toBe("C100102");
    expect(await backfillRefundMarks(redis.redis, prefix)).toMatchObject({ next: 102, done: true });
    // A mark already there (another refund's own) is kept.
    await redis.redis.hset(complaintRefundedOrdersKey(prefix), REF, "C999999");
    await redis.redis.set(complaintRefundMarksCursorKey(prefix), "0");
    expect(await backfillRefundMarks(redis.redis, prefix)).toMatchObject({ marked: 0 });
    expect(await redis.redis.hget(complaintRefundedOrdersKey(prefix), REF)).toBe("C999999");
    expect(first).toBe("C100001");
  });
  it("a walk of several steps keeps the cursor before an open complaint in its first step", async () => {
    // Review s25-d, 2: each later step moved the cursor to its own end when it found none open,
    // past the open one a first step had stopped before; refunded later by an older instance
    // (a rolling deploy) without its mark, that complaint was never looked at again.
    const prefix = `${redis.prefix}c:`;
    const t = setUp(prefix);
    const open = await t.raise(); // C100001, left open
    for (let i = 0; i < 90; i++) {
      const c = await t.raise(OTHER);
      expect(await t.s.reject(c, 1, "no")).toMatchObject({ ok: true });
    }
    const cursor = async () => Number(await redis.redis.get(complaintRefundMarksCursorKey(prefix)));
    // The start's walk in steps of 40: three steps, the first stopped before C100001.
    await ensureRefundMarks(redis.redis, prefix, () => {}, { limit: 40 });
    expect(await cursor()).toBe(0);
    // An older instance refunds it without the mark; the next start's walk writes it.
    expect(await t.s.resolve(open, 1, { text: "refunded", refundPaisa: 5_000 })).toMatchObject({
      ok: true,
    });
    await redis.redis.hdel(complaintRefundedOrdersKey(prefix), REF);
    let marked = 0;
    await ensureRefundMarks(
      redis.redis,
      prefix,
      (n) => {
        marked += n;
      },
      { limit: 40 },
    );
    expect(marked).toBe(1);
    expect(await redis.redis.hget(complaintRefundedOrdersKey(prefix), REF)).toBe(open);
    // All closed now: the walk moved the cursor to the end.
    expect(await cursor()).toBe(91);
  });
});
