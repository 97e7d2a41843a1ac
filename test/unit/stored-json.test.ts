import { describe, expect, it } from "vitest";
import { z } from "zod";
import { storedJson } from "../../src/stored-json.ts";

/** The one reader of a stored JSON record: what it gives for each kind of raw value. */
describe("storedJson", () => {
  const schema = z.object({ a: z.number().int(), b: z.string().default("x") });

  it("gives the record through the schema (defaults filled)", () => {
    expect(storedJson(schema, '{"a":1}')).toEqual({ a: 1, b: "x" });
  });

  it("gives null for no record, for what is not JSON and for another shape, never throws", () => {
    expect(storedJson(schema, null)).toBeNull();
    expect(storedJson(schema, undefined)).toBeNull();
    expect(storedJson(schema, "")).toBeNull();
    expect(storedJson(schema, "{cut off")).toBeNull();
    expect(storedJson(schema, '{"a":1.5}')).toBeNull();
    expect(storedJson(schema, "[1]")).toBeNull();
  });
});
