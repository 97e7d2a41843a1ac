import { holdArgv, parseLedgerReply } from "../ledger/lua.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { holdIdOf, isFinal, type Order, orderSchema } from "./model.ts";
import { balanceAccountOf, holdOf } from "./postings.ts";
import { orderJson, withBalanceAfter } from "./redis-codec.ts";
import type { RedisOrderEnv } from "./redis-env.ts";
import { orderCreate, REFERENCE_SLOT } from "./redis-scripts.ts";
import { indexArgs } from "./search.ts";
import { type CreateResult, HoldRefusedError, ReferenceInUseError } from "./store.ts";

/**
 * The Redis order store's create (OrderStore.create): idempotency key, order, user index, open set,
 * alias, hold and the search index's members (search.ts) in one script; a numbered create takes its reference from the counter in the
 * same step.
 */

/** The script's arguments for an order, numbered by the script or under its own reference. */
function createArgs(env: RedisOrderEnv, valid: Order, numbered: boolean, at: number, seed: string) {
  const { k } = env;
  const alias =
    valid.executeReference !== undefined && valid.executeReference !== valid.reference
      ? valid.executeReference
      : "";
  const hold = holdOf(valid);
  const balanceAccount = balanceAccountOf(null, valid);
  // Numbered here: the script puts the reference (and the hold id) first in the JSON, and in
  // the hold's id, fingerprint and reference (REFERENCE_SLOT).
  const { reference: _placeholder, holdId: _holdId, ...unnumbered } = valid;
  const json = numbered
    ? orderJson(unnumbered as Order, balanceAccount)
    : orderJson(valid, balanceAccount);
  const holdInput =
    hold && numbered ? { ...hold, id: holdIdOf(REFERENCE_SLOT), reference: REFERENCE_SLOT } : hold;
  const keys = {
    idempotency: k.idempotency(valid.idempotencyKey),
    order: numbered ? k.order("") : k.order(valid.reference),
    byUser: k.byUser(valid.userId),
    open: k.open,
    alias: alias ? k.alias(alias) : k.order(numbered ? "" : valid.reference),
    ...env.ledger,
    seq: k.referenceSeq,
    search: k.orderSearch,
  };
  const argv = [
    numbered ? "" : valid.reference,
    json,
    String(valid.createdAt),
    String(valid.version),
    alias,
    isFinal(valid.status) ? "0" : "1",
    holdInput ? "1" : "0",
    balanceAccount ?? "",
    ...(holdInput ? holdArgv(holdInput, at) : []),
    ...(numbered ? [seed, valid.holdId === undefined ? "" : holdIdOf(REFERENCE_SLOT)] : []),
    ...indexArgs(valid),
  ];
  return { keys, argv };
}

export async function createOrder(
  env: RedisOrderEnv,
  order: Order,
  opts: { numbered?: boolean } = {},
): Promise<CreateResult> {
  const { redis, k } = env;
  const numbered = opts.numbered === true;
  const valid = orderSchema.parse(order);
  const at = env.now();
  const run = (seed: string) => {
    const { keys, argv } = createArgs(env, valid, numbered, at, seed);
    return orderCreate.run(redis, keys, ...argv);
  };
  let reply = await run(numbered ? await env.firstSeed() : "");
  // The counter is not there yet: seeded, in the same step, from what seedOf reads.
  if (reply[0] === -2) reply = await run(await env.seedOf());
  const [code, ref, third] = reply;
  if (ref === undefined) throw new Error("the reference counter was not seeded");
  if (numbered) env.numbered();
  if (code === -1) throw new ReferenceInUseError(ref);
  if (code === 2) {
    const r = parseLedgerReply(third);
    if (!r.ok) throw new HoldRefusedError(r.refusal);
    throw new Error(`order ${ref}: unexpected hold reply`);
  }
  // A receipt is shown for a created order: it must outlive a failover (REDIS_WAIT_REPLICAS).
  const idem = k.idempotency(valid.idempotencyKey);
  await ensureReplicated(
    redis,
    `order ${ref} created`,
    async () => (await redis.get(idem)) === ref,
  );
  if (code === 0) {
    const existing = await env.load(ref);
    if (!existing) throw new Error(`idempotency key points at missing order ${ref}`);
    return { created: false, order: existing };
  }
  const created: Order = numbered
    ? { ...valid, reference: ref, ...(valid.holdId === undefined ? {} : { holdId: holdIdOf(ref) }) }
    : valid;
  return { created: true, order: withBalanceAfter(created, third) };
}
