/**
 * A push found its key sent or held by another consumer when it came to send, or found that the
 * store no longer holds the status it announces ("withheld").
 */
export class PushSettled extends Error {
  constructor(readonly outcome: "duplicate" | "retry" | "withheld") {
    super(outcome);
  }
}
