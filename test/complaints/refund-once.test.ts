import { afterAll, describe, expect, it } from "vitest";
import {
  type ComplaintStore,
  createComplaints,
  createMemoryComplaintStore,
  createRedisComplaintStore,
} from "../../src/complaints/index.ts";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { paidOrder } from "../support/complaints.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Review s24-b, 6: an order is refunded on a complaint once. The service's read of the order's
 * complaints (its 100 newest) answers early; the store's update refuses a second refund of the
 * order in the refund's own atomic step (the order's refund mark), so neither 100 later
 * complaints nor two resolutions at once can refund it twice.
 */

const redis = testRedis("refund-once");
afterAll(() => redis.cleanup());

const REF = "1700000000001";
const order = paidOrder(REF, 42, 10_000, 500);

function service(store: ComplaintStore) {
  return createComplaints({
    store,
    orders: { get: async (ref) => (ref === REF ? order : null) },
    logger: createLogger({ level: "silent" }),
  });
}

type Service = ReturnType<typeof service>;
const raise = (s: Service) =>
  s.raise({ userId: 42, chatId: 42, locale: "en", orderReference: REF, reason: "not_received" });

async function refunds(ledger: LedgerStore) {
  const all = (await ledger.journal({ limit: 1_000 })).entries;
  return all.filter((e) => e.kind === "reversal" && e.debit === account.merchant.sales);
}

async function afterManyComplaints(store: ComplaintStore, ledger: LedgerStore) {
  const s = service(store);
  const first = await raise(s);
  if (!first.ok) throw new Error("not raised");
  expect(
    await s.resolve(first.complaint.reference, 1, { text: "refunded", refundPaisa: 5_000 }),
  ).toMatchObject({ ok: true });
  // 100 later complaints on the order, each closed: the refunded one is no longer among the
  // 100 newest the service reads.
  for (let i = 0; i < 100; i++) {
    const c = await raise(s);
    if (!c.ok) throw new Error("not raised");
    expect(await s.reject(c.complaint.reference, 1, "no")).toMatchObject({ ok: true });
  }
  const last = await raise(s);
  if (!last.ok) throw new Error("not raised");
  expect(
    await s.resolve(last.complaint.reference, 1, { text: "again", refundPaisa: 5_000 }),
  ).toMatchObject({ ok: false, code: "already_refunded" });
  expect((await s.get(last.complaint.reference))?.status).not.toBe("resolved");
  expect((await refunds(ledger)).map((e) => e.amountPaisa)).toEqual([5_000]);
  expect((await ledger.balance(account.customer(42))).postedPaisa).toBe(5_000);
}

describe("one refund per order", () => {
  it("after 100 later complaints (memory)", async () => {
    const ledger = createMemoryLedger();
    await afterManyComplaints(
      createMemoryComplaintStore({ ledger, outbox: { append: () => {} } }),
      ledger,
    );
  });

  it("after 100 later complaints (Redis)", async () => {
    const prefix = `${redis.prefix}a:`;
    await afterManyComplaints(
      createRedisComplaintStore({ redis: redis.redis, prefix }),
      createRedisLedger({ redis: redis.redis, prefix }),
    );
  });

  it("two complaints of one order resolved with a refund at once: one refund (Redis)", async () => {
    const prefix = `${redis.prefix}b:`;
    const ledger = createRedisLedger({ redis: redis.redis, prefix });
    const s = service(createRedisComplaintStore({ redis: redis.redis, prefix }));
    const a = await raise(s);
    // A second open complaint on the order (a restore, a hand edit, an older version's record):
    // the one-open-per-order rule is not what keeps the refund single.
    await redis.redis.hdel(keyspace(prefix).complaintOpenByOrder, REF);
    const b = await raise(s);
    if (!a.ok || !b.ok || !b.created) throw new Error("not raised");
    const both = await Promise.all(
      [a, b].map((c) =>
        s.resolve(c.complaint.reference, 1, { text: "refund", refundPaisa: 10_500 }),
      ),
    );
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.filter((r) => !r.ok)).toMatchObject([{ code: "already_refunded" }]);
    expect((await refunds(ledger)).map((e) => e.amountPaisa)).toEqual([10_500]);
    expect((await ledger.balance(account.customer(42))).postedPaisa).toBe(10_500);
    expect((await ledger.check()).ok).toBe(true);
  });
});
