import type { Logger } from "../logger.ts";
import type { FiguresOff } from "../orders/context.ts";
import type { Notification } from "../orders/model.ts";
import type { Crossings } from "./crossing.ts";

/**
 * The admins' alert for orders whose booked figures are off (orders/figures-check.ts), within an
 * overall limit (review s25-e, 3): a systematic slip (a units change on the aggregator's side, a
 * category whose `amount` it writes otherwise) is the case the check is for, and one alert per
 * order per admin would bury the admin lane. The first order is told at once; the ones within the
 * hour after it are counted (each keeps its own record, `figuresOffAt`), and the first one after
 * the hour is told with that count and a few references: at most one alert an hour. The window
 * is a small record in the crossings' notes; two processes at the hour's edge may each tell one
 * (bounded by the processes), and a count may miss an order then (the orders keep their records).
 */

const NAME = "figures-off";
export const FIGURES_OFF_WINDOW_MS = 3_600_000;
/** References quoted in the count of a window. */
const SAMPLES = 5;

interface Window {
  since: number;
  more: number;
  refs: string[];
}

function windowOf(raw: string | null): Window | null {
  if (raw === null) return null;
  try {
    const w = JSON.parse(raw) as Partial<Window>;
    if (typeof w.since !== "number" || typeof w.more !== "number" || !Array.isArray(w.refs))
      return null;
    return { since: w.since, more: w.more, refs: w.refs.filter((r) => typeof r === "string") };
  } catch {
    return null;
  }
}

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

export function createFiguresOffAlert(deps: {
  crossings: Pick<Crossings, "recall" | "remember" | "record">;
  adminChatIds: readonly number[];
  logger?: Logger | undefined;
}): (f: FiguresOff) => Promise<boolean> {
  const { crossings, adminChatIds } = deps;
  return async ({ order, off, at }) => {
    const w = windowOf(await crossings.recall(NAME));
    if (w && at >= w.since && at - w.since < FIGURES_OFF_WINDOW_MS) {
      const refs = w.refs.length < SAMPLES ? [...w.refs, order.reference] : w.refs;
      await crossings.remember(NAME, JSON.stringify({ since: w.since, more: w.more + 1, refs }));
      deps.logger?.warn({ reference: order.reference, since: w.since }, "figures off: counted");
      return false;
    }
    await crossings.remember(NAME, JSON.stringify({ since: at, more: 0, refs: [] }));
    const counted =
      w && w.more > 0
        ? ` Also ${w.more} more order(s) with figures off since ${hhmm(w.since)} UTC (e.g. ${w.refs.join(", ")}), each recorded on its order.`
        : "";
    const note = `Order ${order.reference}: the aggregator's figures are off (${off}). They are booked as reported, so the float check agrees with the aggregator; check the order (its page in the back office) with the aggregator.${counted} Further orders with figures off within the hour are recorded on each order and counted in the next alert.`;
    // The note says it all: settle_proposed's topic carries it (a topic of its own is a shape an
    // older notifier would drop during a rolling deploy, docs/deploying.md).
    const alerts: Notification[] = adminChatIds.map((chatId) => ({
      kind: "admin_alert",
      topic: "settle_proposed",
      reference: order.reference,
      status: order.status,
      chatId,
      at,
      note,
    }));
    // Re-armed and crossed: the alerts are queued by the crossing's own atomic step.
    await crossings.record(NAME, false, []);
    return crossings.record(NAME, true, alerts);
  };
}
