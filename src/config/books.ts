import { rupeesToPaisa } from "../money.ts";
import { int, type Parsed } from "./fields.ts";

/** The merchant's books: the low-float alert and the float check against the aggregator. */
export const booksEnv = {
  /** Rupees: the merchant's wallet at the aggregator below this alerts admins (0: off). */
  LOW_FLOAT_ALERT: int(5_000, 0),
  /** The books' check (float against the aggregator's report): how often. */
  BOOKS_CHECK_INTERVAL_MS: int(24 * 3600_000, 1000),
  /** Rupees: a float difference beyond this alerts admins. */
  BOOKS_DRIFT_TOLERANCE: int(1, 0),
};
type BooksEnv = Parsed<typeof booksEnv>;

export function booksSettings(e: BooksEnv) {
  return {
    lowFloatAlertPaisa: rupeesToPaisa(e.LOW_FLOAT_ALERT),
    checkIntervalMs: e.BOOKS_CHECK_INTERVAL_MS,
    driftTolerancePaisa: rupeesToPaisa(e.BOOKS_DRIFT_TOLERANCE),
  };
}
