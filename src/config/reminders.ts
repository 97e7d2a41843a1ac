import { bool, int, type Parsed } from "./fields.ts";

/** Reminders (src/reminders/): whether the worker runs, and how often it looks for due ones. */
export const remindersEnv = {
  /** Off: no reminder is sent (successes are still recorded, so turning it on later has them). */
  REMINDERS: bool(true),
  /** How often the worker looks for customers due a reminder. */
  REMINDERS_INTERVAL_MS: int(60_000, 50),
};
type RemindersEnv = Parsed<typeof remindersEnv>;

export function remindersSettings(e: RemindersEnv) {
  return { on: e.REMINDERS, intervalMs: e.REMINDERS_INTERVAL_MS };
}
