import { z } from "zod";
import { referenceSchema } from "../orders/model.ts";

/**
 * A customer's complaint about one order (issue 30), modelled on BBPS's transaction-based
 * complaints (docs: backoffice-notes section 4): a reason from the BBPS dispositions, a complaint
 * number, a promised time (a turnaround per reason, in working days), and a life of
 * logged → taken → resolved | rejected. One complaint per order is open at a time (the stores
 * keep it atomically, across instances). A refund on a complaint is a transfer in the books whose
 * id and reference are the complaint's.
 */

/** The reasons a customer picks, each with the BBPS disposition code it follows. */
export const COMPLAINT_REASONS = [
  "not_received",
  "wrong_number",
  "wrong_amount",
  "duplicate",
] as const;
export const complaintReasonSchema = z.enum(COMPLAINT_REASONS);
export type ComplaintReason = z.infer<typeof complaintReasonSchema>;

/** BBPS dispositions: D11 paid but service not received, D21 wrong account, D23 wrong amount, D22 duplicate. */
export const BBPS_DISPOSITION: Readonly<Record<ComplaintReason, string>> = {
  not_received: "D11",
  wrong_number: "D21",
  wrong_amount: "D23",
  duplicate: "D22",
};

export const COMPLAINT_STATUSES = ["logged", "taken", "resolved", "rejected"] as const;
export const complaintStatusSchema = z.enum(COMPLAINT_STATUSES);
export type ComplaintStatus = z.infer<typeof complaintStatusSchema>;

/** A complaint number: "C" and digits (the stores number them). */
export const complaintRefSchema = z.string().regex(/^C[1-9]\d{0,14}$/, "not a complaint number");

const userId = z.number().int().refine(Number.isSafeInteger);
const text = z.string().min(1).max(300);

/** What closed a complaint: the words the customer reads, and a refund when there was one. */
export const closingSchema = z.object({
  by: userId,
  at: z.number().int(),
  /** Resolved: what was done; rejected: why. */
  text,
  /** The refund booked with the resolution: the transfer's id and amount (Nepal paisa). */
  refund: z
    .object({ transferId: z.string().min(1).max(128), amountPaisa: z.number().int().positive() })
    .optional(),
});
export type Closing = z.infer<typeof closingSchema>;

export const complaintSchema = z.object({
  reference: complaintRefSchema,
  orderReference: referenceSchema,
  userId,
  chatId: userId,
  /** The customer's language when they raised it: every notice about it goes in it. */
  locale: z.string().min(2).max(16),
  reason: complaintReasonSchema,
  status: complaintStatusSchema,
  /** Compare-and-set version: 0 when logged, +1 per change. */
  version: z.number().int().nonnegative(),
  createdAt: z.number().int(),
  /** The promised time: createdAt plus the reason's turnaround in working days. */
  dueAt: z.number().int(),
  taken: z.object({ by: userId, at: z.number().int() }).optional(),
  closing: closingSchema.optional(),
});
export type Complaint = z.infer<typeof complaintSchema>;

export const isClosed = (s: ComplaintStatus): boolean => s === "resolved" || s === "rejected";

/** The refund's transfer id: one per complaint, however often the resolution is confirmed. */
export const refundIdOf = (complaintRef: string): string => `complaint:${complaintRef}:refund`;
