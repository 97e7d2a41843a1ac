import { FIGURES_OFF_NOTE, owesFiguresOffCount } from "./figures-check.ts";
import type { Order } from "./model.ts";

/**
 * The hourly admins' alerts whose count an order's write owes (books/hourly-alert.ts): the write
 * marks the order in the window's owed set in its own atomic step (the Redis update script, the
 * memory store's synchronous step), the count takes the mark, and the reconciler's flush repairs a
 * mark a crash left, so a process killed between the write and the count loses no alert.
 */

/**
 * The crossings note of the reference-collision alert's window (books/collision-alert.ts): a step
 * whose event carries a note for the admins (an execute refused for a reference the aggregator
 * already holds) declares it owed (apply.ts, the Mutation's `owes`).
 */
export const COLLISION_NOTE = "reference-collision";

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
