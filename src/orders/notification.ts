import { z } from "zod";
import { chatIdSchema as chatId, referenceSchema } from "./ids.ts";
import { orderStatusSchema } from "./order-status.ts";

/**
 * The outbox's records (the customer's status pushes, the admins' alerts, a complaint's notice)
 * and the identity each is sent once under. Split from model.ts (its size), unchanged.
 */

/** The outbox record: written in the same atomic step as the change that caused it. */
export const notificationSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("status"),
    reference: referenceSchema,
    status: orderStatusSchema,
    chatId,
    at: z.number().int(),
  }),
  z.object({
    kind: z.literal("admin_alert"),
    /** The order the alert is about; absent for an alert about the books as a whole. */
    reference: referenceSchema.optional(),
    status: orderStatusSchema,
    chatId,
    at: z.number().int(),
    note: z.string().optional(),
    /**
     * Absent: an order stuck past the reconciler's maximum age. Else the books' alerts, or an
     * admin's settlement told to the other admins (`order_settled`), a proposal waiting for their
     * approval (`settle_proposed`), or a later answer of the aggregator that contradicts a
     * settlement (`settle_contradicted`); these three say `note`.
     */
    topic: z
      .enum(["low_float", "books_drift", "order_settled", "settle_contradicted", "settle_proposed"])
      .optional(),
    /**
     * The aggregator's final word against the order's final outcome (the order's `contradicted`):
     * the bot words it (notify-admin-contradicted-*), sent once per order and admin.
     */
    contradicted: z.enum(["success", "failed"]).optional(),
    /**
     * The aggregator's own word a "failed" was read from (a reversal word, reversal.ts): the alert
     * names it (notify-admin-reversed-*), never the "failed" it stands for.
     */
    word: z.string().max(40).optional(),
    /**
     * A contradiction's alert on an order whose money a complaint already refunded, read where
     * the alert was written (apply.ts): the alert says it was paid (which complaint, how much, when)
     * instead of "may be owed", so no admin pays it again (review s33-rvcomp 5). Optional: an
     * older version's alert, or one about an order no complaint refunded, has none.
     */
    refund: z
      .object({
        complaint: z.string().regex(/^C[1-9]\d{0,14}$/),
        paisa: z.number().int().positive(),
        at: z.number().int(),
      })
      .optional(),
    /**
     * A customer's notice carried on this lane (books/admin-note.ts noteToCustomer): `note` is
     * said as it is, never dressed as an admin alert ("⚠️"). Optional: an older notifier ignores
     * it and sends the note as before.
     */
    toCustomer: z.literal(true).optional(),
    /** The figures a topic's text shows, in paisa (see src/notify/render.ts alertText). */
    figures: z.record(z.string().max(40), z.number().int()).optional(),
  }),
  z.object({
    /**
     * A customer's notice of a change an admin made to their complaint (src/complaints/), queued
     * in the same step as the change: the notifier renders it from the complaint (read then) and
     * sends it once, as it does an order's final push.
     */
    kind: z.literal("complaint"),
    /** The order the complaint is about (its timeline lists the notice). */
    reference: referenceSchema,
    /** The complaint's number (complaintRefSchema's form; the complaints layer sits above this). */
    complaint: z.string().regex(/^C[1-9]\d{0,14}$/),
    /**
     * The complaint's status the customer is told of (not an order's: tell them by `kind`), or
     * "raised": a new complaint told to one admin (`chatId`), queued with the complaint when it
     * opens, one per admin (review s33-rvcomp 4). A version without "raised" cannot read it: it
     * dead-letters it as unreadable (docs/deploying.md).
     */
    status: z.enum(["taken", "resolved", "rejected", "raised"]),
    chatId,
    at: z.number().int(),
    /** A refund's: the customer's available balance right after it, read in the same step. */
    balancePaisa: z.number().int().optional(),
  }),
]);
export type Notification = z.infer<typeof notificationSchema>;

/** The (order, status) identity a notification is deduplicated by: the user sees it once. */
export function notificationKey(n: Notification): string {
  if (n.kind === "status") return `status:${n.reference}:${n.status}`;
  if (n.kind === "complaint")
    // A new complaint is told to each admin once: the admin's chat is part of its identity.
    return n.status === "raised"
      ? `complaint:${n.complaint}:raised:${n.chatId}`
      : `complaint:${n.complaint}:${n.status}`;
  // Its own key: a stuck alert sent earlier for the same order must not swallow it.
  if (n.contradicted) return `alert:contradicted:${n.reference ?? "-"}:${n.chatId}`;
  // A books alert is its own event (one per crossing or per check): its time tells it apart.
  if (n.topic) return `alert:${n.topic}:${n.reference ?? "-"}:${n.at}:${n.chatId}`;
  return `alert:${n.reference}:${n.chatId}`;
}
