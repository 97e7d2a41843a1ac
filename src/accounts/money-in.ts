import {
  type AccountId,
  type Balance,
  type JournalEntry,
  type LedgerStore,
  type TransferInput,
  transferInputSchema,
} from "../ledger/index.ts";
import { isBalanceMove } from "./move-entry.ts";
import type { AccountsStore, Receipt } from "./store.ts";

/**
 * Money coming in, as people move it: an agent takes cash and credits a customer from the agent's
 * own balance, an admin credits an agent from the money the merchant put in, an admin reverses
 * either with a reason. Every one is a ledger transfer under an id the caller fixed before its
 * confirm step, so a double tap or a replay books it once; a reversal is a new transfer whose id
 * is derived from the one it reverses, so reversing twice books once.
 */

export type MoveResult =
  | { ok: true; duplicate: boolean; receipt: Receipt; debitAfter: Balance; creditAfter: Balance }
  | { ok: false; code: "insufficient_funds"; availablePaisa: number; shortfallPaisa: number }
  /** The id was used before for another transfer (cannot happen with fresh ids; loud if it does). */
  | { ok: false; code: "id_conflict" };

export type ReverseResult =
  | MoveResult
  | { ok: false; code: "unknown" }
  | { ok: false; code: "not_reversible" }
  | { ok: false; code: "already_reversed"; receipt: Receipt | null };

/**
 * Thrown when a transfer is refused before the books were touched (its input fails the ledger's
 * own checks): nothing was booked, and running it again under the same id cannot book it either.
 * Every other error of a booking leaves its outcome unknown.
 */
export class NotBookedError extends Error {
  override name = "NotBookedError";
}

/** The id of the reversal of transfer `id`: one per transfer, whatever the reason typed. */
const reversalIdOf = (id: string) => `rev-${id}`;

/** Kinds an admin may reverse: money that came in through people, never an order's hold. */
const REVERSIBLE: ReadonlySet<Receipt["kind"]> = new Set(["cash_in", "credit", "demo_credit"]);

/** The user id of a customer's or an agent's account ("customer:5555" -> 5555); else undefined. */
function userOfAccount(acc: AccountId): number | undefined {
  const [kind, id] = acc.split(":");
  if (kind !== "customer" && kind !== "agent") return undefined;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A receipt rebuilt from the books' entry of transfer `e`, for a booking whose receipt write was
 * lost: everything but who booked a credit or a reversal is in the entry (a cash-in's agent is
 * its debit), and `rebuilt` says so. Null for kinds that have no receipt (orders, top-ups).
 */
function receiptFromEntry(e: JournalEntry): Receipt | null {
  const moved = isBalanceMove(e);
  if (e.kind !== "cash_in" && e.kind !== "credit" && e.kind !== "demo_credit" && !moved) {
    if (e.kind !== "reversal" || !e.reference) return null;
  }
  const kind = moved ? "move" : (e.kind as Receipt["kind"]);
  // The party of a reversal is the one it takes back from: the original's party, its debit now.
  const party = userOfAccount(kind === "reversal" ? e.debit : e.credit);
  const by = kind === "cash_in" ? (userOfAccount(e.debit) ?? 0) : 0;
  return {
    id: e.id,
    kind,
    debit: e.debit,
    credit: e.credit,
    amountPaisa: e.amountPaisa,
    by,
    ...(party === undefined ? {} : { partyUserId: party }),
    ...(kind === "reversal" ? { reverses: e.reference, reason: e.reason } : {}),
    at: e.at,
    ...(kind === "cash_in" || kind === "demo_credit" ? {} : { rebuilt: true as const }),
  };
}

/**
 * The receipt of transfer `id`: the one kept beside the books, else rebuilt from the books' own
 * entry (the receipt write failed after the booking). Only a booked transfer has one.
 */
export async function receiptOf(
  ledger: LedgerStore,
  store: AccountsStore,
  id: string,
): Promise<Receipt | null> {
  const kept = await store.receipt(id);
  if (kept) return kept;
  const e = await ledger.entryOf(id);
  return e ? receiptFromEntry(e) : null;
}

/** A transfer in the books and its receipt, the two written one after the other. */
export async function move(
  ledger: LedgerStore,
  store: AccountsStore,
  r: Omit<Receipt, "at">,
  extra: { reason?: string; reference?: string; kind?: TransferInput["kind"] } = {},
): Promise<MoveResult> {
  // Checked here, before the books, so a refusal is known to have booked nothing (the ledger
  // checks the same, but its error cannot be told from one after its script ran).
  const input = transferInputSchema.safeParse({
    id: r.id,
    debit: r.debit,
    credit: r.credit,
    amountPaisa: r.amountPaisa,
    kind: extra.kind ?? r.kind,
    ...(extra.reference ? { reference: extra.reference } : {}),
    ...(extra.reason ? { reason: extra.reason } : {}),
  });
  if (!input.success) {
    throw new NotBookedError(`transfer ${r.id.slice(0, 60)} refused: ${input.error.message}`);
  }
  const booked = await ledger.transfer(input.data);
  if (!booked.ok) {
    const refusal = booked.refusal;
    if (refusal.code === "insufficient_funds") {
      return {
        ok: false,
        code: "insufficient_funds",
        availablePaisa: refusal.availablePaisa,
        shortfallPaisa: refusal.shortfallPaisa,
      };
    }
    return { ok: false, code: "id_conflict" };
  }
  // After the transfer, in another slot (no atomic step spans both): a failure from here on
  // throws with the transfer booked. The flow then offers to run this again under the same id
  // (the transfer answers as a duplicate and the receipt is written), and until then the receipt
  // is rebuilt from the books' own entry (`receiptOf`), so the booking can be reversed.
  // A reversal's id is shared by every admin reversing the same receipt, so a duplicate one may
  // have been booked by another admin: it writes no receipt (that admin's, written after, is
  // kept; one lost stays rebuilt from the books, who booked it "not known"), never naming whoever
  // confirmed second as the booker. Other ids are one conversation's: a duplicate is its Check.
  const othersBooking = booked.duplicate && r.kind === "reversal";
  if (!othersBooking) await store.putReceipt({ ...r, at: booked.entry.at });
  const receipt = (await store.receipt(r.id)) ??
    (othersBooking ? receiptFromEntry(booked.entry) : null) ?? { ...r, at: booked.entry.at };
  return {
    ok: true,
    duplicate: booked.duplicate,
    receipt,
    debitAfter: await ledger.balance(r.debit),
    creditAfter: await ledger.balance(r.credit),
  };
}

/** `reverse` of createAccounts, over its ledger and store. */
export const reverseWith =
  (ledger: LedgerStore, store: AccountsStore) =>
  async (input: {
    originalId: string;
    adminUserId: number;
    reason: string;
  }): Promise<ReverseResult> => {
    const original = await receiptOf(ledger, store, input.originalId);
    if (!original) return { ok: false, code: "unknown" };
    if (!REVERSIBLE.has(original.kind)) return { ok: false, code: "not_reversible" };
    const id = reversalIdOf(original.id);
    // Booked again when it was: the same reason answers as a duplicate (a Check after a failure,
    // or another admin's identical reversal: a receipt lost then is kept rebuilt, who booked it
    // not known), another reason conflicts and is "already reversed".
    const r = await move(
      ledger,
      store,
      {
        id,
        kind: "reversal",
        debit: original.credit,
        credit: original.debit,
        amountPaisa: original.amountPaisa,
        by: input.adminUserId,
        ...(original.partyUserId === undefined ? {} : { partyUserId: original.partyUserId }),
        reverses: original.id,
        reason: input.reason,
      },
      { reason: input.reason, reference: original.id },
    );
    // Another admin's reversal with another reason won the id meanwhile.
    if (!r.ok && r.code === "id_conflict") {
      return { ok: false, code: "already_reversed", receipt: await receiptOf(ledger, store, id) };
    }
    return r;
  };
