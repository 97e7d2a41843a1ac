import { z } from "zod";
import { type AccountId, accountIdSchema } from "./chart.ts";

/**
 * The ledger's data: transfers in, journal entries and balances out. Double entry as TigerBeetle
 * models it: an account changes only through transfers, each from one account (debit) to another
 * (credit), amount > 0, so the balances of all accounts always sum to zero. A hold is a pending
 * transfer; posting or voiding it is a journal entry of its own, exactly once.
 */

/**
 * A transfer id is the caller's idempotency key (an order reference, a cash receipt's key). It has
 * no "/" so the ids the ledger gives post and void entries ("<pendingId>/post") cannot collide.
 */
export const transferIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "bad transfer id");

/** Kinds of a posted (single-phase) transfer. */
const postedKindSchema = z.enum([
  /** An admin credits an agent or a customer from money the merchant put in. */
  "credit",
  /** The playground's demo credit, visible as such in the journal. */
  "demo_credit",
  /** An agent took cash and credits a customer. */
  "cash_in",
  /** An online top-up confirmed by a lookup at the gateway. */
  "topup",
  /** The aggregator debited the float for an order. */
  "float_debit",
  /** The fee of a successful order, moved from sales into fee income. */
  "fee",
  /** The aggregator's commission, once its balance shows it. */
  "commission",
  /** An admin's correction; needs a reason. */
  "adjustment",
  /** An admin's reversal of an earlier transfer; needs a reason. Never an edit. */
  "reversal",
]);

const entryKindSchema = z.union([postedKindSchema, z.enum(["hold", "post", "void"])]);

/** Amounts are integer paisa, positive, safe integers (Redis HINCRBY and Lua doubles stay exact). */
const amountSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const text = z.string().min(1).max(500);

const twoAccounts = <T extends { debit: AccountId; credit: AccountId }>(t: T) =>
  t.debit !== t.credit;

export const transferInputSchema = z
  .object({
    id: transferIdSchema,
    debit: accountIdSchema,
    credit: accountIdSchema,
    amountPaisa: amountSchema,
    kind: postedKindSchema,
    /** What the transfer is for: an order reference, a receipt, the transfer a reversal undoes. */
    reference: text.optional(),
    /** Why; required for adjustments and reversals. */
    reason: text.optional(),
  })
  .strict()
  .refine(twoAccounts, { message: "debit and credit must be different accounts" })
  .refine((t) => (t.kind === "adjustment" || t.kind === "reversal" ? !!t.reason : true), {
    message: "an adjustment or a reversal needs a reason",
  });
export type TransferInput = z.infer<typeof transferInputSchema>;

export const holdInputSchema = z
  .object({
    id: transferIdSchema,
    debit: accountIdSchema,
    credit: accountIdSchema,
    amountPaisa: amountSchema,
    reference: text.optional(),
  })
  .strict()
  .refine(twoAccounts, { message: "debit and credit must be different accounts" });
export type HoldInput = z.infer<typeof holdInputSchema>;

/**
 * One line of the append-only journal. `seq` is its position ("<ms>-<n>", a Redis stream id in the
 * Redis store, the same format in memory) and `at` its booking time: the store's clock, never
 * earlier than the entry before, so the journal is in time order and a date range is a seq range.
 * Post and void entries carry the hold's accounts and amount, the id "<pendingId>/post|void" and
 * the hold's id as `pendingId`.
 */
export const journalEntrySchema = z.object({
  seq: z.string().regex(/^\d+-\d+$/),
  at: z.number().int().nonnegative(),
  id: z.string().min(1),
  kind: entryKindSchema,
  debit: accountIdSchema,
  credit: accountIdSchema,
  amountPaisa: amountSchema,
  reference: text.optional(),
  pendingId: transferIdSchema.optional(),
  reason: text.optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** TigerBeetle's four counters of an account, in paisa. Nothing but transfers changes them. */
const balancesSchema = z.object({
  debitsPosted: z.number().int(),
  creditsPosted: z.number().int(),
  debitsPending: z.number().int(),
  creditsPending: z.number().int(),
});
export type Balances = z.infer<typeof balancesSchema>;

export const ZERO: Balances = Object.freeze({
  debitsPosted: 0,
  creditsPosted: 0,
  debitsPending: 0,
  creditsPending: 0,
});

/** An account's balance as callers read it. */
export interface Balance extends Balances {
  account: AccountId;
  /** creditsPosted − debitsPosted: what the merchant owes (negative for debit-normal accounts). */
  postedPaisa: number;
  /** debitsPending: held for orders not yet decided. */
  heldPaisa: number;
  /** creditsPosted − debitsPosted − debitsPending: what a customer or agent may still spend. */
  availablePaisa: number;
}

export const pendingStateSchema = z.enum(["pending", "posted", "voided"]);
export type PendingState = z.infer<typeof pendingStateSchema>;

export interface PendingTransfer {
  state: PendingState;
  hold: JournalEntry;
  /** The post or void entry, once there is one. */
  resolution?: JournalEntry;
}

/** Why the ledger refused: nothing was written. */
export const refusalSchema = z.discriminatedUnion("code", [
  z.object({
    code: z.literal("insufficient_funds"),
    account: accountIdSchema,
    availablePaisa: z.number().int(),
    amountPaisa: amountSchema,
    shortfallPaisa: amountSchema,
  }),
  /** The id was used before for a transfer with other fields. */
  z.object({ code: z.literal("id_conflict"), id: z.string() }),
  z.object({ code: z.literal("unknown_pending"), pendingId: z.string() }),
  /** Post after void or void after post: the pending was already resolved the other way. */
  z.object({
    code: z.literal("already_resolved"),
    pendingId: z.string(),
    state: z.enum(["posted", "voided"]),
  }),
]);
export type Refusal = z.infer<typeof refusalSchema>;

/**
 * A mutation's outcome. `duplicate`: the same transfer id (or the same post/void of a pending) was
 * seen before, nothing changed, and `entry` is the first submission's journal entry.
 */
export type LedgerResult =
  | { ok: true; duplicate: boolean; entry: JournalEntry }
  | { ok: false; refusal: Refusal };

/** What `check()` finds. `ok` is true when every list is empty and both sums are zero. */
export interface CheckReport {
  ok: boolean;
  accounts: number;
  entries: number;
  /** Σ(creditsPosted − debitsPosted) and Σ(creditsPending − debitsPending) over stored balances. */
  postedSum: number;
  pendingSum: number;
  /** Stored balances that differ from the journal's recomputation. */
  differences: Array<{ account: AccountId; stored: Balances; journal: Balances }>;
  /** Customer or agent accounts whose available balance is below zero. */
  belowZero: Array<{ account: AccountId; availablePaisa: number }>;
  /** Pending transfers whose stored state disagrees with the journal, or resolved twice. */
  pendingProblems: string[];
}

/** Journal query: a time range [from, to) in ms, and/or a cursor (entries after a seq), paged. */
export interface JournalQuery {
  from?: number;
  to?: number;
  after?: string;
  limit?: number;
}
export interface JournalPage {
  entries: JournalEntry[];
  /** Pass as `after` for the next page; absent when this page was the last. */
  next?: string;
}
