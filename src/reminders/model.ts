import { createHash } from "node:crypto";
import { z } from "zod";
import { CATEGORY_ID, REGIONS } from "../catalog/index.ts";
import type { Order } from "../orders/model.ts";

/**
 * What a reminder is made of: one record per account the customer paid (a number, a biller's
 * account), written when its order succeeds and replaced by the next success of the same account.
 * The record carries what the reminder says and what the "Pay again" button needs (the order's
 * reference: the repeat flow rebuilds the order from it); the payment times kept beside it give a
 * saved number's usual interval. Times are epoch ms.
 */

export const reminderRecordSchema = z.object({
  /** The order to repeat. */
  ref: z.string().regex(/^[1-9]\d{0,14}$/),
  category: z.string().regex(CATEGORY_ID),
  number: z.string().min(1).max(40),
  operatorName: z.string().min(1).max(80),
  amountPaisa: z.number().int().positive(),
  region: z.enum(REGIONS),
  /** The order's language (the customer's own, when known at send time, wins). */
  locale: z.string().min(2).max(16),
  chatId: z.number().int(),
  /** When it was paid (the order's creation). */
  at: z.number().int().nonnegative(),
  /** The plan's validity in days, when the provider's package or plan names one. */
  validityDays: z.number().int().min(1).max(400).optional(),
});
export type ReminderRecord = z.infer<typeof reminderRecordSchema>;

/** One customer's reminders as stored: records, payment times, what was sent, what is off. */
export interface ReminderState {
  records: Map<string, ReminderRecord>;
  /** Payment times per account, any order. */
  times: Map<string, number[]>;
  /** The due time each account was last reminded of. */
  sent: Map<string, number>;
  /** Accounts turned off one by one. */
  off: Set<string>;
  /** Every reminder turned off. */
  allOff: boolean;
  /** The local day ("YYYY-MM-DD") of the last reminder message. */
  day: string | undefined;
}

export const emptyState = (): ReminderState => ({
  records: new Map(),
  times: new Map(),
  sent: new Map(),
  off: new Set(),
  allOff: false,
  day: undefined,
});

/** An account's id: short enough that five fit on one button's data. */
export const reminderIdSchema = z.string().regex(/^[0-9a-f]{10}$/);

/** The account an order paid: category, number and, for billers, operator, office and SC number. */
export function reminderIdOf(
  order: Pick<Order, "category" | "connectionNo" | "operatorId" | "details">,
) {
  const d = order.details;
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const parts = [
    order.category,
    order.connectionNo,
    order.operatorId,
    text(d.officeCode),
    text(d.scNo),
  ];
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 10);
}

/**
 * A plan's validity as the provider words it in the package's or plan's name ("12 GB / 28 days",
 * "28 Days · Unlimited calls", "Basic - 1 Month", "28 दिन", "२८ दिन"); undefined when it names none.
 */
export function validityDaysOf(words: string | undefined): number | undefined {
  if (!words) return undefined;
  // Devanagari digits (२८ दिन) read as Latin ones.
  const text = words.replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - 0x0966));
  const days = /(\d{1,3})\s*(?:days?\b|d\b|दिन)/i.exec(text);
  if (days) return clampDays(Number(days[1]));
  const months = /(\d{1,2})\s*(?:months?\b|mo\b|महिना|महीने|महीना)/i.exec(text);
  if (months) return clampDays(Number(months[1]) * 30);
  const years = /(\d)\s*(?:years?\b|yr\b)/i.exec(text);
  if (years) return clampDays(Number(years[1]) * 365);
  return undefined;
}

const clampDays = (n: number) => (n >= 1 && n <= 400 ? n : undefined);

/** What a successful order leaves for its reminders. */
export function recordOf(order: Order): { id: string; record: ReminderRecord } {
  const packageName =
    typeof order.details.packageName === "string" ? order.details.packageName : undefined;
  const validityDays = validityDaysOf(packageName);
  const record: ReminderRecord = {
    ref: order.reference,
    category: order.category,
    number: order.connectionNo,
    operatorName: order.operatorName.slice(0, 80),
    amountPaisa: order.amountPaisa,
    region: order.region,
    locale: order.locale,
    chatId: order.chatId,
    at: order.createdAt,
    ...(validityDays === undefined ? {} : { validityDays }),
  };
  return { id: reminderIdOf(order), record };
}
