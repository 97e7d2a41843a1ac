import type { z } from "zod";
import { orderSchema } from "./model.ts";

/**
 * A check derived from a zod schema, at load, for the compare-and-set's validation of the written
 * order (redis-update.ts): true only when the schema would accept the value exactly as it is (no
 * key to strip, nothing to transform), so the value may be stored as it is; false sends the value
 * to the schema's own parse, which strips, throws or accepts it. The schema stays the one rule:
 * this is its reading, not a second copy of it, and it knows only the parts orderSchema and
 * orderEventSchema are made of (objects, arrays, records of unknown, optional, nullable, enums,
 * literals, booleans, strings with lengths and regexes, numbers with safe-integer and bounds,
 * refinements). A part it does not know makes the derivation give null, and then every value goes
 * to the parse, as before. orderEventSchema's check is derived and property-tested but not used:
 * it measured no cheaper than zod's parse of an event (docs/performance.md, "h-event").
 *
 * Why: zod's parse of the written order was the largest piece of the webhook route's own
 * JavaScript under load (docs/performance.md, "h-wh"): about 40 small allocations a parse, in code
 * shared by every schema of the process. This check allocates nothing.
 */
export type DerivedCheck = (value: unknown) => boolean;

// zod's internals, as far as this reads them (zod 4's `_zod.def`).
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  entries?: Record<string, unknown>;
  values?: unknown[];
  coerce?: boolean;
  format?: string;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
  fn?: (value: unknown) => unknown;
  when?: unknown;
}
interface Schema {
  _zod: { def: Def };
}

class Unsupported extends Error {}

/**
 * An object as JSON.parse and cloneJson make them, whose own keys are exactly its enumerable
 * string keys and none is `__proto__`; anything else goes to the parse (review s26-c: zod refuses
 * a symbol key in a record, strips an own `__proto__`, and copies a non-enumerable key that JSON
 * would drop).
 */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== Object.prototype)
    return false;
  return (
    Object.getOwnPropertySymbols(v).length === 0 &&
    !Object.hasOwn(v, "__proto__") &&
    Object.getOwnPropertyNames(v).length === Object.keys(v).length
  );
}

function lengthCheck(c: CheckDef): DerivedCheck {
  const min = c.minimum;
  const max = c.maximum;
  if (c.check === "min_length" && typeof min === "number")
    return (v) => (v as string).length >= min;
  if (c.check === "max_length" && typeof max === "number")
    return (v) => (v as string).length <= max;
  throw new Unsupported(c.check);
}

/** One of a string's or a number's checks (the type itself is checked before it). */
function checkOf(c: CheckDef, base: "string" | "number" | "other"): DerivedCheck {
  if (base === "string" && (c.check === "min_length" || c.check === "max_length"))
    return lengthCheck(c);
  if (base === "string" && c.check === "string_format" && c.format === "regex" && c.pattern) {
    const pattern = c.pattern;
    return (v) => {
      pattern.lastIndex = 0;
      return pattern.test(v as string);
    };
  }
  if (base === "number" && c.check === "number_format" && c.format === "safeint")
    return (v) => Number.isSafeInteger(v);
  if (base === "number" && (c.check === "greater_than" || c.check === "less_than")) {
    const bound = c.value;
    if (typeof bound !== "number") throw new Unsupported(c.check);
    if (c.check === "greater_than")
      return c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound;
    return c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound;
  }
  // A refinement: passes only on `true` itself (zod also takes any truthy answer; the parse decides those).
  if (c.check === "custom" && typeof c.fn === "function" && c.when === undefined) {
    const fn = c.fn;
    return (v) => fn(v) === true;
  }
  throw new Unsupported(c.check);
}

function withChecks(
  def: Def,
  base: "string" | "number" | "other",
  type: DerivedCheck,
): DerivedCheck {
  const checks = (def.checks ?? []).map((c) => checkOf(c._zod.def, base));
  if (checks.length === 0) return type;
  return (v) => {
    if (!type(v)) return false;
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

function objectCheck(def: Def): DerivedCheck {
  if (def.catchall !== undefined || !def.shape) throw new Unsupported("object");
  const keys = Object.keys(def.shape);
  const shape = def.shape;
  const known = new Set(keys);
  const fields = keys.map((k) => [k, derive(shape[k] as Schema)] as const);
  return (v) => {
    if (!isPlainObject(v)) return false;
    // A key the schema does not name is stripped by the parse: the parse decides.
    for (const k of Object.keys(v)) if (!known.has(k)) return false;
    for (const [k, check] of fields) if (!check(v[k])) return false;
    return true;
  };
}

function derive(schema: Schema): DerivedCheck {
  const def = schema._zod.def;
  if (def.coerce) throw new Unsupported("coerce");
  // z.int(), z.email(), z.uuid() and the like carry their format on the schema itself, not as a
  // check: not read here, so parsed (review s26-c).
  if (def.format !== undefined) throw new Unsupported(`format ${def.format}`);
  switch (def.type) {
    case "string":
      return withChecks(def, "string", (v) => typeof v === "string");
    case "number":
      return withChecks(def, "number", (v) => typeof v === "number" && Number.isFinite(v));
    case "object":
      return withChecks(def, "other", objectCheck(def));
    case "array": {
      if (!def.element) throw new Unsupported("array");
      const element = derive(def.element);
      const max = (def.checks ?? []).map((c) => c._zod.def);
      for (const c of max) if (c.check !== "max_length") throw new Unsupported(c.check);
      const limits = max.map((c) => c.maximum ?? Number.NaN);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (const limit of limits) if (!(v.length <= limit)) return false;
        for (const item of v) if (!element(item)) return false;
        return true;
      };
    }
    case "record": {
      const key = def.keyType?._zod.def;
      const value = def.valueType?._zod.def;
      const plainKeys = key?.type === "string" && (key.checks ?? []).length === 0;
      if (!plainKeys || value?.type !== "unknown" || (def.checks ?? []).length > 0)
        throw new Unsupported("record");
      return isPlainObject;
    }
    case "boolean":
      if ((def.checks ?? []).length > 0) throw new Unsupported("boolean");
      return (v) => typeof v === "boolean";
    case "unknown":
      return () => true;
    case "optional":
    case "nullable": {
      if (!def.innerType || (def.checks ?? []).length > 0) throw new Unsupported(def.type);
      const inner = derive(def.innerType);
      return def.type === "optional"
        ? (v) => v === undefined || inner(v)
        : (v) => v === null || inner(v);
    }
    case "enum":
    case "literal": {
      const allowed = new Set(def.type === "enum" ? Object.values(def.entries ?? {}) : def.values);
      if ((def.checks ?? []).length > 0) throw new Unsupported(def.type);
      // A TypeScript numeric enum's object also maps its numbers back to names, which zod's
      // values leave out: only string enums are read here (review s26-c).
      if (def.type === "enum" && [...allowed].some((x) => typeof x !== "string"))
        throw new Unsupported("numeric enum");
      return (v) => allowed.has(v);
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** The check of `schema`, or null when it has a part this does not read (then: always parse). */
export function derivedCheck(schema: z.ZodType): DerivedCheck | null {
  try {
    return derive(schema as unknown as Schema);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

const orderCheck = derivedCheck(orderSchema);

/**
 * The order a compare-and-set writes, valid by orderSchema: the value itself when the schema
 * accepts it as it is (derivedCheck), else the schema's parse of it (which strips or throws).
 */
export function validOrder(order: unknown): z.output<typeof orderSchema> {
  return orderCheck?.(order) ? (order as z.output<typeof orderSchema>) : orderSchema.parse(order);
}
