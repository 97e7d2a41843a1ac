import { z } from "zod";
import type { DashboardKeys } from "./keys.ts";
import type { DashboardKv } from "./kv.ts";

/**
 * The back office's audit log: who (the person and their role), when, from where (the address
 * the request came from, the forwarded-for header as given, the browser) and what (login, logout,
 * an export with its range, a session refused for a role gone). Admins read it in the back office.
 * Two lists (Redis, or memory in local mode without Redis), newest first: what changed money or
 * access (blocks, reversals, top-up decisions, logins and logouts, refusals, acknowledgements:
 * every action but exports) is never trimmed; exports, which only read, are capped at AUDIT_KEPT.
 * The first list is the key the single capped list had, so entries written before the split
 * (money ones among them) are no longer trimmed either.
 */

export const AUDIT_KEPT = 10_000;
/** Entries read at a time when the export pages through a list. */
export const AUDIT_PAGE = 1_000;

/** The entries that only read, and so the only ones the log may forget (the oldest first). */
export const TRIMMABLE_ACTIONS: ReadonlySet<AuditAction> = new Set([
  "export",
  "export_started",
  "export_failed",
]);

export const auditActionSchema = z.enum([
  "login",
  "logout",
  "export",
  // A streamed download (the journal's CSV): `export_started` before its first byte, then `export`
  // when it ended whole or `export_failed` (with why) when it was cut or the browser left.
  "export_started",
  "export_failed",
  "revoked",
  "denied",
  // issue 29 (h-people): a customer blocked or unblocked, with the block before and after.
  "block",
  "unblock",
  // Money actions and alerts (h-actions): each with the balances before and after.
  "reverse",
  // s21 review 7: a reversal POST that found its reversal booked already (a retry after a page
  // that failed once the booking landed, or another admin's): it booked nothing, and is audited,
  // so a booking whose own POST failed before its audit still has a row naming its id.
  "reverse_found",
  "topup_credit",
  "topup_reject",
  // s20-r2: the amount returned of a partial refund, entered by an admin (the reversal it booked).
  "topup_refund",
  "acknowledge",
  // Complaints (issue 30): taken, resolved (with a refund's balances before and after), rejected.
  "complaint_take",
  "complaint_resolve",
  "complaint_reject",
  // h-settle: an order the aggregator never ended, settled by an admin (its hold voided or posted).
  "order_settle",
  // h-float: a movement of the float (a refill, a correction) proposed, approved (booked) or
  // rejected on the books page. An older process skips these lines when it lists the log.
  "float_propose",
  "float_approve",
  "float_reject",
  // h-wamove: a customer's whole balance moved to another customer (a changed WhatsApp number),
  // with both balances before and after; a double submit that found it booked says so.
  "balance_move",
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEntrySchema = z.object({
  at: z.number().int(),
  userId: z.number().int(),
  role: z.string().max(20),
  action: auditActionSchema,
  ip: z.string().max(100),
  forwardedFor: z.string().max(200).optional(),
  userAgent: z.string().max(300),
  detail: z.string().max(300).optional(),
  /** What an action found and left: a money action's balances (account id -> posted paisa), a block's state. */
  before: z.record(z.string().max(80), z.union([z.number().int(), z.string().max(300)])).optional(),
  after: z.record(z.string().max(80), z.union([z.number().int(), z.string().max(300)])).optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /**
   * Records a line that must be there exactly once (a float movement's step: written by the step's
   * POST, or after a crash by whoever reads the step later): only when `mark` was never recorded,
   * the line and its mark in one atomic step. True when this call wrote it.
   */
  recordOnce(entry: AuditEntry, mark: string): Promise<boolean>;
  /** Whether each mark was recorded (recordOnce), in order. */
  marked(marks: readonly string[]): Promise<boolean[]>;
  /** The newest `limit` of both lists, newest first. */
  list(limit: number): Promise<AuditEntry[]>;
  /** Every entry kept, newest first. */
  all(): Promise<AuditEntry[]>;
  /**
   * The entries of [from, to), newest first (the export): each list read a page at a time from its
   * head, up to the first page that reaches past `from`, not the whole never-trimmed log.
   */
  between(range: { from: number; to: number }, pageSize?: number): Promise<AuditEntry[]>;
}

/** Cuts free text to the schema's lengths (a header can be anything). */
export const clip = (s: string | undefined, max: number): string | undefined =>
  s === undefined ? undefined : s.slice(0, max);

function parsed(raw: readonly string[]): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (const line of raw) {
    try {
      const e = auditEntrySchema.safeParse(JSON.parse(line));
      if (e.success) out.push(e.data);
    } catch {
      // A line nobody of ours wrote: skipped, the rest still shows.
    }
  }
  return out;
}

/** Two newest-first lists as one, newest first (stable: an equal time keeps the kept one first). */
function merged(a: AuditEntry[], b: AuditEntry[], limit: number): AuditEntry[] {
  return [...a, ...b].sort((x, y) => y.at - x.at).slice(0, limit);
}

/** A newest-first list's entries from `from` on, read a page at a time down to `from`. */
async function since(
  kv: DashboardKv,
  key: string,
  from: number,
  pageSize: number,
): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const raw = await kv.lslice(key, offset, pageSize);
    const entries = parsed(raw);
    for (const e of entries) if (e.at >= from) out.push(e);
    // Newest first: once a page ends before the range, what follows is older still.
    const oldest = entries.at(-1);
    if (raw.length < pageSize || (oldest && oldest.at < from)) return out;
  }
}

export function createAuditLog(kv: DashboardKv, keys: DashboardKeys): AuditLog {
  const read = async (limit: number) =>
    merged(
      parsed(await kv.lhead(keys.audit, limit)),
      parsed(await kv.lhead(keys.auditViews, Math.min(limit, AUDIT_KEPT))),
      limit,
    );
  return {
    async record(entry) {
      const valid = auditEntrySchema.parse(entry);
      const line = JSON.stringify(valid);
      if (TRIMMABLE_ACTIONS.has(valid.action)) {
        await kv.lpushCapped(keys.auditViews, line, AUDIT_KEPT);
      } else {
        await kv.lpush(keys.audit, line);
      }
    },
    async recordOnce(entry, mark) {
      const valid = auditEntrySchema.parse(entry);
      // The never-trimmed list only: a line recorded once is a money or access action's.
      if (TRIMMABLE_ACTIONS.has(valid.action)) throw new Error(`${valid.action}: not a once line`);
      return kv.lpushOnce(keys.audit, keys.auditMarks, mark, JSON.stringify(valid));
    },
    marked: (marks) => kv.smismember(keys.auditMarks, marks),
    list: (limit) => read(limit),
    all: () => read(Number.MAX_SAFE_INTEGER),
    async between(range, pageSize = AUDIT_PAGE) {
      const size = Math.max(1, pageSize);
      const kept = await since(kv, keys.audit, range.from, size);
      const views = await since(kv, keys.auditViews, range.from, size);
      const all = merged(kept, views, Number.MAX_SAFE_INTEGER);
      return all.filter((e) => e.at < range.to);
    },
  };
}
