import fc from "fast-check";
import { expect } from "vitest";
import type { z } from "zod";

/**
 * Random edits of valid JSON values (a value set to an odd one, deleted, an unknown key added),
 * for the property tests of the checks derived from zod schemas (src/orders/order-check.ts).
 */

/** Every path to a value in `v` (objects' keys and arrays' indexes). */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== "object" || v === null) return [prefix];
  const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  return [
    prefix,
    ...keys.flatMap((k) => paths((v as Record<string | number, unknown>)[k], [...prefix, k])),
  ];
}

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  "",
  "a",
  "12",
  "0123",
  "x".repeat(4097),
  "x".repeat(201),
  "x".repeat(301),
  "x".repeat(501),
  true,
  false,
  [],
  [1],
  ["queued"],
  {},
  { a: 1 },
  { adminChatIds: [] },
  "pending",
  "success",
  "webhook",
  "admin",
  "np",
  new Date(0),
];

interface Edit {
  path: (string | number)[];
  kind: "set" | "delete" | "extra";
  value: unknown;
}

function edited<T>(value: T, edits: Edit[]): unknown {
  const copy = structuredClone(value) as unknown;
  for (const e of edits) {
    if (e.path.length === 0) continue;
    let at: unknown = copy;
    for (const k of e.path.slice(0, -1))
      at = typeof at === "object" && at !== null ? (at as Record<string | number, unknown>)[k] : at;
    // An earlier edit changed the way there: this one has nothing to edit.
    if (typeof at !== "object" || at === null) continue;
    const last = e.path[e.path.length - 1] as string | number;
    if (e.kind === "delete") delete (at as Record<string | number, unknown>)[last];
    else if (e.kind === "extra") {
      // An array with a named property is no JSON value: nothing the store reads or clones.
      if (!Array.isArray(at))
        (at as Record<string, unknown>)[`extra_${String(last)}`] = structuredClone(e.value);
    } else (at as Record<string | number, unknown>)[last] = structuredClone(e.value);
  }
  return copy;
}

/** One of `fixtures`, edited one to three times at random paths. */
export function editedValues<T>(fixtures: readonly T[]): fc.Arbitrary<unknown> {
  return fc.integer({ min: 0, max: fixtures.length - 1 }).chain((i) => {
    const value = fixtures[i] as T;
    const edit = fc.record({
      path: fc.constantFrom(...paths(value)),
      kind: fc.constantFrom("set" as const, "delete" as const, "extra" as const),
      value: fc.oneof(
        fc.constantFrom(...ODD_VALUES),
        fc.integer(),
        fc.double(),
        fc.string({ maxLength: 20 }),
      ),
    });
    return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => edited(value, edits));
  });
}

/**
 * The property both derived checks must keep: over 20,000 random edits of `fixtures`, whatever
 * `check` passes, `schema`'s parse accepts and gives back the same JSON value (what is stored is the
 * JSON text: key order aside). Answers how many edits passed (the caller wants more than a few).
 */
export function passedAgreeWithParse(
  schema: z.ZodType,
  check: ((v: unknown) => boolean) | null,
  fixtures: readonly unknown[],
): number {
  let passed = 0;
  fc.assert(
    fc.property(editedValues(fixtures), (value) => {
      const parsed = schema.safeParse(value);
      if (check?.(value)) {
        passed++;
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(value);
        expect(JSON.parse(JSON.stringify(parsed.data))).toStrictEqual(
          JSON.parse(JSON.stringify(value)),
        );
      }
    }),
    { numRuns: 20_000 },
  );
  return passed;
}
