import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/**
 * patches/@grammyjs+conversations: `external` copies each result by hand when it is plain data
 * and hands anything else to structuredClone, as the plugin did for everything. The copy must be
 * what structuredClone gives (same values, nothing shared with the original), and anything it
 * does not copy must still go through structuredClone (copied, or the same DataCloneError).
 */
const require = createRequire(import.meta.url);
const { cloneResult } = require("@grammyjs/conversations/out/conversation.js") as {
  cloneResult: (v: unknown) => unknown;
};

/** Every object reachable from `v`. */
function objectsOf(v: unknown, seen = new Set<object>()): Set<object> {
  if (v !== null && typeof v === "object" && !seen.has(v)) {
    seen.add(v);
    for (const x of Object.values(v)) objectsOf(x, seen);
  }
  return seen;
}

const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(-0),
    fc.bigInt(),
    fc.array(tie("value")),
    fc.dictionary(fc.string(), tie("value")),
  ),
})).value;

describe("the conversations patch: external's result copy", () => {
  it("copies plain data as structuredClone does, sharing nothing", () => {
    fc.assert(
      fc.property(plain, (v) => {
        const result = { ok: true, ret: v };
        const copy = cloneResult(result);
        expect(copy).toStrictEqual(structuredClone(result));
        const before = objectsOf(result);
        for (const o of objectsOf(copy)) expect(before.has(o)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps -0, NaN and a key named __proto__ as structuredClone does", () => {
    const odd = JSON.parse('{"__proto__": {"polluted": 1}, "n": 1}') as object;
    for (const v of [-0, Number.NaN, odd, [odd]]) {
      const copy = cloneResult({ ok: true, ret: v }) as { ret: unknown };
      expect(copy).toStrictEqual(structuredClone({ ok: true, ret: v }));
    }
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it("hands what is not plain data to structuredClone", () => {
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    const sparse = [1, 2, 3];
    delete sparse[1];
    const cases: unknown[] = [
      new Date(5),
      new Map([["a", 1]]),
      new Set([1]),
      new Error("boom"),
      cyclic,
      sparse,
      Object.assign([1, 2], { extra: true }),
      new Uint8Array([1, 2]),
    ];
    for (const v of cases) {
      const copy = cloneResult({ ok: false, err: v }) as { err: unknown };
      const expected = structuredClone({ ok: false, err: v });
      expect(copy.err).not.toBe(v);
      expect(Object.getPrototypeOf(copy.err)).toBe(Object.getPrototypeOf(expected.err));
      expect(copy).toStrictEqual(expected);
    }
    const again = cloneResult({ ok: true, ret: cyclic }) as { ret: { self: unknown } };
    expect(again.ret.self).toBe(again.ret);
  });

  it("refuses what structuredClone refuses", () => {
    for (const v of [() => 1, Symbol("s"), { f: () => 1 }, [Symbol("s")]]) {
      expect(() => structuredClone({ ok: true, ret: v })).toThrow();
      expect(() => cloneResult({ ok: true, ret: v })).toThrow(
        (() => {
          try {
            structuredClone({ ok: true, ret: v });
          } catch (e) {
            return (e as Error).message;
          }
          return "";
        })(),
      );
    }
  });
});
