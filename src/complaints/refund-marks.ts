import type { RedisClient } from "../redis/connection.ts";
import {
  complaintRefundedOrdersKey,
  complaintRefundMarksCursorKey,
  keyspace,
} from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { complaintSchema, isClosed } from "./model.ts";

/**
 * The order -> refunded complaint mark for refunds booked before the mark existed: their orders
 * were guarded only by the service's read of the order's 100 newest complaints, so after 100
 * later complaints a second refund got through. The backfill walks the complaints by number
 * (C100001 on, as `nextReference` hands them out) from a stored cursor, a bounded batch a call,
 * and writes each refunded complaint's mark with HSETNX (a mark already there, the refund's own,
 * is kept). Idempotent and safe beside the running product and another instance doing the same:
 * a refund booked now writes its mark in its own script, the cursor only moves forward, and it
 * stops before the first complaint still open (an older instance in a rolling deploy could refund
 * it without a mark), so that one is looked at again on the next call. A walk's later steps (past
 * such a stop) still write marks but move the cursor only from where their step began (review
 * s25-d, 2: a later step with none open had jumped it past the open one).
 */

/** Complaints read a call: one pipelined read of this many. */
export const REFUND_MARKS_BATCH = 500;

/** First complaint number (as the stores hand them out: C100001 is number 1). */
const refOf = (n: number) => `C${100_000 + n}`;

// KEYS: the cursor. ARGV: the new cursor, the number the step started after. A compare-and-set:
// it moves only when everything up to the step's start is settled (the cursor stands at or past
// it), never from a later step of a walk whose earlier step stopped before an open complaint, and
// only forward (two instances at once). Returns whether it moved.
const ADVANCE = `
local at = tonumber(redis.call('GET', KEYS[1]) or '0')
if at >= tonumber(ARGV[2]) and tonumber(ARGV[1]) > at then
  redis.call('SET', KEYS[1], ARGV[1])
  return 1
end
return 0
`;
const advanceScript = luaScript<"cursor", number>("raComplaintMarksAdvance", ["cursor"], ADVANCE);

/** A stored complaint, or a failed parse (a record this version cannot read). */
function parsed(json: string) {
  try {
    return complaintSchema.safeParse(JSON.parse(json));
  } catch {
    return { success: false as const };
  }
}

export interface RefundMarksStep {
  /** Marks written this call (refunds that had none). */
  marked: number;
  /** Where the next call of a walk starts (a start's loop passes it on). */
  next: number;
  /** Every complaint numbered when this call began has been looked at. */
  done: boolean;
}

/**
 * One bounded step: the complaints after `from` (the stored cursor when not given), up to `limit`
 * of them. A start walks to the end in steps (`ensureRefundMarks`); each step is one MGET, one
 * pipeline of reads and one of HSETNX, and a cursor update.
 */
export async function backfillRefundMarks(
  redis: RedisClient,
  prefix: string,
  opts: { from?: number; limit?: number } = {},
): Promise<RefundMarksStep> {
  const k = keyspace(prefix);
  const cursorKey = complaintRefundMarksCursorKey(prefix);
  const [cursor, seq] = await redis.mget(cursorKey, k.complaintSeq);
  const from = opts.from ?? Number(cursor ?? 0);
  const last = Number(seq ?? 0);
  const to = Math.min(last, from + Math.max(1, opts.limit ?? REFUND_MARKS_BATCH));
  if (to <= from) return { marked: 0, next: from, done: true };
  const reads = redis.pipeline();
  for (let n = from + 1; n <= to; n++) reads.hget(k.complaint(refOf(n)), "j");
  const raw = ((await reads.exec()) ?? []).map(([, v]) => (typeof v === "string" ? v : null));
  const marks = redis.pipeline();
  let count = 0;
  // The cursor stops before the first complaint still open (or unreadable: looked at again).
  let settled = from;
  let gap = false;
  raw.forEach((json, i) => {
    const c = json === null ? null : parsed(json);
    const refund = c?.success ? c.data.closing?.refund : undefined;
    if (c?.success && refund) {
      marks.hsetnx(complaintRefundedOrdersKey(prefix), c.data.orderReference, c.data.reference);
      count++;
    }
    // A number never written (a raise that failed after its number) is passed over.
    const closed = json === null || (c?.success === true && isClosed(c.data.status));
    if (!closed) gap = true;
    if (!gap) settled = from + i + 1;
  });
  const written = count > 0 ? ((await marks.exec()) ?? []) : [];
  const marked = written.filter(([err, v]) => err === null && v === 1).length;
  if (settled > from)
    await advanceScript.run(redis, { cursor: cursorKey }, String(settled), String(from));
  return { marked, next: to, done: to >= last };
}

/**
 * At start: the walk from the stored cursor to the last complaint numbered now, in bounded steps
 * (a shop's complaints are few; a walk done before costs one MGET). `log` is told what it wrote;
 * `limit` is the step's size (REFUND_MARKS_BATCH; a test walks small steps).
 */
export async function ensureRefundMarks(
  redis: RedisClient,
  prefix: string,
  log: (marked: number) => void,
  opts: { limit?: number } = {},
): Promise<void> {
  let step = await backfillRefundMarks(redis, prefix, opts);
  let marked = step.marked;
  while (!step.done) {
    step = await backfillRefundMarks(redis, prefix, { ...opts, from: step.next });
    marked += step.marked;
  }
  if (marked > 0) log(marked);
}
