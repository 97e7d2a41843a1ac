import type { Transformer } from "grammy";

const STALE = /query is too old|query ID is invalid/i;

/**
 * An answer to a button press that Telegram no longer takes ("query is too old ... or query ID is
 * invalid": answered already, or older than its 15 s) counts as given. The answer only stops the
 * button's spinner; it must never stop what the press does. Above all when an instance died after
 * answering a Confirm and Telegram sent the press to another one: that run answers the press again
 * and used to fail there with the generic error reply, instead of finishing what the dead instance
 * had begun (a transfer booked but not yet told, for instance).
 */
export const staleCallbackAnswers: Transformer = async (prev, method, payload, signal) => {
  const res = await prev(method, payload, signal);
  if (
    method === "answerCallbackQuery" &&
    !res.ok &&
    res.error_code === 400 &&
    STALE.test(res.description)
  ) {
    return { ok: true, result: true } as unknown as typeof res;
  }
  return res;
};
