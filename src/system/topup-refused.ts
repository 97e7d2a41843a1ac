import { noteToAdmins } from "../books/admin-note.ts";
import type { Crossings } from "../books/index.ts";

/** The crossing of the gateway refusing to start checkouts (books/crossing.ts). */
export const TOPUP_REFUSED_CROSSING = "topup-initiate-refused";

/** The most of the gateway's answer quoted to the admins (the log line has it whole). */
const DETAIL_CHARS = 200;

/**
 * The admins' alert of Khalti refusing to start checkouts (a wrong key: a sandbox key against
 * production answers 401; a field it rejects), as TopUpsOptions `initiateRefused`: told once per
 * spell, across processes, by a crossing (the alert queued in the outbox in the same step as the
 * state flips below; a checkout Khalti starts re-arms it, and a refusal read before that re-arm
 * changes nothing). Before, every customer was told to try again in a few minutes and the admins
 * heard nothing (review s31-pay, 5).
 */
export function topUpRefusedAlert(
  crossings: Pick<Crossings, "record">,
  adminIds: readonly number[],
): (refusal: { kind: string; detail: string } | null, at: number) => Promise<void> {
  return async (refusal, at) => {
    if (!refusal) {
      await crossings.record(TOPUP_REFUSED_CROSSING, false, [], at);
      return;
    }
    const note = [
      `Khalti refused to start a top-up's checkout (${refusal.kind}: ${refusal.detail.slice(0, DETAIL_CHARS)}).`,
      "Customers are told adding money online is not available now; nothing was charged.",
      `Check KHALTI_SECRET_KEY against KHALTI_BASE_URL (a sandbox key against production answers 401) and the log's "top-up initiate refused" lines.`,
      "No more alerts of it until Khalti starts a checkout again.",
    ].join(" ");
    await crossings.record(TOPUP_REFUSED_CROSSING, true, noteToAdmins(adminIds, at, note), at);
  };
}
