import { FIGURES_OFF_NOTE, owesFiguresOffCount } from "./figures-check.ts";
import { isFinal, type Order, refusedOnOurSide } from "./model.ts";

/**
 * The hourly admins' alerts whose count an order's write owes (books/hourly-alert.ts): the write
 * marks the order in the window's owed set in its own atomic step (the Redis update script, the
 * memory store's synchronous step), the count takes the mark, and the reconciler's flush repairs a
 * mark a crash left, so a process killed between the write and the count loses no alert.
 */

/**
 * The crossings note of the reference-collision alert's window (books/collision-alert.ts): a step
 * whose event carries a note for the admins and that closes the order (an execute refused for a
 * reference the aggregator already holds: failed, its hold returned) declares it owed (apply.ts,
 * the Mutation's `owes`).
 */
export const COLLISION_NOTE = "reference-collision";

/**
 * The window of such a note on an order its step leaves open (a status answer about another
 * recharge, an answer giving it another order's transaction: nothing applied, the money held): a
 * count of its own, so the alert's words say truly what became of the orders counted.
 */
export const COLLISION_OPEN_NOTE = "reference-collision-open";

/**
 * The window of an execute refused on the merchant's side (its token, IP or rate: refusedOnOurSide,
 * books/our-side-alert.ts): a topic of its own, its words and its count apart from the collisions'.
 */
export const OUR_SIDE_WINDOW = "execute-refused-our-side";

/**
 * The window an order's admins' note counts in: a refusal on our side, or a collision closed by
 * its step or left open.
 */
export const collisionNoteOf = (order: Order): string =>
  refusedOnOurSide(order)
    ? OUR_SIDE_WINDOW
    : isFinal(order.status)
      ? COLLISION_NOTE
      : COLLISION_OPEN_NOTE;

/**
 * The windows the write of `written` over `current` marks the order owed a count in: figures-off
 * when it sets `figuresOffAt` (whoever wrote it), and those its step declared.
 */
export function owedWindows(
  current: Order,
  written: Order,
  declared: readonly string[] = [],
): string[] {
  const names = owesFiguresOffCount(current, written) ? [FIGURES_OFF_NOTE] : [];
  for (const name of declared) if (!names.includes(name)) names.push(name);
  return names;
}
