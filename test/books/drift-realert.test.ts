import { afterAll, describe, expect, it } from "vitest";
import { createBooks, createRedisCrossings } from "../../src/books/index.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { booksAlertText } from "../../src/notify/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { type AdminAlert, adminAlertReader, creditAgentSeven } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * Review s25-c, finding 3: a float drift that stays (nothing in the product can book it away, e.g.
 * a confirmed contradiction) kept its one alert standing, so a later, larger difference raised no
 * alert at all. Now a drift that moves beyond the tolerance from the drift last told is told
 * again, saying both figures; a drift that stays put (or moves within the tolerance) says nothing
 * more: one alert per move, at most one per check. On Redis (the crossing and the outbox).
 */

const r = testRedis("books-realert");
afterAll(() => r.cleanup());

const ADMINS = [3101, 3102];

async function books(name: string) {
  const prefix = `${r.prefix}${name}:`;
  const ledger = createRedisLedger({ redis: r.redis, prefix });
  const wallet = { value: 1_000_000 };
  const store = createRedisOrderStore({ redis: r.redis, prefix });
  const b = createBooks(
    {
      ledger,
      orders: store,
      walletBalance: async () => ({ creditAvailablePaisa: wallet.value }),
      crossings: createRedisCrossings(r.redis, prefix),
      now: () => Date.now(),
    },
    { tolerancePaisa: 100 },
  );
  await creditAgentSeven(ledger);
  const read = adminAlertReader(r.redis, prefix);
  let seen: AdminAlert[] = [];
  /** The alerts queued so far, to the first admin, as words. */
  const alerts = async () => {
    seen = await read();
    return seen.filter((a) => a.chatId === ADMINS[0]).map((a) => booksAlertText(a));
  };
  return { b, wallet, store, alerts, all: () => seen };
}

describe("a float drift that stays", () => {
  it("is told again when it grows beyond the tolerance from the drift last told, once per move", async () => {
    const s = await books("grows");
    await s.b.check(ADMINS); // books the opening float
    // Day 1: Rs 5 off (beyond the Rs 1 tolerance): told once.
    s.wallet.value -= 500;
    await s.b.check(ADMINS);
    expect(await s.alerts()).toEqual([expect.stringContaining("Difference: -Rs 5 (tolerance")]);
    // It stays, or moves within the tolerance: nothing more.
    await s.b.check(ADMINS);
    s.wallet.value -= 50;
    await s.b.check(ADMINS);
    expect(await s.alerts()).toHaveLength(1);
    // Day 20: Rs 500 off: told again, with the difference told before.
    s.wallet.value -= 49_450;
    const grown = await s.b.check(ADMINS);
    const [, second, ...more] = await s.alerts();
    expect(more).toEqual([]);
    expect(second).toContain("Difference: -Rs 500 (tolerance");
    expect(second).toContain("which told a difference of -Rs 5.");
    expect(s.all().filter((a) => /Rs 500/.test(booksAlertText(a)))).toHaveLength(ADMINS.length);
    expect(grown.lastCheck).toMatchObject({ verdict: "beyond", alertedAdmins: ADMINS.length });
    // Steady at Rs 500 over several checks: no flood.
    await s.b.check(ADMINS);
    await s.b.check(ADMINS);
    expect(await s.alerts()).toHaveLength(2);
    // Back towards Rs 5 is a move too (beyond the tolerance from Rs 500): told.
    s.wallet.value += 49_500;
    await s.b.check(ADMINS);
    expect((await s.alerts()).slice(2)).toEqual([
      expect.stringContaining("Difference: -Rs 5 (tolerance"),
    ]);
    // Cleared: re-armed as before; a new drift is a new first alert (no "moved" line).
    s.wallet.value += 500;
    await s.b.check(ADMINS);
    s.wallet.value -= 300;
    await s.b.check(ADMINS);
    const last = (await s.alerts()).at(-1);
    expect(last).toContain("Difference: -Rs 3 (tolerance");
    expect(last).not.toContain("last alert");
    expect(await s.alerts()).toHaveLength(4);
  });

  // Review s25-e, 4: the re-alert weighed the raw move against the tolerance alone, so debits in
  // flight on a check day (their figures unknown) read as "it has moved". The same nearest-end
  // rule as the verdict: a move the orders in flight can explain is no move.
  it("is not told again for a move the orders in flight can explain; a move beyond them is", async () => {
    const s = await books("in-flight");
    await s.b.check(ADMINS); // books the opening float
    s.wallet.value -= 50_000; // Rs 500 off: told once
    await s.b.check(ADMINS);
    expect(await s.alerts()).toHaveLength(1);
    // A Rs 100 order placed, its debit unknown (up to twice its amount): the aggregator took Rs 80.
    await s.store.create(placedOrder({ reference: "1700000009001", idempotencyKey: "f1" }));
    s.wallet.value -= 8_000;
    const busy = await s.b.check(ADMINS);
    expect(busy.float).toMatchObject({ unknownDebits: 1, unknownBoundPaisa: 20_000 });
    expect(busy.lastCheck).toMatchObject({ verdict: "beyond" });
    expect(await s.alerts()).toHaveLength(1);
    // Rs 300 more: beyond what the order in flight can explain: told, with the Rs 500 told before.
    s.wallet.value -= 30_000;
    await s.b.check(ADMINS);
    const [, moved, ...more] = await s.alerts();
    expect(more).toEqual([]);
    expect(moved).toContain("which told a difference of -Rs 500.");
  });

  // Review s25-e (note): the crossing stands but the check's record lost its drift alert (its
  // write failed after the alert's crossing): the re-alert must not switch itself off.
  it("is told again after a move even when the record lost the standing alert", async () => {
    const s = await books("lost-record");
    await s.b.check(ADMINS); // books the opening float
    s.wallet.value -= 500;
    await s.b.check(ADMINS);
    expect(await s.alerts()).toHaveLength(1);
    const notes = createRedisCrossings(r.redis, `${r.prefix}lost-record:`);
    const record = JSON.parse((await notes.recall("books-check")) ?? "{}") as {
      alerts?: { drift?: unknown };
    };
    expect(record.alerts?.drift).toBeDefined();
    delete record.alerts?.drift;
    await notes.remember("books-check", JSON.stringify(record));
    await s.b.check(ADMINS); // takes today's drift as told, without a word
    expect(await s.alerts()).toHaveLength(1);
    s.wallet.value -= 49_500;
    await s.b.check(ADMINS);
    const [, moved, ...more] = await s.alerts();
    expect(more).toEqual([]);
    expect(moved).toContain("Difference: -Rs 500 (tolerance");
  });
});
