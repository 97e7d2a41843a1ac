import { afterAll, describe, expect, it } from "vitest";
import {
  type AccountId,
  account,
  backfillLedgerIndex,
  changeOf,
  createMemoryLedger,
  createRedisLedger,
  exportJournalCsv,
  JOURNAL_PAGE_MAX,
  type JournalEntry,
  journalCsvChunks,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { ensureLedgerIndex } from "../../src/ledger/index-backfill.ts";
import { holdIdOf } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { transition } from "../../src/orders/state.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { placedOrder } from "../support/orders.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The books' read index (src/ledger/account-index.ts): an account's entries with its balances
 * after each, and an entry by reference, written in the same script as the booking. Checked
 * against the whole journal read page by page (the way statements were read before it), on the
 * memory and the Redis store; the Redis one also: nothing indexed for a refusal or a duplicate,
 * every member's balances equal to the balance read right after, the backfill rebuilding the same
 * members, and the streamed journal CSV equal to the whole one.
 */

const redis = testRedis("ledger-index");
// Generous: the cleanup SCANs a Redis a benchmark may be filling meanwhile.
afterAll(() => redis.cleanup(), 180_000);

const T0 = Date.parse("2026-02-01T00:00:00Z");
const people = [1, 2, 3].map((n) => account.customer(1000 + n));
const shop = account.agent("shop-9");
const { funding, sales, float, fees } = account.merchant;

/** A seeded pseudo-random month: credits, cash-ins, orders held then posted or voided, fees. */
async function history(l: LedgerStore, clock: { now: number }, n: number) {
  let seed = 7;
  const rnd = (m: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % m;
  };
  for (const p of [...people, shop]) {
    await l.transfer({
      id: `seed-${p}`,
      debit: funding,
      credit: p,
      amountPaisa: 1e7,
      kind: "credit",
    });
  }
  for (let i = 0; i < n; i++) {
    // Some entries in the same millisecond, as a busy second books them.
    clock.now += rnd(3) === 0 ? 0 : 1 + rnd(3_600_000);
    const who = people[rnd(people.length)]!;
    const ref = `ord-${i}`;
    switch (rnd(4)) {
      case 0:
        await l.transfer({
          id: `cash-${i}`,
          debit: shop,
          credit: who,
          amountPaisa: 1 + rnd(5_000),
          kind: "cash_in",
          reference: `r|${i}`,
        });
        break;
      case 1: {
        await l.hold({
          id: `h-${i}`,
          debit: who,
          credit: sales,
          amountPaisa: 100 + rnd(9_000),
          reference: ref,
        });
        await l.post(`h-${i}`);
        await l.transfer({
          id: `f-${i}`,
          debit: sales,
          credit: float,
          amountPaisa: 50,
          kind: "float_debit",
          reference: ref,
        });
        await l.transfer({
          id: `fee-${i}`,
          debit: sales,
          credit: fees,
          amountPaisa: 10,
          kind: "fee",
          reference: ref,
        });
        break;
      }
      case 2:
        await l.hold({
          id: `h-${i}`,
          debit: who,
          credit: sales,
          amountPaisa: 100 + rnd(9_000),
          reference: ref,
        });
        if (rnd(2) === 0) await l.void(`h-${i}`);
        break;
      default:
        await l.transfer({
          id: `rev-${i}`,
          debit: who,
          credit: funding,
          amountPaisa: 1 + rnd(100),
          kind: "reversal",
          reason: '=typo, "x"%1E',
        });
    }
  }
}

async function wholeJournal(l: LedgerStore): Promise<JournalEntry[]> {
  const all: JournalEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await l.journal({ ...(after ? { after } : {}) });
    all.push(...page.entries);
    if (!page.next) return all;
    after = page.next;
  }
}

/** The oracle: from the whole journal, balances worked forward from zero. */
function expected(journal: JournalEntry[], acc: AccountId, from: number, to: number) {
  let posted = 0;
  let held = 0;
  let opening = { postedPaisa: 0, heldPaisa: 0 };
  const lines: Array<{ seq: string; postedPaisa: number; heldPaisa: number }> = [];
  for (const e of journal) {
    if (e.debit !== acc && e.credit !== acc) continue;
    const c = changeOf(e, acc);
    posted += c.posted;
    held += c.held;
    if (e.at < from) opening = { postedPaisa: posted, heldPaisa: held };
    else if (e.at < to) lines.push({ seq: e.seq, postedPaisa: posted, heldPaisa: held });
  }
  return { opening, lines };
}

async function pagesOf(l: LedgerStore, acc: AccountId, from: number, to: number, limit: number) {
  const first = await l.accountEntries(acc, { from, to, limit });
  const lines = [...first.lines];
  let next = first.next;
  while (next) {
    const page = await l.accountEntries(acc, { from, to, limit, after: next });
    lines.push(...page.lines);
    next = page.next;
  }
  return {
    opening: first.opening,
    lines: lines.map((x) => ({
      seq: x.entry.seq,
      postedPaisa: x.postedPaisa,
      heldPaisa: x.heldPaisa,
    })),
  };
}

const stores: Array<[string, (clock: { now: number }) => LedgerStore]> = [
  ["memory", (clock) => createMemoryLedger({ now: () => clock.now })],
  [
    "redis",
    (clock) =>
      createRedisLedger({
        redis: redis.redis,
        prefix: `${redis.prefix}${Math.random()}:`,
        now: () => clock.now,
      }),
  ],
];

describe.each(stores)("the books' read index (%s)", (_name, make) => {
  it("gives each account's entries and balances as the whole journal does, page by page", async () => {
    const clock = { now: T0 };
    const l = make(clock);
    await history(l, clock, 150);
    const journal = await wholeJournal(l);
    const end = clock.now + 1;
    const ranges = [
      [T0 - 1, end],
      [T0 + 20 * 3_600_000, T0 + 60 * 3_600_000],
      [end, end + 1],
    ] as const;
    for (const acc of [...people, shop, sales, float]) {
      for (const [from, to] of ranges) {
        expect(await pagesOf(l, acc, from, to, 7)).toEqual(expected(journal, acc, from, to));
      }
    }
  });

  it("finds an order's entries by reference, oldest first, and nobody else's", async () => {
    const clock = { now: T0 };
    const l = make(clock);
    await history(l, clock, 60);
    const journal = await wholeJournal(l);
    for (const ref of ["ord-1", "ord-2", "ord-5", "ord-17", "r|3", "nothing"]) {
      expect(await l.entriesOf(ref)).toEqual(journal.filter((e) => e.reference === ref));
    }
  });

  it("streams the journal CSV in chunks that join into the whole one, over many pages", async () => {
    const clock = { now: T0 };
    const l = make(clock);
    await history(l, clock, 20);
    for (let i = 0; i < 2_300; i++) {
      clock.now += i % 3; // some in the same millisecond
      const reason = i % 7 === 0 ? '=sum(1,2) "quoted" %1F' : undefined;
      const t = { id: `bulk-${i}`, debit: funding, credit: people[i % 3]!, amountPaisa: 1 + i };
      await l.transfer({
        ...t,
        kind: reason ? "adjustment" : "credit",
        ...(reason ? { reason } : {}),
      });
    }
    const range = { from: T0 + 3_600_000, to: clock.now };
    const chunks: string[] = [];
    for await (const c of journalCsvChunks(l, range)) chunks.push(c);
    expect(chunks.length).toBeGreaterThanOrEqual(3); // the header and two pages at least
    const csv = chunks.join("");
    expect(csv).toBe(await exportJournalCsv(l, range));
    const inRange = (await wholeJournal(l)).filter((e) => e.at >= range.from && e.at < range.to);
    expect(inRange.length).toBeGreaterThan(JOURNAL_PAGE_MAX);
    const rows = csv.trimEnd().split("\r\n").slice(1);
    expect(rows.map((r) => r.slice(0, r.indexOf(",")))).toEqual(inRange.map((e) => e.seq));
  });
});

describe("the read index in Redis", () => {
  it("is written in the booking's own step: every member as the balance then, none for a refusal or a duplicate", async () => {
    const clock = { now: T0 };
    const prefix = `${redis.prefix}atomic:`;
    const l = createRedisLedger({ redis: redis.redis, prefix, now: () => clock.now });
    const k = keyspace(prefix);
    const [alice] = people as [AccountId];
    const count = () => redis.redis.zcard(k.ledgerIndex);
    const last = async (acc: AccountId) => {
      const page = await l.accountEntries(acc, { after: "0-0", limit: 1_000 });
      return page.lines.at(-1);
    };
    const steps: Array<() => Promise<{ ok: boolean }>> = [
      () =>
        l.transfer({ id: "c1", debit: funding, credit: alice, amountPaisa: 5_000, kind: "credit" }),
      () => l.hold({ id: "h1", debit: alice, credit: sales, amountPaisa: 3_000, reference: "o1" }),
      () => l.post("h1"),
      () => l.hold({ id: "h2", debit: alice, credit: sales, amountPaisa: 1_500, reference: "o2" }),
      () => l.void("h2"),
    ];
    for (const step of steps) {
      clock.now += 1_000;
      const before = await count();
      const r = await step();
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const e = (r as unknown as { entry: JournalEntry }).entry;
      expect(await count()).toBe(before + 2 + (e.reference ? 1 : 0));
      for (const acc of [e.debit, e.credit]) {
        const b = await l.balance(acc);
        expect(await last(acc)).toEqual({
          entry: e,
          postedPaisa: b.postedPaisa,
          heldPaisa: b.heldPaisa,
        });
      }
    }
    const before = await count();
    const refused = await l.hold({ id: "h3", debit: alice, credit: sales, amountPaisa: 1e9 });
    expect(refused.ok).toBe(false);
    const again = await l.post("h1");
    expect(again).toMatchObject({ ok: true, duplicate: true });
    expect(await count()).toBe(before);
  });

  it("is rebuilt by the backfill, member for member", async () => {
    const clock = { now: T0 };
    const prefix = `${redis.prefix}backfill:`;
    const l = createRedisLedger({ redis: redis.redis, prefix, now: () => clock.now });
    await history(l, clock, 120);
    const k = keyspace(prefix);
    const written = await redis.redis.zrange(k.ledgerIndex, "0", "-1");
    await redis.redis.del(k.ledgerIndex);
    expect(await backfillLedgerIndex(redis.redis, prefix)).toBe(written.length);
    expect(await redis.redis.zrange(k.ledgerIndex, "0", "-1")).toEqual(written);
    expect(await backfillLedgerIndex(redis.redis, prefix)).toBe(0);
  });

  it("is backfilled once per journal before a start reports ready (ensureLedgerIndex)", async () => {
    const clock = { now: T0 };
    const prefix = `${redis.prefix}ensure:`;
    const l = createRedisLedger({ redis: redis.redis, prefix, now: () => clock.now });
    await history(l, clock, 60);
    const k = keyspace(prefix);
    const written = await redis.redis.zrange(k.ledgerIndex, "0", "-1");
    // A journal booked before the index existed: no index, no mark.
    await redis.redis.del(k.ledgerIndex);
    const runs: number[] = [];
    await ensureLedgerIndex(redis.redis, prefix, (added) => runs.push(added));
    expect(runs).toEqual([written.length]);
    expect(await redis.redis.zrange(k.ledgerIndex, "0", "-1")).toEqual(written);
    expect(await redis.redis.get(k.ledgerIndexComplete)).not.toBeNull();
    // The next start finds the mark and reads nothing.
    await ensureLedgerIndex(redis.redis, prefix, (added) => runs.push(added));
    expect(runs).toHaveLength(1);
  });

  it("is written by the order scripts too: the hold in the create, the post, float and fee in the update", async () => {
    const prefix = `${redis.prefix}orders:`;
    const ledger = createRedisLedger({ redis: redis.redis, prefix });
    const store = createRedisOrderStore({ redis: redis.redis, prefix });
    const [alice] = people as [AccountId];
    const userId = 1001;
    await ledger.transfer({
      id: "top",
      debit: funding,
      credit: alice,
      amountPaisa: 50_000,
      kind: "credit",
    });
    const reference = "1700000000077";
    const price = { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 200, totalPaisa: 10_300 };
    const order = placedOrder({
      reference,
      idempotencyKey: `idem-${reference}`,
      userId,
      chatId: userId,
      amountPaisa: 10_000,
      price,
      holdId: holdIdOf(reference),
    });
    await store.create(order);
    expect((await ledger.entriesOf(reference)).map((e) => e.kind)).toEqual(["hold"]);
    expect((await ledger.accountEntries(alice, {})).lines.at(-1)).toMatchObject({
      postedPaisa: 50_000,
      heldPaisa: 10_300,
    });
    const wallet = {
      amountPaisa: 10_000,
      serviceChargePaisa: 300,
      instantDiscountPaisa: 100,
      debitAmountPaisa: 10_200,
      creditAvailablePaisa: 500_000,
      commissionPaisa: 250,
    };
    await store.update(reference, (cur) => {
      const t = transition(cur, { source: "webhook", status: "success", at: Date.now(), wallet });
      return t.changed ? { order: t.order, notifications: t.notifications } : null;
    });
    const kinds = (await ledger.entriesOf(reference)).map((e) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(["hold", "post"]);
    expect(kinds).toEqual(expect.arrayContaining(["float_debit", "fee"]));
    const b = await ledger.balance(alice);
    expect((await ledger.accountEntries(alice, {})).lines.at(-1)).toMatchObject({
      postedPaisa: b.postedPaisa,
      heldPaisa: 0,
    });
  });
});
