import { InlineKeyboard } from "grammy";
import type { Order } from "../orders/model.ts";
import type { Biller, SavedEntry, SavedInput } from "../saved/index.ts";
import { saveNameButton } from "./callback-data.ts";
import type { Translate } from "./i18n.ts";

/**
 * Saved numbers and billers as the chat uses them: what an order leaves behind to save (on its
 * success: a number whose order failed is not saved), how an entry is labelled on a button and in
 * /history, and the "Save as…" button under a success push.
 */

/** What a category saves as a biller (the registry's rule, src/categories/index.ts). */
export type BillerRule = (order: Order) => Biller | undefined;

/** What a successful order saves: its number and, for billers, what paying again needs. */
export function savedInputOf(order: Order, billerOf: BillerRule): SavedInput {
  const base = { category: order.category, number: order.connectionNo, usedAt: order.createdAt };
  const biller = billerOf(order);
  return biller ? { ...base, biller } : base;
}

/**
 * The saved entry an order belongs to, among `entries`: its category and number and, for a biller,
 * the same account (operator, office, SC number: what its id is made of, see savedId).
 */
function entryOfOrder(entries: readonly SavedEntry[], order: Order): SavedEntry | undefined {
  const d = order.details;
  return entries.find(
    (e) =>
      e.category === order.category &&
      e.number === order.connectionNo &&
      (e.biller === undefined ||
        (e.biller.operatorId === order.operatorId &&
          e.biller.officeCode === d.officeCode &&
          e.biller.scNo === d.scNo)),
  );
}

/** An entry on a button or in a list: "Aama · 9841234567", or the number (and holder) alone. */
export function savedLabel(entry: SavedEntry): string {
  const who = entry.biller?.holder ? `${entry.number} · ${entry.biller.holder}` : entry.number;
  return entry.nickname ? `${entry.nickname} · ${entry.number}` : who;
}

/** /history's number of an order: its nickname where one is saved, else the number. */
export function nicknameLabel(entries: readonly SavedEntry[]): (order: Order) => string {
  return (order) => entryOfOrder(entries, order)?.nickname ?? order.connectionNo;
}

/**
 * Called before a success push goes out (at least once per order: saving is idempotent): saves
 * the number, and offers "Save as…" under the push while the entry has no name.
 */
export async function saveOnSuccess(
  saved: { remember(userId: number, input: SavedInput): Promise<SavedEntry> },
  t: Translate,
  order: Order,
  billerOf: BillerRule,
): Promise<InlineKeyboard | undefined> {
  const entry = await saved.remember(order.userId, savedInputOf(order, billerOf));
  if (entry.nickname !== undefined) return undefined;
  return new InlineKeyboard().text(t("saved-save-as"), saveNameButton.build(order.reference));
}
