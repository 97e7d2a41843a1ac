import { account } from "../ledger/index.ts";
import type { TransferInput } from "../ledger/model.ts";
import type { TopUpContext } from "./context.ts";
import { creditTransferId, reversalTransferId, type TopUp } from "./model.ts";
import type { Effect } from "./state.ts";

/**
 * The ledger transfer that goes with a transition (state.ts Effect), or a refusal to try. A credit
 * moves the amount the lookup reports from the gateway's clearing account to the customer, under a
 * transfer id derived from the payment id (a second credit is a ledger duplicate).
 */
/** The ledger transfer that goes with a transition, or a refusal to try. */
export async function transferFor(
  ctx: TopUpContext,
  t: TopUp,
  effect: Effect | undefined,
  note = "",
): Promise<{ transfer?: TransferInput; reversed?: number }> {
  if (!effect) return {};
  const clearing = account.merchant.gateway(ctx.gateway.name);
  const customer = account.customer(t.userId);
  if (effect.kind === "credit") {
    return {
      transfer: {
        id: creditTransferId(t.gateway, t.paymentId),
        debit: clearing,
        credit: customer,
        amountPaisa: effect.amountPaisa,
        kind: "topup",
        // The journal carries what the accountant reconciles with the gateway's statement. The
        // lookup that completes the top-up is the only one that books, so this text is stable.
        reference: `${t.gateway} pidx=${t.paymentId} txn=${effect.transactionId ?? "-"} fee=${effect.feePaisa}${note}`,
      },
    };
  }
  // A refund takes the credit back as far as the balance allows (the customer may have spent
  // it); the admin is told of any shortfall.
  const available = (await ctx.ledger.balance(customer)).availablePaisa;
  const amount = Math.max(0, Math.min(effect.upToPaisa, available));
  if (amount === 0) return { reversed: 0 };
  return {
    reversed: amount,
    transfer: {
      id: reversalTransferId(t.gateway, t.paymentId),
      debit: customer,
      credit: clearing,
      amountPaisa: amount,
      kind: "reversal",
      reference: creditTransferId(t.gateway, t.paymentId),
      reason: `${t.gateway} reports the payment refunded${note}`,
    },
  };
}
