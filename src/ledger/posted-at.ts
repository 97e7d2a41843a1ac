import { changeOf } from "./account-index.ts";
import type { AccountId } from "./chart.ts";
import type { JournalEntry } from "./model.ts";
import type { LedgerStore } from "./store.ts";

/** An account's posted balance (credits − debits posted) right before and right after an entry. */
export interface PostedAround {
  beforePaisa: number;
  afterPaisa: number;
}

/**
 * `acc`'s posted balance right before and right after `entry` (one of its two accounts), as the
 * books recorded them in the booking's own step: the read index's member of that entry carries the
 * balance the booking's script (or the memory store's step) left, so however many transfers
 * landed on the account since, these are the booking's figures and differ by exactly its amount.
 * Two balance reads around a booking are not: other money moves land between them.
 * One read of the index; null when it has no line for the entry (a journal not yet backfilled).
 */
export async function postedAround(
  ledger: Pick<LedgerStore, "accountEntries">,
  entry: JournalEntry,
  acc: AccountId,
): Promise<PostedAround | null> {
  const dash = entry.seq.indexOf("-");
  const ms = Number(entry.seq.slice(0, dash));
  const n = Number(entry.seq.slice(dash + 1));
  // The page of one line starting at the entry: after the seq just before it, or from its ms.
  const q = n > 0 ? { after: `${ms}-${n - 1}`, limit: 1 } : { from: ms, limit: 1 };
  const line = (await ledger.accountEntries(acc, q)).lines[0];
  if (line?.entry.seq !== entry.seq) return null;
  const afterPaisa = line.postedPaisa;
  return { beforePaisa: afterPaisa - changeOf(entry, acc).posted, afterPaisa };
}
