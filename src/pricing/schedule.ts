import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { z } from "zod";
import { CATEGORIES } from "../catalog/operators.ts";
import { toPaisa } from "../money.ts";

/**
 * The merchant's price schedule: what the customer pays on top of (fee) or off (discount) the face
 * amount, per category and per operator. A JSON file the merchant edits (PRICE_SCHEDULE_FILE),
 * validated here once at start; pure data afterwards (./quote.ts computes with it).
 *
 * Amounts in the file are rupees, written as a receipt shows them ("5", "2.50"): paisa in a file a
 * person edits invite a mistake of a factor of 100. Percentages are percent ("1.5"), at most two
 * decimals, which is a whole number of basis points. Both are parsed from decimal digits, never
 * through a float multiplication.
 */

/** Far above any recharge; a larger figure in the file is a typo (an extra zero or two). */
const MAX_RUPEES = 100_000;
const RUPEES = /^\d{1,6}(?:\.\d{1,2})?$/;
const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** Rupees as text or a JSON number, at most two decimals, not negative: integer paisa. */
const rupees = z
  .union([z.string(), z.number()], { error: 'must be rupees, e.g. "5" or "2.50"' })
  .transform((v, ctx) => {
    const text = typeof v === "number" ? String(v) : v.trim();
    if (text.startsWith("-")) {
      ctx.addIssue({ code: "custom", message: `must not be negative (got ${JSON.stringify(v)})` });
      return z.NEVER;
    }
    if (!RUPEES.test(text)) {
      ctx.addIssue({
        code: "custom",
        message: `must be rupees with at most two decimals, e.g. "5" or "2.50" (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    const paisa = toPaisa(text); // exact: the text has at most two decimals
    if (paisa > MAX_RUPEES * 100) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX_RUPEES} rupees` });
      return z.NEVER;
    }
    return paisa;
  });

/** Percent as text or a JSON number, 0 to 100, at most two decimals: integer basis points. */
const percent = z
  .union([z.string(), z.number()], { error: 'must be a percentage, e.g. "1.5"' })
  .transform((v, ctx) => {
    const text = typeof v === "number" ? String(v) : v.trim();
    if (text.startsWith("-")) {
      ctx.addIssue({ code: "custom", message: `must not be negative (got ${JSON.stringify(v)})` });
      return z.NEVER;
    }
    const m = PERCENT.exec(text);
    if (!m) {
      ctx.addIssue({
        code: "custom",
        message: `must be a percentage with at most two decimals, e.g. "1.5" (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    const bps = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
    if (bps > 10_000) {
      ctx.addIssue({ code: "custom", message: "must be at most 100 (percent)" });
      return z.NEVER;
    }
    return bps;
  });

/**
 * A fee or a discount: `{ "flat": "5" }`, or `{ "percent": "2", "min": "1", "max": "20" }` (bounds
 * in rupees, each optional, only with a percentage).
 */
const adjustmentSchema = z
  .strictObject({
    flat: rupees.optional(),
    percent: percent.optional(),
    min: rupees.optional(),
    max: rupees.optional(),
  })
  .superRefine((a, ctx) => {
    if ((a.flat === undefined) === (a.percent === undefined))
      ctx.addIssue({ code: "custom", message: 'needs exactly one of "flat" or "percent"' });
    if (a.flat !== undefined && (a.min !== undefined || a.max !== undefined))
      ctx.addIssue({ code: "custom", message: '"min" and "max" go with "percent", not "flat"' });
    if (a.min !== undefined && a.max !== undefined && a.min > a.max)
      ctx.addIssue({ code: "custom", path: ["min"], message: 'must not exceed "max"' });
  })
  .transform(
    (a): Adjustment =>
      a.flat !== undefined
        ? { kind: "flat", paisa: a.flat }
        : { kind: "percent", bps: a.percent!, minPaisa: a.min, maxPaisa: a.max },
  );

export type Adjustment =
  | { kind: "flat"; paisa: number }
  | { kind: "percent"; bps: number; minPaisa?: number | undefined; maxPaisa?: number | undefined };

/** What a level of the schedule sets; a part it leaves out is taken from the level below. */
const ruleShape = { fee: adjustmentSchema.optional(), discount: adjustmentSchema.optional() };
const ruleSchema = z.strictObject(ruleShape);
export type PriceRule = z.output<typeof ruleSchema>;

/** Operator ids as the operator lookup gives them (object keys in JSON are text). */
const operatorId = z.string().regex(/^[1-9]\d{0,9}$/, "operator ids are whole numbers, e.g. 46");

export const categoryRuleSchema = z.strictObject({
  ...ruleShape,
  operators: z.record(operatorId, ruleSchema).default({}),
});

const categoriesSchema = z.strictObject(
  Object.fromEntries(CATEGORIES.map((c) => [c, categoryRuleSchema.optional()])) as {
    [C in (typeof CATEGORIES)[number]]: z.ZodOptional<typeof categoryRuleSchema>;
  },
);

const priceScheduleSchema = z.strictObject({
  /** Free text for the merchant's own notes; ignored. */
  comment: z.string().optional(),
  default: ruleSchema.default({}),
  categories: categoriesSchema.default({}),
});

export type PriceSchedule = z.output<typeof priceScheduleSchema>;

/** No file: the customer pays the face amount, no fee, no discount. */
export const DEFAULT_PRICE_SCHEDULE: PriceSchedule = priceScheduleSchema.parse({});

/** Every problem of a schedule file, each naming the file and the JSON path of the bad field. */
export class PriceScheduleError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "PriceScheduleError";
  }
}

/** A zod path as a JSON path: categories.water.fee.flat, categories.dth.operators["5"]. */
function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    const k = String(key);
    out += /^[A-Za-z_$][\w$]*$/.test(k) ? `${out ? "." : ""}${k}` : `[${JSON.stringify(k)}]`;
  }
  return out || "(top level)";
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const where = jsonPath(issue.path);
    const known =
      issue.path.at(-1) === "categories" ? ` (categories are: ${CATEGORIES.join(", ")})` : "";
    return `${where}: unknown ${issue.keys.length > 1 ? "keys" : "key"} ${issue.keys
      .map((k) => JSON.stringify(k))
      .join(", ")}${known}`;
  }
  // A bad operator id: the key schema's own message says what an id looks like.
  if (issue.code === "invalid_key")
    return `${jsonPath(issue.path)}: ${issue.issues[0]?.message ?? issue.message}`;
  return `${jsonPath(issue.path)}: ${issue.message}`;
}

/** Validates parsed JSON as a schedule; `source` names it in every problem (the file's path). */
export function parsePriceSchedule(json: unknown, source: string): PriceSchedule {
  const parsed = priceScheduleSchema.safeParse(json);
  if (!parsed.success)
    throw new PriceScheduleError(parsed.error.issues.map((i) => `${source}: ${issueText(i)}`));
  return parsed.data;
}

/** A schedule is a few kilobytes; anything near this is the wrong file. */
const MAX_SCHEDULE_BYTES = 1024 * 1024;

/**
 * Reads and validates the schedule file; throws PriceScheduleError for a missing, unreadable or
 * unparsable file too. No problem quotes the file's contents: a wrong path (/etc/shadow, a key
 * file) must not end up in the start's error message or a log.
 */
export function readPriceSchedule(file: string): PriceSchedule {
  const text = readScheduleText(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // Only the position: the parser's own message quotes the text around it.
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw new PriceScheduleError([
      `${file}: not valid JSON${at ? ` (${lineAndColumn(text, Number(at))})` : ""}`,
    ]);
  }
  return parsePriceSchedule(json, file);
}

function readScheduleText(file: string): string {
  const fail = (why: string) => new PriceScheduleError([`${file}: ${why}`]);
  let fd: number;
  try {
    // Non-blocking: a FIFO or a device must not hang the start.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fail(code === "ENOENT" ? "no such file" : `cannot be read (${code ?? "error"})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw fail("is not a regular file");
    if (stat.size > MAX_SCHEDULE_BYTES) throw fail("is larger than 1 MiB: not a price schedule");
    let bytes: Buffer;
    try {
      bytes = readFileSync(fd);
    } catch (e) {
      throw fail(`cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})`);
    }
    if (bytes.includes(0)) throw fail("is a binary file, not JSON");
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw fail("is not UTF-8 text");
    }
  } finally {
    closeSync(fd);
  }
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split("\n");
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
