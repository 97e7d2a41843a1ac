import { z } from "zod";

/**
 * The payment-gateway port: what the top-up service needs from any web checkout. Khalti is the
 * one adapter (khalti.ts); a second gateway (eSewa, or UPI through a payment-link provider) is a
 * second adapter of this interface and a second `merchant:gateway:<name>` clearing account.
 */

/** A gateway's payment id (Khalti's pidx): also part of a ledger transfer id, so restricted. */
export const paymentIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "not a payment id");
export type PaymentId = z.infer<typeof paymentIdSchema>;

export interface CheckoutRequest {
  /** Integer paisa. */
  amountPaisa: number;
  /** Our unique id of this top-up (Khalti's purchase_order_id). */
  purchaseOrderId: string;
  purchaseOrderName: string;
  /** Where the payer's browser comes back to. */
  returnUrl: string;
  websiteUrl: string;
}

export interface Checkout {
  paymentId: PaymentId;
  /** Where the payer goes to pay. */
  paymentUrl: string;
  /** When the gateway stops accepting payment for it (ms since the epoch). */
  expiresAt: number;
}

/** A lookup's verdict, in the gateway's words mapped to ours. */
const lookupStatusSchema = z.enum([
  "completed",
  "pending",
  "initiated",
  "expired",
  "cancelled",
  "refunded",
  "partially_refunded",
  // A word the gateway's documentation does not list: never credits; an open top-up is held.
  "unknown",
]);
export type LookupStatus = z.infer<typeof lookupStatusSchema>;

export interface Lookup {
  paymentId: PaymentId;
  status: LookupStatus;
  /** What the gateway says was paid, paisa. */
  totalPaisa: number;
  transactionId: string | null;
  feePaisa: number;
  refunded: boolean;
  /** The gateway's own word, when it is `unknown` to us (cut, for the admins' eyes). */
  statusWord?: string;
  /**
   * What the answer says the payment was in and for, when it says so (Khalti's lookup carries
   * neither today; a gateway that does is checked against what we initiated).
   */
  currency?: string;
  purchaseOrderId?: string;
}

/**
 * A failure talking to the gateway. `transient`: try again later (network, timeout, 5xx);
 * otherwise the request itself was refused (validation 400, bad key 401, unknown pidx 404).
 * `detail` never holds the secret key.
 */
export class GatewayError extends Error {
  constructor(
    readonly kind: "network" | "timeout" | "server" | "refused" | "malformed" | "not_found",
    readonly detail: string,
  ) {
    super(`gateway ${kind}: ${detail}`);
    this.name = "GatewayError";
  }
  get transient(): boolean {
    return this.kind === "network" || this.kind === "timeout" || this.kind === "server";
  }
}

export interface PaymentGateway {
  /** The gateway's name: the clearing account is `merchant:gateway:<name>`. */
  readonly name: string;
  initiate(req: CheckoutRequest): Promise<Checkout>;
  lookup(paymentId: PaymentId): Promise<Lookup>;
  close(): Promise<void>;
}
