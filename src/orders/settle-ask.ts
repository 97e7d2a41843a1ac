import {
  ProviderMalformedResponseError,
  ProviderNotFoundError,
  ProviderRejectedError,
} from "../provider/errors.ts";
import type { Apply } from "./apply.ts";
import { providerReference } from "./execute-request.ts";
import { isFinal, type Order } from "./model.ts";
import {
  answerAbout,
  eventFromStatus,
  type OrdersProvider,
  OtherReferenceError,
} from "./provider-events.ts";

/**
 * The aggregator asked before a settlement (settle.ts): its answer applied the normal way, and
 * whether what it said stops the admin's outcome. Split from settle.ts (its size), unchanged.
 */

/**
 * Why the aggregator's answer leaves a settlement as succeeded unsure (each may hide a "not
 * found"): it has no such order; it answered about another order; it refused the query in its
 * own error shape (a 4xx, or on a 200, whatever its words); its answer could not be read; it
 * answered a status word the bot does not know. Silence (a timeout, a 5xx, a gateway's page, the
 * connection) is none of these: the admin's word stands then.
 */
export const UNSURE_CAUSES = [
  "not_found",
  "other_order",
  "refused",
  "unreadable",
  "unknown_word",
] as const;
export type UnsureCause = (typeof UNSURE_CAUSES)[number];

/** What the aggregator said before a settlement, and whether it stops it. */
export type Asked =
  | { kind: "final"; order: Order }
  | { kind: "disagrees"; said: string }
  /** Its answer's write failed: nothing may be settled on a word left unwritten. */
  | { kind: "unwritten"; said: string; why: string }
  /** `unsure`: why a settlement as succeeded is refused (absent: nothing stands in its way). */
  | { kind: "open"; said: string; unsure?: UnsureCause };

/**
 * Asks the aggregator (only the question may fail into "no answer") and applies its answer; a
 * failed write of the answer is "unwritten", so nothing is settled on a word left unwritten.
 */
export async function askAggregator(
  deps: { provider: Pick<OrdersProvider, "statusByReference">; apply: Apply },
  now: () => number,
  order: Order,
): Promise<Asked> {
  const asked = providerReference(order);
  let answer: Awaited<ReturnType<typeof deps.provider.statusByReference>>;
  try {
    answer = answerAbout(await deps.provider.statusByReference(order.region, asked), asked);
  } catch (err) {
    if (err instanceof ProviderNotFoundError)
      return { kind: "open", said: "not found", unsure: "not_found" };
    // An answer about another order is not silence: the aggregator may be confused about this
    // one, so "succeeded" is refused as for "not found" (s21 final review, finding 4).
    if (err instanceof OtherReferenceError)
      return {
        kind: "open",
        said: `an answer about another order (${err.said.slice(0, 40)})`,
        unsure: "other_order",
      };
    const why = err instanceof Error ? err.message : String(err);
    // The aggregator refused the query in its own words (a 200 error envelope, which may say "not
    // found" and is no longer read as such: provider/endpoints.ts; another 4xx) or answered what
    // cannot be read: either may hide a "not found", so "succeeded" is refused as for one. Only
    // silence (a timeout, a 5xx, a gateway's page, the connection) leaves the admin's word.
    const unsure: UnsureCause | undefined =
      err instanceof ProviderRejectedError
        ? "refused"
        : err instanceof ProviderMalformedResponseError
          ? "unreadable"
          : undefined;
    const what =
      unsure === undefined ? "no answer" : unsure === "refused" ? "refused" : "unreadable answer";
    const said = `${what} (${why.slice(0, 120)})`;
    return unsure === undefined ? { kind: "open", said } : { kind: "open", said, unsure };
  }
  const event = eventFromStatus(
    order,
    answer,
    "status",
    now(),
    "asked before an admin's settlement",
  );
  const said = event.otherRecharge
    ? `status ${answer.status.slice(0, 40)} about another recharge (number ${(answer.connectionNo ?? "").slice(0, 40)}), not applied`
    : `status ${answer.status.slice(0, 40)}`;
  let applied: Awaited<ReturnType<Apply>>;
  try {
    applied = await deps.apply({ reference: order.reference, ...event }, order);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { kind: "unwritten", said, why: why.slice(0, 120) };
  }
  if (applied.order && isFinal(applied.order.status))
    return { kind: "final", order: applied.order };
  // An answer about another recharge, recorded, not applied: it settles nothing, nor stops the
  // admin's word either way (the number compared is an inference: the admin checks with the
  // aggregator, as the collision alert asks, and settles failed or succeeded by hand).
  if (event.otherRecharge) return { kind: "open", said };
  // A final word the order did not take (another transaction id): never overridden by hand.
  if (event.status !== null && isFinal(event.status)) return { kind: "disagrees", said };
  return event.status === null
    ? { kind: "open", said, unsure: "unknown_word" }
    : { kind: "open", said };
}

/**
 * What the aggregator said that stops the admin's outcome: a final word not applied (whatever
 * the outcome), or an answer that may hide a "not found" against a settlement as succeeded.
 */
export function stoppedBy(
  asked: Exclude<Asked, { kind: "final" | "unwritten" }>,
  outcome: "success" | "failed",
):
  | { code: "aggregator_disagrees"; said: string }
  | { code: "aggregator_unsure"; said: string; cause: UnsureCause }
  | null {
  if (asked.kind === "disagrees") return { code: "aggregator_disagrees", said: asked.said };
  if (asked.unsure !== undefined && outcome === "success")
    return { code: "aggregator_unsure", said: asked.said, cause: asked.unsure };
  return null;
}
