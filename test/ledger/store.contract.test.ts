import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  exportJournalCsv,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { testRedis } from "../support/redis.ts";

/**
 * ONE contract for the merchant's books, run against the memory store and the Redis one (the Lua
 * scripts production runs). The clock is injected; `make` builds a store over the same data (for
 * Redis on another connection, as a second process would).
 */
interface Harness {
  make(): LedgerStore;
  close(): Promise<void>;
}

let now = 1_741_600_000_000;
const clock = () => now;

function memoryHarness(): Harness {
  const store = createMemoryLedger({ now: clock });
  return { make: () => store, close: async () => {} };
}

function redisHarness(): Harness {
  const t = testRedis("ledger");
  let first = true;
  return {
    make: () => {
      const redis = first ? t.redis : t.connect();
      first = false;
      return createRedisLedger({ redis, prefix: t.prefix, now: clock });
    },
    close: () => t.cleanup(),
  };
}

const adapters: Array<[string, () => Harness]> = [
  ["memory", memoryHarness],
  ["redis", redisHarness],
];

const alice = account.customer(5555);
const bob = account.customer(6666);
const shop = account.agent("shop-1");
const { funding, sales, float } = account.merchant;

describe.each(adapters)("ledger contract: %s", (_name, makeHarness) => {
  let h: Harness;
  let l: LedgerStore;
  beforeEach(() => {
    now = 1_741_600_000_000;
    h = makeHarness();
    l = h.make();
  });
  afterEach(async () => {
    // Whatever a test did, the books must balance.
    const report = await l.check();
    expect(report).toMatchObject({ ok: true, postedSum: 0, pendingSum: 0, differences: [] });
    await h.close();
  });

  it("credits an agent, the agent cashes in a customer, balances sum to zero", async () => {
    const r1 = await l.transfer({
      id: "fund-1",
      debit: funding,
      credit: shop,
      amountPaisa: 100_000,
      kind: "credit",
    });
    expect(r1).toMatchObject({
      ok: true,
      duplicate: false,
      entry: { kind: "credit", amountPaisa: 100_000 },
    });
    const r2 = await l.transfer({
      id: "cash-1",
      debit: shop,
      credit: alice,
      amountPaisa: 50_000,
      kind: "cash_in",
      reference: "receipt 17",
    });
    expect(r2.ok).toBe(true);
    expect(await l.balance(shop)).toMatchObject({ postedPaisa: 50_000, availablePaisa: 50_000 });
    expect(await l.balance(alice)).toMatchObject({
      creditsPosted: 50_000,
      debitsPosted: 0,
      postedPaisa: 50_000,
      heldPaisa: 0,
      availablePaisa: 50_000,
    });
    expect(await l.balance(funding)).toMatchObject({
      debitsPosted: 100_000,
      postedPaisa: -100_000,
    });
    expect(await l.accounts()).toEqual([alice, shop, funding].sort());
    expect(await l.balance(bob)).toMatchObject({ postedPaisa: 0, availablePaisa: 0 });
  });

  it("refuses a debit beyond a customer's or an agent's credits and says the shortfall", async () => {
    await l.transfer({
      id: "f",
      debit: funding,
      credit: alice,
      amountPaisa: 30_000,
      kind: "credit",
    });
    expect(await l.hold({ id: "o1", debit: alice, credit: sales, amountPaisa: 30_001 })).toEqual({
      ok: false,
      refusal: {
        code: "insufficient_funds",
        account: alice,
        availablePaisa: 30_000,
        amountPaisa: 30_001,
        shortfallPaisa: 1,
      },
    });
    expect(
      await l.transfer({ id: "c", debit: shop, credit: bob, amountPaisa: 1, kind: "cash_in" }),
    ).toMatchObject({
      ok: false,
      refusal: { code: "insufficient_funds", account: shop, shortfallPaisa: 1 },
    });
    // A refusal writes nothing; the id stays free for a later attempt.
    expect((await l.journal()).entries).toHaveLength(1);
    await l.transfer({ id: "f2", debit: funding, credit: alice, amountPaisa: 1, kind: "credit" });
    expect(
      await l.hold({ id: "o1", debit: alice, credit: sales, amountPaisa: 30_001 }),
    ).toMatchObject({
      ok: true,
      duplicate: false,
    });
    // The merchant's own accounts carry no flag: the float may go below zero (alerts instead).
    expect(
      (
        await l.transfer({
          id: "fd",
          debit: sales,
          credit: float,
          amountPaisa: 99_999,
          kind: "float_debit",
        })
      ).ok,
    ).toBe(true);
  });

  it("reads a transfer's or a hold's own entry by its id; nothing for an id never booked", async () => {
    await l.transfer({
      id: "f",
      debit: funding,
      credit: shop,
      amountPaisa: 50_000,
      kind: "credit",
    });
    now += 1_000;
    const booked = await l.transfer({
      id: "cashin-1",
      debit: shop,
      credit: alice,
      amountPaisa: 20_000,
      kind: "cash_in",
    });
    await l.hold({ id: "o1", debit: alice, credit: sales, amountPaisa: 5_000 });
    expect(booked.ok && (await l.entryOf("cashin-1"))).toEqual(booked.ok && booked.entry);
    expect(await l.entryOf("cashin-1")).toMatchObject({
      kind: "cash_in",
      debit: shop,
      credit: alice,
      amountPaisa: 20_000,
      at: now,
    });
    expect(await l.entryOf("o1")).toMatchObject({ id: "o1", kind: "hold" });
    // Refused transfers book nothing under their id; a malformed id names nothing.
    await l.transfer({ id: "big", debit: bob, credit: alice, amountPaisa: 1, kind: "cash_in" });
    expect(await l.entryOf("big")).toBeNull();
    expect(await l.entryOf("never")).toBeNull();
    expect(await l.entryOf("o1/post")).toBeNull();
  });

  it("holds reserve the balance; a second hold beyond what is left is refused", async () => {
    await l.transfer({
      id: "f",
      debit: funding,
      credit: alice,
      amountPaisa: 50_000,
      kind: "credit",
    });
    expect((await l.hold({ id: "o1", debit: alice, credit: sales, amountPaisa: 30_000 })).ok).toBe(
      true,
    );
    expect(await l.balance(alice)).toMatchObject({
      postedPaisa: 50_000,
      heldPaisa: 30_000,
      availablePaisa: 20_000,
      debitsPending: 30_000,
    });
    expect(await l.balance(sales)).toMatchObject({ creditsPending: 30_000, postedPaisa: 0 });
    expect(
      await l.hold({ id: "o2", debit: alice, credit: sales, amountPaisa: 20_001 }),
    ).toMatchObject({
      ok: false,
      refusal: { code: "insufficient_funds", availablePaisa: 20_000, shortfallPaisa: 1 },
    });
    expect(await l.pendingOf("o1")).toMatchObject({
      state: "pending",
      hold: { id: "o1", kind: "hold" },
    });
    expect(await l.pendingOf("o2")).toBeNull();
  });

  it("posts a hold once: the money moves, a second post is a duplicate, a void after it is refused", async () => {
    await l.transfer({
      id: "f",
      debit: funding,
      credit: alice,
      amountPaisa: 50_000,
      kind: "credit",
    });
    await l.hold({
      id: "o1",
      debit: alice,
      credit: sales,
      amountPaisa: 30_000,
      reference: "1741600000001",
    });
    now += 1_000;
    const posted = await l.post("o1");
    expect(posted).toMatchObject({
      ok: true,
      duplicate: false,
      entry: {
        id: "o1/post",
        kind: "post",
        pendingId: "o1",
        debit: alice,
        credit: sales,
        amountPaisa: 30_000,
        reference: "1741600000001",
        at: now,
      },
    });
    expect(await l.balance(alice)).toMatchObject({
      postedPaisa: 20_000,
      heldPaisa: 0,
      availablePaisa: 20_000,
    });
    expect(await l.balance(sales)).toMatchObject({ postedPaisa: 30_000, creditsPending: 0 });
    now += 1_000;
    const again = await h.make().post("o1");
    expect(again).toEqual({ ok: true, duplicate: true, entry: posted.ok ? posted.entry : null });
    expect(await l.void("o1")).toEqual({
      ok: false,
      refusal: { code: "already_resolved", pendingId: "o1", state: "posted" },
    });
    expect(await l.pendingOf("o1")).toMatchObject({
      state: "posted",
      resolution: { id: "o1/post" },
    });
    expect(await l.balance(alice)).toMatchObject({ postedPaisa: 20_000 });
  });

  it("voids a hold once: the money returns, a post after it is refused", async () => {
    await l.transfer({
      id: "f",
      debit: funding,
      credit: alice,
      amountPaisa: 50_000,
      kind: "credit",
    });
    await l.hold({ id: "o1", debit: alice, credit: sales, amountPaisa: 50_000 });
    expect(await l.void("o1")).toMatchObject({
      ok: true,
      duplicate: false,
      entry: { kind: "void", id: "o1/void" },
    });
    expect(await l.balance(alice)).toMatchObject({
      postedPaisa: 50_000,
      heldPaisa: 0,
      availablePaisa: 50_000,
    });
    expect(await l.balance(sales)).toMatchObject({ creditsPending: 0, creditsPosted: 0 });
    expect(await l.void("o1")).toMatchObject({
      ok: true,
      duplicate: true,
      entry: { kind: "void" },
    });
    expect(await l.post("o1")).toEqual({
      ok: false,
      refusal: { code: "already_resolved", pendingId: "o1", state: "voided" },
    });
    expect(await l.post("nope")).toEqual({
      ok: false,
      refusal: { code: "unknown_pending", pendingId: "nope" },
    });
    // A posted transfer is no pending one.
    expect(await l.void("f")).toEqual({
      ok: false,
      refusal: { code: "unknown_pending", pendingId: "f" },
    });
    expect((await l.journal()).entries.map((e) => e.kind)).toEqual(["credit", "hold", "void"]);
  });

  it("answers a resubmitted id with the first result, and refuses the id with other fields", async () => {
    const t = {
      id: "cash-9",
      debit: funding,
      credit: alice,
      amountPaisa: 10_000,
      kind: "credit" as const,
    };
    const first = await l.transfer(t);
    now += 60_000;
    const second = await h.make().transfer(t);
    expect(second).toEqual({ ok: true, duplicate: true, entry: first.ok ? first.entry : null });
    expect(await l.transfer({ ...t, amountPaisa: 10_001 })).toEqual({
      ok: false,
      refusal: { code: "id_conflict", id: "cash-9" },
    });
    expect(await l.transfer({ ...t, reference: "other" })).toMatchObject({ ok: false });
    // A hold under a transfer's id is another transfer too.
    expect(
      await l.hold({ id: "cash-9", debit: alice, credit: sales, amountPaisa: 1 }),
    ).toMatchObject({
      ok: false,
      refusal: { code: "id_conflict" },
    });
    expect(await l.balance(alice)).toMatchObject({ postedPaisa: 10_000 });
    expect((await l.journal()).entries).toHaveLength(1);
  });

  it("refuses malformed transfers before anything is written", async () => {
    await expect(
      l.transfer({ id: "x", debit: alice, credit: alice, amountPaisa: 1, kind: "credit" }),
    ).rejects.toThrow(/different accounts/);
    await expect(
      l.transfer({ id: "x", debit: funding, credit: alice, amountPaisa: 0, kind: "credit" }),
    ).rejects.toThrow();
    await expect(
      l.transfer({ id: "x", debit: funding, credit: alice, amountPaisa: 1.5, kind: "credit" }),
    ).rejects.toThrow();
    await expect(
      l.transfer({ id: "x", debit: alice, credit: funding, amountPaisa: 1, kind: "reversal" }),
    ).rejects.toThrow(/reason/);
    await expect(
      l.transfer({ id: "a/b", debit: funding, credit: alice, amountPaisa: 1, kind: "credit" }),
    ).rejects.toThrow();
    expect((await l.journal()).entries).toEqual([]);
  });

  it("keeps the journal in booking order, pages it, and ranges it by time", async () => {
    await l.transfer({ id: "t1", debit: funding, credit: alice, amountPaisa: 100, kind: "credit" });
    now += 10;
    await l.transfer({ id: "t2", debit: funding, credit: alice, amountPaisa: 200, kind: "credit" });
    // A clock that steps back books at the last entry's time: the journal never goes back.
    now -= 5;
    await l.transfer({ id: "t3", debit: funding, credit: alice, amountPaisa: 300, kind: "credit" });
    now += 100;
    await l.hold({ id: "t4", debit: alice, credit: sales, amountPaisa: 400 });
    await l.post("t4");
    const all = (await l.journal()).entries;
    expect(all.map((e) => e.id)).toEqual(["t1", "t2", "t3", "t4", "t4/post"]);
    const t0 = 1_741_600_000_000;
    expect(all.map((e) => e.at)).toEqual([t0, t0 + 10, t0 + 10, t0 + 105, t0 + 105]);
    expect(all.map((e) => e.seq)).toEqual([
      `${t0}-0`,
      `${t0 + 10}-0`,
      `${t0 + 10}-1`,
      `${t0 + 105}-0`,
      `${t0 + 105}-1`,
    ]);
    // Pages of two, following the cursor.
    const p1 = await l.journal({ limit: 2 });
    expect(p1.entries.map((e) => e.id)).toEqual(["t1", "t2"]);
    const p2 = await l.journal({ limit: 2, after: p1.next! });
    expect(p2.entries.map((e) => e.id)).toEqual(["t3", "t4"]);
    const p3 = await l.journal({ limit: 2, after: p2.next! });
    expect(p3).toEqual({ entries: [all[4]] });
    // [from, to): the end is exclusive.
    expect((await l.journal({ from: t0 + 10, to: t0 + 105 })).entries.map((e) => e.id)).toEqual([
      "t2",
      "t3",
    ]);
    expect((await l.journal({ from: t0 + 11 })).entries.map((e) => e.id)).toEqual([
      "t4",
      "t4/post",
    ]);
    expect(
      (await l.journal({ from: t0, to: t0 + 105, after: all[1]!.seq })).entries.map((e) => e.id),
    ).toEqual(["t3"]);
  });

  it("exports a date range of the journal as CSV, amounts in rupees", async () => {
    const day = Date.parse("2025-03-10T00:00:00Z");
    now = day - 1;
    await l.transfer({
      id: "before",
      debit: funding,
      credit: alice,
      amountPaisa: 1,
      kind: "credit",
    });
    now = day + 3_600_000;
    await l.transfer({
      id: "c1",
      debit: funding,
      credit: alice,
      amountPaisa: 53_344,
      kind: "credit",
      reference: 'cash, "counter"',
    });
    await l.transfer({
      id: "r1",
      debit: alice,
      credit: funding,
      amountPaisa: 5,
      kind: "reversal",
      reason: "=typo",
      reference: "c1",
    });
    now = day + 86_400_000;
    await l.transfer({
      id: "after",
      debit: funding,
      credit: alice,
      amountPaisa: 1,
      kind: "credit",
    });
    const csv = await exportJournalCsv(l, { from: day, to: day + 86_400_000 });
    expect(csv).toBe(
      [
        "seq,time_utc,id,kind,debit,credit,amount_rs,reference,pending_id,reason",
        `${day + 3_600_000}-0,2025-03-10T01:00:00.000Z,c1,credit,merchant:funding,customer:5555,533.44,"cash, ""counter""",,`,
        `${day + 3_600_000}-1,2025-03-10T01:00:00.000Z,r1,reversal,customer:5555,merchant:funding,0.05,c1,,'=typo`,
        "",
      ].join("\r\n"),
    );
  });
});
