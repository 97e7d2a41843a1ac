import {
  DEFAULT_PRICE_SCHEDULE,
  type PriceSchedule,
  PriceScheduleError,
  readPriceSchedule,
} from "../pricing/schedule.ts";

/**
 * The one setting read from a file: PRICE_SCHEDULE_FILE's price schedule (unset: the default,
 * face amount). Its problems are the configuration's, each named by the variable; nothing of the
 * file's contents is quoted (src/pricing/schedule.ts).
 */
export function readPricesFile(file: string | undefined): {
  schedule: PriceSchedule;
  problems: string[];
} {
  if (!file) return { schedule: DEFAULT_PRICE_SCHEDULE, problems: [] };
  try {
    return { schedule: readPriceSchedule(file), problems: [] };
  } catch (err) {
    if (!(err instanceof PriceScheduleError)) throw err;
    return {
      schedule: DEFAULT_PRICE_SCHEDULE,
      problems: err.problems.map((p) => `PRICE_SCHEDULE_FILE: ${p}`),
    };
  }
}
