import { z } from "zod";

/** The identifiers an order and its records carry (model.ts, notification.ts). */

/** Our reference_no: digits, no leading zero, at most 15 digits (always a safe integer). */
export const referenceSchema = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "reference must be 1-15 digits without a leading zero");

/** A chat id (Telegram's, or a WhatsApp number's as whatsapp/chat-ids.ts maps it): a safe integer. */
export const chatIdSchema = z.number().int().refine(Number.isSafeInteger);
