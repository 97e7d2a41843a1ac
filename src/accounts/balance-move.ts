import { account, type Balance, type LedgerStore } from "../ledger/index.ts";
import { type MoveResult, move, receiptOf } from "./money-in.ts";
import type { AccountsStore } from "./store.ts";

/**
 * An admin moves a customer's whole spendable balance to another customer's account: one ledger
 * transfer `customer:A -> customer:B` (kind `adjustment` with its reason, receipt kind `move`:
 * move-entry.ts) under the id the confirm form fixed, so a
 * double submit books once. For a WhatsApp customer who changed number (docs/whatsapp.md): their
 * old account keeps its money until support moves it to the account on the new number.
 *
 * Refused before the books when it would not be the whole balance, or not the one the admin saw:
 * money held for an order under way or a hold (it is not spendable, and the order's post or void
 * needs it where it is), a top-up of the sender not final yet (review s33-rvpay 3: it would credit
 * the old account after the move, and a later refund find it empty), nothing to move, the same account, a receiver who never registered, or a
 * balance that changed since the form was shown. The books refuse a debit below zero themselves.
 */

export type BalanceMoveRefusal =
  | { ok: false; code: "same" }
  | { ok: false; code: "no_receiver" }
  | { ok: false; code: "held"; heldPaisa: number }
  | { ok: false; code: "open_topup"; topUps: string[] }
  | { ok: false; code: "empty" }
  | { ok: false; code: "changed"; availablePaisa: number };

export type BalanceMoveResult = MoveResult | BalanceMoveRefusal;

/** A balance move booked, as its two customers are told (the back office hands it to the chat). */
export interface BalanceMoved {
  id: string;
  fromUserId: number;
  toUserId: number;
  amountPaisa: number;
  /** Each side's available balance after the move. */
  fromBalancePaisa: number;
  toBalancePaisa: number;
}

export interface BalanceMoveInput {
  /** The transfer id the confirm form carried (its double submit books once). */
  id: string;
  fromUserId: number;
  toUserId: number;
  /** The available balance the form showed: moved only while it is still the whole of it. */
  amountPaisa: number;
  adminUserId: number;
  /**
   * The sender's top-ups that are not final yet (their payment ids): one may still credit the
   * old account after the move, or a refund take back from it (found empty then: owed there).
   */
  openTopUps?: string[];
}

/** Why a move would be refused now (null: it may be booked), from the sender's balance. */
export function moveRefusal(
  input: Pick<BalanceMoveInput, "fromUserId" | "toUserId" | "amountPaisa" | "openTopUps">,
  from: Balance,
  receiverRegistered: boolean,
): BalanceMoveRefusal | null {
  if (input.fromUserId === input.toUserId) return { ok: false, code: "same" };
  if (!receiverRegistered) return { ok: false, code: "no_receiver" };
  if (from.heldPaisa > 0) return { ok: false, code: "held", heldPaisa: from.heldPaisa };
  const open = input.openTopUps ?? [];
  if (open.length > 0) return { ok: false, code: "open_topup", topUps: open };
  if (from.availablePaisa <= 0) return { ok: false, code: "empty" };
  if (from.availablePaisa !== input.amountPaisa) {
    return { ok: false, code: "changed", availablePaisa: from.availablePaisa };
  }
  return null;
}

/** `moveBalance` of createAccounts, over its ledger and store. */
export const moveBalanceWith =
  (ledger: LedgerStore, store: AccountsStore) =>
  async (input: BalanceMoveInput): Promise<BalanceMoveResult> => {
    // A double submit finds its own transfer booked: the same answer again, never a refusal
    // because the balance it moved is gone now.
    const earlier = await receiptOf(ledger, store, input.id);
    if (earlier === null) {
      const from = await ledger.balance(account.customer(input.fromUserId));
      const registered = (await store.phoneOf(input.toUserId)) !== null;
      const refused = moveRefusal(input, from, registered);
      if (refused) return refused;
    }
    const reason = `balance move: the whole balance of customer ${input.fromUserId} to customer ${input.toUserId}, by admin ${input.adminUserId}`;
    return move(
      ledger,
      store,
      {
        id: input.id,
        kind: "move",
        debit: account.customer(input.fromUserId),
        credit: account.customer(input.toUserId),
        amountPaisa: input.amountPaisa,
        by: input.adminUserId,
        partyUserId: input.toUserId,
        reason,
      },
      // An existing kind in the books (move-entry.ts): older processes read the journal as before.
      { kind: "adjustment", reason },
    );
  };
