import type { Redis } from "ioredis";
import { statementOf, statementPage } from "../src/accounts/statement.ts";
import { transfersOf } from "../src/dashboard/order-transfers.ts";
import { account } from "../src/ledger/chart.ts";
import type { LedgerStore } from "../src/ledger/store.ts";
import type { OrderStore } from "../src/orders/store.ts";
import type { Keyspace } from "../src/redis/keyspace.ts";
import type { ExportOut } from "./journal-export.ts";
import { runInChild } from "./lib/child.ts";
import { round } from "./lib/stats.ts";

/**
 * The back office's reads of the books and of one order (issue 31 target 5), over the books
 * lib/books-seed.ts wrote: a customer's statement (the first page of 50 of the month, for the
 * busiest customer and an ordinary one; an ordinary one's first page of a random week, whose
 * opening balance is the member just before it; an ordinary customer's whole month), an order's
 * timeline (the reads the order page does: the order, then its transfers the way
 * dashboard/order-transfers.ts finds them today, a scan of the journal over the order's lifetime,
 * and by the ledger's reference index), and the journal export in a process of its own.
 */

export interface BooksContext {
  redis: Redis;
  k: Keyspace;
  store: OrderStore;
  ledger: LedgerStore;
  prefix: string;
  /** The month: [start, end). */
  start: number;
  end: number;
  /** How many of the ledger's orders, and which order (reference, customer) the j-th is. */
  ledgerOrders: number;
  order: (j: number) => { reference: string; userId: number; at: number };
  busy: number;
  time: (
    run: () => Promise<unknown>,
    n?: number,
  ) => Promise<{ p50: number; p99: number; mean: number; floorP50: number; floorP99: number }>;
}

const DAY = 86_400_000;

export async function measureBooks(c: BooksContext) {
  const { ledger, start, end } = c;
  const pickJ = () => Math.floor(Math.random() * c.ledgerOrders);
  /** A customer of the ledger's orders who is not the busy one. */
  const ordinary = () => {
    for (;;) {
      const u = c.order(pickJ()).userId;
      if (u !== c.busy) return u;
    }
  };
  const month = { from: start - DAY, to: end + DAY };
  const busyAcc = account.customer(c.busy);
  const sample = account.customer(ordinary());
  const linesOf = async (acc: typeof busyAcc) => {
    const s = await statementOf(ledger, acc, month);
    return s.complete ? s.lines.length : -1;
  };
  const timelineToday = async () => {
    const ref = c.order(pickJ()).reference;
    const o = await c.store.get(ref);
    if (!o) throw new Error(`order ${ref} missing`);
    const found = await transfersOf(ledger, { ...o, holdId: `order:${ref}:hold` });
    if (found.length !== 4) throw new Error(`order ${ref}: ${found.length} transfers`);
  };
  const timelineIndexed = async () => {
    const ref = c.order(pickJ()).reference;
    const [o, found] = await Promise.all([c.store.get(ref), ledger.entriesOf(ref)]);
    if (!o || found.length !== 4) throw new Error(`order ${ref}: ${found.length} transfers`);
  };
  const ms = {
    floorBalanceHget: await c.time(() =>
      c.redis.hget(c.k.ledgerBalances, `${account.customer(ordinary())}|cp`),
    ),
    statementPageBusy: await c.time(() => statementPage(ledger, busyAcc, month, { limit: 50 })),
    statementPageOrdinary: await c.time(() =>
      statementPage(ledger, account.customer(ordinary()), month, { limit: 50 }),
    ),
    statementWeekOrdinary: await c.time(() => {
      const from = start + Math.floor(Math.random() * 23) * DAY;
      return statementPage(
        ledger,
        account.customer(ordinary()),
        { from, to: from + 7 * DAY },
        { limit: 50 },
      );
    }),
    statementMonthOrdinary: await c.time(() =>
      statementOf(ledger, account.customer(ordinary()), month),
    ),
    statementMonthBusy: await c.time(() => statementOf(ledger, busyAcc, month), 5),
    timelineToday: await c.time(timelineToday, 50),
    timelineIndexed: await c.time(timelineIndexed),
  };
  const exportRun = (thread: "worker" | "main") =>
    runInChild<ExportOut>(new URL("./journal-export.ts", import.meta.url).pathname, {
      env: {
        BENCH_EXPORT_THREAD: thread,
        BENCH_EXPORT_PREFIX: c.prefix,
        BENCH_EXPORT_FROM: String(month.from),
        BENCH_EXPORT_TO: String(month.to),
      },
    });
  // The product's way (its own thread, a capped heap), then the same chunks on the main thread.
  const exported = await exportRun("worker");
  const exportMain = await exportRun("main");
  return {
    journalEntries: await c.redis.xlen(c.k.ledgerJournal),
    indexMembers: await c.redis.zcard(c.k.ledgerIndex),
    indexBytesPerEntry: round(
      Number(await c.redis.call("MEMORY", "USAGE", c.k.ledgerIndex, "SAMPLES", "0")) /
        Math.max(1, await c.redis.xlen(c.k.ledgerJournal)),
    ),
    busyLines: await linesOf(busyAcc),
    ordinaryLines: await linesOf(sample),
    ms,
    export: exported,
    exportMain,
  };
}
