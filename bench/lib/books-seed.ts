import { account } from "../../src/ledger/chart.ts";
import type { LedgerStore } from "../../src/ledger/store.ts";

/**
 * The books of a busy month, written through the ledger store's own scripts (the Lua production
 * runs, which also writes the read index): every customer is credited first, then each order books
 * what a successful prepaid order books (src/orders/postings.ts): the hold on the customer, its
 * post, the aggregator's float debit and the fee, all carrying the order's reference. Four entries
 * an order, so `transfers` entries are `transfers / 4` orders (plus one credit per customer).
 *
 * Pipelined: `batch` orders' calls are issued without waiting, in order, on one connection, so
 * Redis runs each order's hold before its post (the scripts are loaded first: a NOSCRIPT retry
 * would reorder them). The store's clock is set before each call (it reads it synchronously).
 */
export interface BooksPlan {
  transfers: number;
  /** The order (of the orders bench) the ledger's j-th order stands for: reference, customer, time. */
  order: (j: number) => { reference: string; userId: number; at: number };
  customers: number[];
  clock: { now: number };
  batch?: number;
}

const PRICE = 15_000;
const FEE = 200;

export async function seedBooks(ledger: LedgerStore, plan: BooksPlan): Promise<number> {
  const { clock } = plan;
  const batch = plan.batch ?? 500;
  const ok = (r: { ok: boolean }) => {
    if (!r.ok) throw new Error(`seeding the books was refused: ${JSON.stringify(r)}`);
  };
  clock.now = plan.order(0).at - 60_000;
  const credits: Array<Promise<unknown>> = [];
  for (const u of plan.customers)
    credits.push(
      ledger
        .transfer({
          id: `seed:${u}`,
          debit: account.merchant.funding,
          credit: account.customer(u),
          amountPaisa: 1_000_000_000,
          kind: "credit",
        })
        .then(ok),
    );
  await Promise.all(credits);
  const orders = Math.floor(plan.transfers / 4);
  const { sales, float, fees } = account.merchant;
  /** One order's calls, each setting the clock it books at. */
  const steps = (j: number): Array<() => Promise<void>> => {
    const o = plan.order(j);
    const hold = `order:${o.reference}:hold`;
    const at = (ms: number) => {
      clock.now = o.at + ms;
    };
    const transfer = (kind: "float_debit" | "fee", credit: typeof float, amountPaisa: number) => {
      at(800);
      return ledger
        .transfer({
          id: `order:${o.reference}:${kind}`,
          debit: sales,
          credit,
          amountPaisa,
          kind,
          reference: o.reference,
        })
        .then(ok);
    };
    return [
      () => {
        at(0);
        return ledger
          .hold({
            id: hold,
            debit: account.customer(o.userId),
            credit: sales,
            amountPaisa: PRICE,
            reference: o.reference,
          })
          .then(ok);
      },
      () => {
        at(800);
        return ledger.post(hold).then(ok);
      },
      () => transfer("float_debit", float, PRICE - FEE),
      () => transfer("fee", fees, FEE),
    ];
  };
  // The first order step by step: every script is loaded before the pipelined ones.
  for (const step of steps(0)) await step();
  for (let start = 1; start < orders; start += batch) {
    const calls: Array<Promise<void>> = [];
    for (let j = start; j < Math.min(orders, start + batch); j++)
      for (const step of steps(j)) calls.push(step());
    await Promise.all(calls);
  }
  return orders;
}
