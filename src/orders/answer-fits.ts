import { formatRupees } from "../money.ts";
import type { StatusResult } from "../provider/schemas.ts";
import type { Order } from "./model.ts";

/**
 * Whether a status answer about our reference is about our recharge (review s31-orders, 1). The
 * reference alone does not say so: a counter set back by a restore re-mints a reference the
 * aggregator holds for an older recharge, and when its "duplicate" refusal of our execute is lost
 * (a 502, a timeout), its status answer under the reference is about that older one (another
 * number, another amount). The number is the strong check; the amount is read apart (a success
 * for another amount is ours with figures off: eventFromStatus). Pure, no I/O.
 */

/**
 * A number's digits as both sides may write them: separators dropped, an international prefix
 * ("00", Nepal's 977 before 10 digits, India's 91 before 10) and trunk zeros taken off.
 */
function numberDigits(text: string): string {
  let d = text.replace(/\D/g, "");
  if (d.startsWith("00")) d = d.slice(2);
  if (d.length === 13 && d.startsWith("977")) d = d.slice(3);
  else if (d.length === 12 && d.startsWith("91")) d = d.slice(2);
  return d.replace(/^0+/, "");
}

/** An id with letters (an internet operator's username), as both sides may write it. */
const idText = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The answer's number when it is clearly another than the order's; null when it fits or cannot be
 * told (no number in the answer, nothing to compare on one side). Ids with letters on both sides
 * (spec 4.1: an internet username) are compared as written, case and separators aside.
 */
export function otherNumber(order: Order, answer: StatusResult): string | null {
  const said = answer.connectionNo;
  if (!said) return null;
  const words = /[a-z]/i.test(said) && /[a-z]/i.test(order.connectionNo);
  const theirs = words ? idText(said) : numberDigits(said);
  const ours = words ? idText(order.connectionNo) : numberDigits(order.connectionNo);
  if (theirs === "" || ours === "") return null;
  return theirs === ours ? null : said.slice(0, 40);
}

/** Whether a status answer is about this order's recharge (its number, when it names one). */
export const answerFits = (order: Order, answer: StatusResult): boolean =>
  otherNumber(order, answer) === null;

/**
 * The answer's amount (the order's currency) when it is another than the order's: a success so
 * answered debited the aggregator's wallet for that amount. Null: the same, or none reported.
 */
export function otherAmount(order: Order, answer: StatusResult): number | null {
  return answer.amountPaisa > 0 && answer.amountPaisa !== order.amountPaisa
    ? answer.amountPaisa
    : null;
}

/** The history's words for an answer about another recharge: what it named. */
export function otherRechargeNote(order: Order, answer: StatusResult, said: string): string {
  const amount = formatRupees(answer.amountPaisa, order.region);
  return `status answer about another recharge under our reference (number ${said}, amount ${amount}, status ${answer.status.slice(0, 20)})`;
}

/**
 * The admins' words (the collision alert, books/collision-alert.ts) for an open order without a
 * transaction id answered about another recharge: `what` is the history's note (otherRechargeNote).
 * Not applied: the number compared is an inference (spec: "number or user id"; for DTH, water,
 * electricity or internet ids the aggregator may echo another identifier or format), and failing a
 * recharge it executed would refund it and tell the customer a false word.
 */
export function statusCollisionNote(what: string): string {
  return `${what}: not applied; the order stays open with the customer's money held. A reference counter set back (a restore?) gives the aggregator our reference for another recharge: check the counter (docs/backup-restore.md) and settle it with /settle after checking with the aggregator.`.slice(
    0,
    500,
  );
}

/** The history's note for such an answer: recorded, not applied (provider-events.ts). */
export const notAppliedNote = (what: string): string => `${what}: not applied`;

/** The answer's words in a history note (notAppliedNote), for the collision alert's repair. */
export const answerWordsOf = (note: string): string => note.replace(/: not applied$/, "");

/** The start of otherRechargeNote, by which the collision alert's repair finds the entry. */
export const OTHER_RECHARGE_PREFIX = "status answer about another recharge";
