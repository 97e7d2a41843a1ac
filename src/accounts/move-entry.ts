import type { JournalEntry } from "../ledger/index.ts";

/**
 * A balance move in the journal (accounts/balance-move.ts): an `adjustment` from one customer to
 * another. It is booked as an existing kind so that an older process reading the journal during a
 * rolling deploy, or after a rollback, reads it as a correction instead of failing on a kind it
 * does not know (ledger/journal-read.ts refuses unknown kinds); every other adjustment has a
 * merchant account on one side, so the two customer sides name a move.
 */
export const isBalanceMove = (e: Pick<JournalEntry, "kind" | "debit" | "credit">): boolean =>
  e.kind === "adjustment" && e.debit.startsWith("customer:") && e.credit.startsWith("customer:");
