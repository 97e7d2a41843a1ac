import type { Complaints } from "../../src/complaints/index.ts";

/**
 * Complaints as a customer raises them and an admin resolves them, for the tests that need one
 * on an order before what they check (the books, the order's page, the notice).
 */

/**
 * Customer `userId`'s complaint that order `orderReference` was not received, raised from their
 * own chat unless `chatId` is given, in English unless `locale` is; its reference. A refusal
 * fails the test.
 */
export async function raisedComplaint(
  complaints: Pick<Complaints, "raise">,
  userId: number,
  orderReference: string,
  opts: { chatId?: number; locale?: string } = {},
): Promise<string> {
  const r = await complaints.raise({
    userId,
    chatId: opts.chatId ?? userId,
    locale: opts.locale ?? "en",
    orderReference,
    reason: "not_received",
  });
  if (!r.ok) throw new Error("not raised");
  return r.complaint.reference;
}

/**
 * That complaint raised, then resolved by admin `by` (1 unless given) with `text` ("sorry" unless
 * given) and a refund of `refundPaisa`: its reference and the resolve's answer, for the test to
 * check.
 */
export async function refundedComplaint(
  complaints: Pick<Complaints, "raise" | "resolve">,
  userId: number,
  orderReference: string,
  refundPaisa: number,
  opts: { chatId?: number; locale?: string; text?: string; by?: number } = {},
) {
  const reference = await raisedComplaint(complaints, userId, orderReference, opts);
  const done = await complaints.resolve(reference, opts.by ?? 1, {
    text: opts.text ?? "sorry",
    refundPaisa,
  });
  return { reference, done };
}
