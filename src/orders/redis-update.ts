import { parseLedgerReply, transferArgv } from "../ledger/lua.ts";
import type { LedgerResult } from "../ledger/model.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { isFinal, type Order } from "./model.ts";
import { validOrder } from "./order-check.ts";
import { owedWindows } from "./owed.ts";
import { balanceAccountOf, bookingsOf, settlementOf } from "./postings.ts";
import { cloneJson, orderJson, withBalanceAfter } from "./redis-codec.ts";
import type { RedisOrderEnv } from "./redis-env.ts";
import { orderUpdate } from "./redis-scripts.ts";
import {
  CAS_ATTEMPTS,
  type Mutation,
  StoreConflictError,
  type TakenTransaction,
  type UpdateResult,
} from "./store.ts";

/**
 * The Redis order store's compare-and-set (OrderStore.update): the order, its indexes, its
 * notifications (outbox) and its postings (hold settled, bookings) in one script, run only if the
 * version read is still the stored one; otherwise read again and retry.
 */

/**
 * One attempt: the written order's result, null when another writer won, or the transaction id
 * the write gave the order found indexed to another order (nothing written).
 */
async function writeOnce(
  env: RedisOrderEnv,
  current: Order,
  result: NonNullable<ReturnType<Mutation>>,
): Promise<UpdateResult | { taken: TakenTransaction } | null> {
  const { redis, k } = env;
  // Every stored order is valid by orderSchema (validOrder: as it is, or through the parse). As it
  // is, the written order is the mutation's own object, not zod's copy: the mutations build it
  // from cloneJson of the read and from the event zod parsed in apply, so it shares nothing a
  // caller still holds; a mutation must not put in an object its caller keeps (review s26-c).
  const written = validOrder({ ...result.order, version: current.version + 1 });
  const action = settlementOf(current, written);
  const at = env.now();
  const transfers = bookingsOf(current, written);
  const balanceAccount = balanceAccountOf(current, written);
  const owed = owedWindows(current, written, result.owes);
  env.hold();
  const txArg =
    current.version > 0 && current.transactionId === written.transactionId
      ? ""
      : (written.transactionId ?? "");
  const [ok, settled, booked, after] = await orderUpdate.runWithKeys(
    redis,
    {
      order: k.order(current.reference),
      open: k.open,
      byTx: k.byTransaction,
      outbox: k.outbox,
      ...env.ledger,
    },
    owed.map(env.owedSet),
    String(current.version),
    String(written.version),
    orderJson(written, balanceAccount),
    current.reference,
    isFinal(written.status) ? "1" : "0",
    // Indexed by the write that first carried it (HSETNX): a later one has nothing to add.
    txArg,
    action ?? "",
    action ? (written.holdId ?? "") : "",
    String(at),
    balanceAccount ?? "",
    String(transfers.length),
    ...transfers.flatMap((t) => transferArgv(t, at)),
    ...result.notifications.map((n) => JSON.stringify(n)),
  );
  if (ok === -3) return { taken: { transactionId: txArg, reference: String(settled) } };
  if (ok !== 1) return null;
  // The submitting mark is what stops a second execute: lost at a failover, the order would be
  // "placed" again. Not on enough replicas: throw, so nothing is sent.
  if (written.status === "submitting" && current.status !== "submitting") {
    const key = k.order(current.reference);
    await ensureReplicated(
      redis,
      `order ${current.reference} submitting`,
      async () => (await redis.hget(key, "v")) === String(written.version),
    );
  }
  const settlement: LedgerResult | undefined =
    settled === undefined || settled === 0 ? undefined : parseLedgerReply(settled);
  const bookings = (booked ?? []).map(parseLedgerReply);
  return {
    order: withBalanceAfter(written, after),
    updated: true,
    notifications: result.notifications,
    ...(settlement ? { settlement } : {}),
    ...(bookings.length > 0 ? { bookings } : {}),
    ...(owed.length > 0 ? { owed } : {}),
  };
}

export async function updateOrder(
  env: RedisOrderEnv,
  reference: string,
  mutate: Mutation,
  known?: Order,
): Promise<UpdateResult | null> {
  let taken: TakenTransaction | undefined;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const current = attempt === 0 && known ? known : await env.load(reference);
    if (!current) return null;
    const result = mutate(cloneJson(current), taken);
    if (!result) return { order: current, updated: false, notifications: [] };
    const done = await writeOnce(env, current, result);
    // Another order holds the transaction id: the mutation runs again knowing it (an index is
    // never rewritten, so it stays known); nothing was written.
    if (done && "taken" in done) {
      taken = done.taken;
      continue;
    }
    if (done) return done;
    // Another writer won: back off a little (jittered) and re-run the mutation on fresh data.
    await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
  }
  throw new StoreConflictError(reference);
}
