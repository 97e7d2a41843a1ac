import { createHash } from "node:crypto";
import { z } from "zod";
import {
  type AccountId,
  account,
  type JournalEntry,
  type LedgerStore,
  type TransferInput,
} from "../ledger/index.ts";
import { storedJson } from "../stored-json.ts";
import type { DashboardKeys } from "./keys.ts";
import type { DashboardKv } from "./kv.ts";

/**
 * The float's movements the books cannot see by themselves (docs/books.md, "Correcting the
 * books"): a refill of the merchant's wallet at the aggregator (a bank deposit), or a correction
 * up or down with a reason. Maker-checker: an admin proposes, another person approves or rejects;
 * only an approval books, once: the transfer's id derives from the proposal's, and its fields from
 * the proposal and the decision as stored, so whoever books it (the approver, a retry, another
 * tab or instance) books the same transfer, and the ledger answers a repeat as a duplicate.
 *
 * Stored in the back office's kv (Redis, or memory in local mode): the proposal is written once
 * and never changed; the decision is a key of its own set only when absent (NX), so of an
 * approval and a rejection at once exactly one stands. A decision names the proposal it decided
 * (a digest of its stored JSON): the ids are the form's keys, client-chosen, and a decision
 * outlives its proposal (written later, the same time to live), so a key re-proposed after its
 * proposal expired is refused, and an approval never books a proposal other than the one it
 * approved. A crash between an approval and its booking leaves the proposal approved and not
 * booked: it stays in a set until booked, the page always shows it so, and any approval POST of
 * it books it (the same transfer).
 */

export const floatDirectionSchema = z.enum(["refill", "up", "down"]);
export type FloatDirection = z.infer<typeof floatDirectionSchema>;

/** A proposal's id: the random key of the form it came from, so a double submit is one proposal. */
export const floatMoveIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "the form's key: open the books page again");

/**
 * Who made a step and from where (the audit line's fields), kept in the step's own record: the
 * step's audit line is written after it (the audit list is another key, and a booking is in the
 * ledger), so a crash between the two is made good by the next read of the record
 * (float-audit.ts). Absent on a record an older process wrote (its line is its own).
 */
export const floatViaSchema = z.object({
  role: z.string().max(20),
  ip: z.string().max(100),
  forwardedFor: z.string().max(200).optional(),
  userAgent: z.string().max(300),
});
export type FloatVia = z.infer<typeof floatViaSchema>;

export const floatMoveSchema = z.object({
  id: floatMoveIdSchema,
  direction: floatDirectionSchema,
  amountPaisa: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  reason: z.string().min(3).max(200),
  /** The bank's or the aggregator's reference (a UTR), as typed. */
  reference: z.string().min(1).max(64).optional(),
  by: z.number().int(),
  at: z.number().int(),
  via: floatViaSchema.optional(),
});
export type FloatMove = z.infer<typeof floatMoveSchema>;

export const floatDecisionSchema = z.object({
  decision: z.enum(["approved", "rejected"]),
  /** The digest of the stored proposal it decided (digestOf). */
  proposal: z.string().min(1),
  by: z.number().int(),
  at: z.number().int(),
  via: floatViaSchema.optional(),
});
export type FloatDecision = z.infer<typeof floatDecisionSchema>;

export interface FloatMoveRecord {
  move: FloatMove;
  decision: FloatDecision | null;
  /** The digest of the proposal as stored: what a decision of it names. */
  digest: string;
}

/** What identifies a stored proposal: its JSON's sha256 (the line is written once, never changed). */
export const digestOf = (line: string) => createHash("sha256").update(line).digest("base64url");

/** Proposals and decisions are kept this long (the journal and the audit log keep them for good). */
export const FLOAT_MOVE_KEPT_MS = 400 * 86_400_000;
/** The newest proposals a list reads. */
export const FLOAT_MOVES_READ = 200;

/** What each direction is, in the journal's reason and on the page. */
export const DIRECTION_WORDS: Record<FloatDirection, string> = {
  refill: "refill of the aggregator wallet",
  up: "correction up of the float",
  down: "correction down of the float",
};

/**
 * A refill is money the merchant put in (`merchant:funding`) moved into the wallet; a correction is
 * against `merchant:adjustments`, as the opening float is. The float is debit-normal: a debit
 * raises it.
 */
export function sidesOf(direction: FloatDirection): { debit: AccountId; credit: AccountId } {
  const { float, funding, adjustments } = account.merchant;
  if (direction === "refill") return { debit: float, credit: funding };
  if (direction === "up") return { debit: float, credit: adjustments };
  return { debit: adjustments, credit: float };
}

export const transferIdOf = (id: string) => `float-move:${id}`;

/** The one transfer an approved proposal books: every field from what is stored, never the asker. */
export function transferOf(m: FloatMove, approvedBy: number): TransferInput {
  return {
    id: transferIdOf(m.id),
    ...sidesOf(m.direction),
    amountPaisa: m.amountPaisa,
    // Adjustment, an existing kind: older processes read every journal entry (docs/deploying.md).
    kind: "adjustment",
    reference: m.reference ?? transferIdOf(m.id),
    reason: `${DIRECTION_WORDS[m.direction]}: ${m.reason} (proposed by ${m.by}, approved by ${approvedBy})`,
  };
}

/** Whether `asker` may approve `m`: not its proposer, unless the proposer is the only admin person. */
export interface ApprovalRule {
  mayApprove(proposer: number, asker: number): boolean;
}

/** ADMIN_IDS and its `=` groups (one person's chats), as /settle's maker-checker reads them. */
export function approvalRule(
  admins: { ids(): readonly number[]; same(a: number, b: number): boolean } | undefined,
): ApprovalRule {
  return {
    mayApprove(proposer, asker) {
      if (asker !== proposer && !admins?.same(proposer, asker)) return true;
      // The proposer: only when nobody else is an admin (then nobody else could ever decide).
      return admins !== undefined && !admins.ids().some((a) => !admins.same(a, proposer));
    },
  };
}

export type ApproveResult =
  | {
      ok: true;
      record: { move: FloatMove; decision: FloatDecision };
      entry: JournalEntry;
      bookedNow: boolean;
    }
  | { ok: false; code: "unknown" | "own_proposal" }
  | { ok: false; code: "rejected" | "not_this_proposal"; decision: FloatDecision }
  | { ok: false; code: "ledger_refused"; why: string };

export type RejectResult =
  | { ok: true; record: { move: FloatMove; decision: FloatDecision } }
  | { ok: false; code: "unknown" }
  | { ok: false; code: "decided"; decision: FloatDecision };

export function createFloatMoves(deps: {
  kv: DashboardKv;
  keys: DashboardKeys;
  ledger: Pick<LedgerStore, "transfer">;
}) {
  const { kv, keys } = deps;

  const recordOf = (id: string, line: string | null, decision: string | null) => {
    const move = storedJson(floatMoveSchema, line);
    if (!move || line === null || move.id !== id) return null;
    return { move, decision: storedJson(floatDecisionSchema, decision), digest: digestOf(line) };
  };

  async function get(id: string): Promise<FloatMoveRecord | null> {
    const line = await kv.get(keys.floatMove(id));
    if (line === null) return null;
    return recordOf(id, line, await kv.get(keys.floatDecision(id)));
  }

  /** Sets the decision when none stands; answers the one that stands, and whether it is this one. */
  async function decide(
    id: string,
    d: FloatDecision,
  ): Promise<{ stands: FloatDecision; set: boolean }> {
    const line = JSON.stringify(floatDecisionSchema.parse(d));
    // Indexed before it stands, so an approval cut off before its booking is never unlisted.
    if (d.decision === "approved") await kv.sadd(keys.floatUnbooked, id, FLOAT_MOVE_KEPT_MS);
    if (await kv.setNx(keys.floatDecision(id), line, FLOAT_MOVE_KEPT_MS)) {
      return { stands: d, set: true };
    }
    const stands = storedJson(floatDecisionSchema, await kv.get(keys.floatDecision(id)));
    if (!stands) throw new Error(`float move ${id}: its decision cannot be read`);
    if (d.decision === "approved" && stands.decision === "rejected") {
      await kv.srem(keys.floatUnbooked, id);
    }
    return { stands, set: false };
  }

  return {
    get,
    /**
     * Stores a proposal: `created` false when its id was proposed already (a double submit: the
     * standing one in `record`), or `decided` when its id has a decision whose proposal is gone.
     */
    async propose(
      m: FloatMove,
    ): Promise<
      | { created: boolean; record: FloatMoveRecord }
      | { created: false; decided: FloatDecision; record?: undefined }
    > {
      const line = JSON.stringify(floatMoveSchema.parse(m));
      // A decision outlives its proposal: its key is never proposed again.
      const earlier = storedJson(floatDecisionSchema, await kv.get(keys.floatDecision(m.id)));
      const created = !earlier && (await kv.setNx(keys.floatMove(m.id), line, FLOAT_MOVE_KEPT_MS));
      // Listed once, when created (a crash just before leaves an open proposal unlisted, never booked).
      if (created) await kv.lpush(keys.floatMoves, m.id);
      const record = created
        ? { move: m, decision: null, digest: digestOf(line) }
        : await get(m.id);
      if (!record && earlier) return { created: false, decided: earlier };
      if (!record) throw new Error(`float move ${m.id}: its proposal cannot be read`);
      return { created, record };
    },
    /**
     * The newest proposals (at most FLOAT_MOVES_READ), newest first, each once, and after them
     * every approval not yet booked however old; `unbooked` names those.
     */
    async list(): Promise<{ records: FloatMoveRecord[]; unbooked: ReadonlySet<string> }> {
      const unbooked = new Set(await kv.smembers(keys.floatUnbooked));
      const ids = [
        ...new Set([...(await kv.lhead(keys.floatMoves, FLOAT_MOVES_READ)), ...unbooked]),
      ];
      const [moves, decisions] = await Promise.all([
        kv.getMany(ids.map(keys.floatMove)),
        kv.getMany(ids.map(keys.floatDecision)),
      ]);
      const records = ids.flatMap(
        (id, i) => recordOf(id, moves[i] ?? null, decisions[i] ?? null) ?? [],
      );
      return { records, unbooked };
    },
    async approve(
      id: string,
      by: number,
      at: number,
      rule: ApprovalRule,
      via?: FloatVia,
    ): Promise<ApproveResult> {
      const r = await get(id);
      if (!r) return { ok: false, code: "unknown" };
      // An approval standing already (its booking perhaps cut off) is booked by whoever asks.
      let d = r.decision;
      if (!d) {
        if (!rule.mayApprove(r.move.by, by)) return { ok: false, code: "own_proposal" };
        const asked = { decision: "approved" as const, proposal: r.digest, by, at };
        d = (await decide(id, via ? { ...asked, via } : asked)).stands;
      }
      if (d.decision === "rejected") return { ok: false, code: "rejected", decision: d };
      // Never an approval of another proposal under this id (see the top).
      if (d.proposal !== r.digest) {
        await kv.srem(keys.floatUnbooked, id); // its proposal is gone: nothing can ever book it
        return { ok: false, code: "not_this_proposal", decision: d };
      }
      // This approval, or one that stood already (booked, or cut off before its booking).
      const booked = await deps.ledger.transfer(transferOf(r.move, d.by));
      if (!booked.ok) return { ok: false, code: "ledger_refused", why: booked.refusal.code };
      await kv.srem(keys.floatUnbooked, id);
      return {
        ok: true,
        record: { move: r.move, decision: d },
        entry: booked.entry,
        bookedNow: !booked.duplicate,
      };
    },
    /** A rejection (the proposer's: a withdrawal); refused once a decision stands. */
    async reject(id: string, by: number, at: number, via?: FloatVia): Promise<RejectResult> {
      const r = await get(id);
      if (!r) return { ok: false, code: "unknown" };
      const asked = { decision: "rejected" as const, proposal: r.digest, by, at };
      const { stands, set } = await decide(id, via ? { ...asked, via } : asked);
      if (!set) return { ok: false, code: "decided", decision: stands };
      return { ok: true, record: { move: r.move, decision: stands } };
    },
  };
}
export type FloatMoves = ReturnType<typeof createFloatMoves>;
