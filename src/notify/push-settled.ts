/** A push found its key sent or held by another consumer when it came to send. */
export class PushSettled extends Error {
  constructor(readonly outcome: "duplicate" | "retry") {
    super(outcome);
  }
}
