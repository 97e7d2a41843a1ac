import { z } from "zod";

/**
 * The provider client's domain shapes: what it hands to the rest of the program (ids as strings,
 * money as integer paisa, camelCase). The wire schemas that read the provider's JSON into them are
 * in ./wire.ts (primitives, envelopes) and ./wire-payloads.ts (each call's `data`).
 */
// ---------------------------------------------------------------------------------------------
// Domain shapes

const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  amountPaisa: z.number().int(),
});
export type Package = z.infer<typeof packageSchema>;

const dthListingSchema = z.object({
  operatorId: z.string(),
  connectionNo: z.string(),
  /** The reference the DTH execute must carry (spec 4.1). */
  referenceNo: z.string(),
  /** `customerinfo` split on " || " (subscriber description, set-top-box number, ...). */
  customerInfo: z.array(z.string()),
  sessionId: z.string(),
  packages: z.array(packageSchema),
});
export type DthListing = z.infer<typeof dthListingSchema>;

/** Office codes, operators and operator types: the `{value, label}` records of the lookups. */
const optionSchema = z.object({ value: z.string(), label: z.string() });
export type Option = z.infer<typeof optionSchema>;

const circleSchema = z.object({ circleId: z.string(), circleName: z.string() });
export type Circle = z.infer<typeof circleSchema>;

const billSchema = z.object({
  customerName: z.string(),
  connectionNo: z.string(),
  referenceNo: z.string(),
  /** 0 when the provider reports no bill (an advance may then be paid). */
  billAmountPaisa: z.number().int(),
  /** Month/due rows exactly as the provider labels them, every value as text. */
  dues: z.array(z.record(z.string(), z.string())),
});
export type Bill = z.infer<typeof billSchema>;

const statusResultSchema = z.object({
  /** Provider's status, lowercased: "success", "failed", "pending", "queued", ... (open set). */
  status: z.string(),
  transactionId: z.string(),
  referenceNo: z.string(),
  amountPaisa: z.number().int(),
  /** Epoch ms; null when the provider's timestamp cannot be read. */
  timestampMs: z.number().int().nullable(),
  connectionNo: z.string().nullable(),
  operator: z.string().nullable(),
  packageName: z.string().nullable(),
});
export type StatusResult = z.infer<typeof statusResultSchema>;

const walletBalanceSchema = z.object({ creditAvailablePaisa: z.number().int() });
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

const planSchema = z.object({
  id: z.string().nullable(),
  amountPaisa: z.number().int(),
  description: z.string(),
  validity: z.string().nullable(),
  /** The group the provider filed the plan under, when it groups them. */
  category: z.string().nullable(),
});
export type Plan = z.infer<typeof planSchema>;

const indiaDthBillSchema = z.object({
  customerName: z.string().nullable(),
  /** What a recharge should pay (the bill, or the monthly pack price); null when not stated. */
  billAmountPaisa: z.number().int().nullable(),
  /** What is left on the subscriber's account: never the amount to pay. */
  balancePaisa: z.number().int().nullable(),
  dueDate: z.string().nullable(),
  /** Every scalar field of the provider's record, as text (the shape is undocumented). */
  details: z.record(z.string(), z.string()),
});
export type IndiaDthBill = z.infer<typeof indiaDthBillSchema>;

const executeAcceptedSchema = z.object({
  kind: z.literal("accepted"),
  referenceNo: z.string(),
  transactionId: z.string(),
  /** Provider's status, lowercased ("success", "queued", "pending", "failed", ...). */
  status: z.string(),
  message: z.string(),
  amountPaisa: z.number().int(),
  serviceChargePaisa: z.number().int(),
  instantDiscountPaisa: z.number().int(),
  debitAmountPaisa: z.number().int(),
  /**
   * False when the answer carried no `debit_amount`: `debitAmountPaisa` is then worked out from
   * the amount (spec 2.1), in the order's currency (₹ for an India order). Absent: reported.
   */
  debitReported: z.boolean().optional(),
  /** Wallet balance after the transaction; null when the response omits it. */
  creditAvailablePaisa: z.number().int().nullable(),
  commissionPaisa: z.number().int().optional(),
});
const executeRejectedSchema = z.object({
  kind: z.literal("rejected"),
  referenceNo: z.string(),
  httpStatus: z.number().int(),
  message: z.string(),
  rateLimited: z.boolean(),
});
const executeUnknownSchema = z.object({
  kind: z.literal("unknown"),
  referenceNo: z.string(),
  /** `unclear_refusal`: a refusal that does not prove the order was not executed (execute.ts). */
  reason: z.enum(["timeout", "network", "server_error", "malformed", "unclear_refusal"]),
  detail: z.string(),
});
/**
 * accepted: the provider took the order (its status may still be pending or even failed);
 * rejected: the provider definitely did not execute it;
 * unknown: it may or may not have executed: reconcile by status query, never re-send blindly.
 */
export const executeResultSchema = z.discriminatedUnion("kind", [
  executeAcceptedSchema,
  executeRejectedSchema,
  executeUnknownSchema,
]);
export type ExecuteResult = z.infer<typeof executeResultSchema>;
