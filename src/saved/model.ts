import { createHash } from "node:crypto";
import { z } from "zod";
import { CATEGORY_ID } from "../catalog/index.ts";

/**
 * A number or account the customer paid before, kept per user and category, durable (no TTL,
 * unlike the session): what the flows offer as buttons, what /saved lists, renames and deletes.
 * A biller (water, electricity, internet, DTH) also keeps what paying it again needs besides the
 * number: the operator, the office, the SC number, the phone; an India number keeps its operator
 * (a mobile and a DTH id are both ten digits).
 */

/** Saved entries kept per user and category; the least recently used unnamed one goes first. */
export const SAVED_PER_CATEGORY = 10;
export const NICKNAME_MAX = 24;

/** A nickname as stored: trimmed, 1-24 characters, no line breaks or control characters. */
const nicknameSchema = z.string().refine((s) => {
  const length = [...s].length;
  return length >= 1 && length <= NICKNAME_MAX && s === s.trim() && !/\p{Cc}/u.test(s);
});
export type Nickname = z.infer<typeof nicknameSchema>;

/** What paying a biller again needs besides its customer id (the entry's number). */
const billerSchema = z.strictObject({
  operatorId: z.number().int().positive(),
  /** Water and electricity: the office's code (its name is read from the office list again). */
  officeCode: z.string().min(1).max(40).optional(),
  /** Electricity: the SC number and the phone the bill check asks for. */
  scNo: z.string().min(1).max(40).optional(),
  phone: z.string().min(1).max(20).optional(),
  /** Whose account it is, as the bill or listing last named them (shown beside the id). */
  holder: z.string().min(1).max(80).optional(),
});
export type Biller = z.infer<typeof billerSchema>;

const savedIdSchema = z.string().regex(/^[0-9a-f]{10}$/);

export const savedEntrySchema = z.strictObject({
  /** Derived from the category and what identifies the account (savedId): saving again updates it. */
  id: savedIdSchema,
  category: z.string().regex(CATEGORY_ID),
  /** The number or customer id (an order's connectionNo). */
  number: z.string().min(1).max(40),
  nickname: nicknameSchema.optional(),
  biller: billerSchema.optional(),
  /** When it was last paid (the order's time), ms: newest first. */
  usedAt: z.number().int().nonnegative(),
});
export type SavedEntry = z.infer<typeof savedEntrySchema>;

/** An entry as a flow or an order gives it: the id is derived, the nickname kept if there is one. */
export type SavedInput = Omit<SavedEntry, "id" | "nickname">;

export const savedListSchema = z.array(savedEntrySchema);

/**
 * The id of an account: its category, number and, for billers, the operator, office and SC
 * number (the phone may change without it being another account). Short enough for a button.
 */
export function savedId(input: Pick<SavedEntry, "category" | "number" | "biller">): string {
  const b = input.biller;
  const parts = [
    input.category,
    input.number,
    b?.operatorId ?? "",
    b?.officeCode ?? "",
    b?.scNo ?? "",
  ];
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 10);
}
