import { z } from "zod";
import { createCatalog, INDIA_OPERATOR_KEYS, type IndiaOperatorKey } from "../catalog/index.ts";
import { emptyToUndefined, int, listItems, type Parsed } from "./fields.ts";

/** INDIA_OPERATOR_IDS: "jio-prepaid=301,tata-play=330"; each key one of INDIA_OPERATOR_KEYS. */
const indiaOperatorIds = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((s, ctx) => {
      const ids: Partial<Record<IndiaOperatorKey, number>> = {};
      for (const part of listItems(s)) {
        const m = /^([a-z-]+)\s*=\s*(\d{1,9})$/.exec(part);
        const key = m?.[1] as IndiaOperatorKey | undefined;
        if (!m || !key || !INDIA_OPERATOR_KEYS.includes(key) || Number(m[2]) < 1) {
          ctx.addIssue({
            code: "custom",
            message: `"${part}" is not <operator>=<id> with <operator> one of ${INDIA_OPERATOR_KEYS.join(", ")}`,
          });
          return z.NEVER;
        }
        ids[key] = Number(m[2]);
      }
      return ids;
    }),
);

/** The catalogue's settings: operator ids the aggregator assigns, amount bounds, its refresh. */
export const catalogEnv = {
  NTC_MOBILE_MAX_AMOUNT: int(3000, 50),
  WATER_OPERATOR_ID: int(46, 1),
  ELECTRICITY_OPERATOR_ID: int(118, 1),
  ELECTRICITY_OPERATOR_TYPE_ID: int(8, 1),
  INDIA_OPERATOR_IDS: indiaOperatorIds,
  INDIA_MOBILE_OPERATOR_TYPE_ID: int(1, 1),
  INDIA_DTH_OPERATOR_TYPE_ID: int(2, 1),
  BILL_ADVANCE_MIN: int(1, 1),
  BILL_ADVANCE_MAX: int(100_000, 1),
  CATALOG_REFRESH_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .refine((n) => n === 0 || n >= 1000, "must be 0 (only at start) or at least 1000")
      .default(300_000),
  ),
};
type CatalogEnv = Parsed<typeof catalogEnv>;

export function catalogSettings(e: CatalogEnv) {
  return {
    ntcMobileMaxAmount: e.NTC_MOBILE_MAX_AMOUNT,
    waterOperatorId: e.WATER_OPERATOR_ID,
    electricityOperatorId: e.ELECTRICITY_OPERATOR_ID,
    electricityOperatorTypeId: e.ELECTRICITY_OPERATOR_TYPE_ID,
    indiaOperatorIds: e.INDIA_OPERATOR_IDS,
    indiaMobileOperatorTypeId: e.INDIA_MOBILE_OPERATOR_TYPE_ID,
    indiaDthOperatorTypeId: e.INDIA_DTH_OPERATOR_TYPE_ID,
    advanceMinRupees: e.BILL_ADVANCE_MIN,
    advanceMaxRupees: e.BILL_ADVANCE_MAX,
  };
}

export function catalogRules(e: CatalogEnv): string[] {
  const problems: string[] = [];
  if (e.BILL_ADVANCE_MIN > e.BILL_ADVANCE_MAX)
    problems.push("BILL_ADVANCE_MAX: must not be below BILL_ADVANCE_MIN");
  // The catalogue checks its own ids when it is built (an India id, or the water/electricity id,
  // equal to another operator's): building one here refuses them at start, naming the variables.
  try {
    createCatalog(catalogSettings(e));
  } catch (err) {
    problems.push(
      `INDIA_OPERATOR_IDS / WATER_OPERATOR_ID / ELECTRICITY_OPERATOR_ID: ${(err as Error).message}`,
    );
  }
  return problems;
}
