/**
 * A push found its key sent or held by another consumer when it came to send, found that the
 * store no longer holds the status it announces ("withheld"), or was sent `uncertain` times
 * already without an answer and is given up ("spent").
 */
export class PushSettled extends Error {
  constructor(
    readonly outcome: "duplicate" | "retry" | "withheld" | "spent",
    readonly uncertain = 0,
  ) {
    super(outcome);
  }
}
