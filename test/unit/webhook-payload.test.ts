import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonPreservingBigInts } from "../../src/provider/json.ts";
import {
  parseWebhookPayload,
  parseWebhookPayloadWithSchema,
  readUsualPayload,
} from "../../src/webhook/payload.ts";

/**
 * The payload's fast path (no zod for the usual shapes) must read every payload exactly as the
 * schema does: the same fields, the same refusals. Payloads are built as JSON text so that the
 * literals JSON.stringify never writes (-0, 1e400, integers past 2^53) are among them.
 */

const raw = (v: unknown) => JSON.stringify(v);

/** A JSON literal for one field: the shapes the provider sends and many it should not. */
const literal = fc.oneof(
  fc.constantFrom(
    "null",
    '""',
    '" "',
    '"  abc  "',
    "0",
    "-0",
    "-1",
    "1.5",
    "1e400",
    "-1e400",
    "12345678901234567890",
    "9007199254740991",
    "9007199254740993",
    "true",
    "[]",
    "{}",
    '"100.00"',
    '"1,000"',
    '"2024-12-21T15:18:00Z"',
    '"2024-12-21 15:18:00"',
    '"21 Dec 2024 03:18 PM"',
    "1734794280000",
    '"abc-DEF_12"',
    '"a b"',
    `"${"x".repeat(41)}"`,
    `"${"y".repeat(65)}"`,
    `"${"z".repeat(101)}"`,
    `"${"w".repeat(201)}"`,
    '"SUCCESS"',
    '" Pending "',
    '"\\u00e9t\\u00e9"',
  ),
  fc.string({ maxLength: 70 }).map(raw),
  fc.integer().map(raw),
  fc.double({ noNaN: true }).map(raw),
);

/** Well-formed values, mostly, so that the fast path decides a good share of the payloads. */
const goodId = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/).map(raw),
  fc.nat().map(raw),
  fc.constantFrom("null", '""'),
);
const goodText = fc.oneof(fc.string({ maxLength: 20 }).map(raw), fc.nat().map(raw));
const goodAmount = fc.oneof(fc.nat(1_000_000).map(raw), fc.constantFrom('"100.00"', '"5"'));
const goodTime = fc.constantFrom(
  '"2024-12-21T15:18:00Z"',
  '"2024-12-21 15:18:00"',
  "1734794280000",
  "null",
);

const field = (name: string, good: fc.Arbitrary<string> = literal) =>
  fc.option(
    fc
      .oneof({ arbitrary: good, weight: 4 }, { arbitrary: literal, weight: 1 })
      .map((v) => `"${name}":${v}`),
    { nil: undefined },
  );

const details = fc.option(
  fc.oneof(
    { arbitrary: literal, weight: 1 },
    { arbitrary: fc.constant("null"), weight: 1 },
    {
      weight: 6,
      arbitrary: fc
        .tuple(field("connection_no", goodText), field("operator", goodText), field("extra"))
        .map((fs) => `{${fs.filter((f) => f !== undefined).join(",")}}`),
    },
  ),
  { nil: undefined },
);

const payloadText = fc
  .tuple(
    fc.oneof(
      {
        arbitrary: fc.constantFrom("success", "failed", "pending", " Success ", "", "   ").map(raw),
        weight: 4,
      },
      { arbitrary: literal, weight: 1 },
    ),
    field("transaction_id", goodId),
    field("order_id", goodId),
    field("amount", goodAmount),
    field("timestamp", goodTime),
    details,
    field("package_name", goodText),
    field("unknown_field"),
  )
  .map(([status, ...rest]) => {
    const [tx, order, amount, timestamp, det, pkg, other] = rest;
    const parts = [
      `"status":${status}`,
      tx,
      order,
      amount,
      timestamp,
      det === undefined ? undefined : `"details":${det}`,
      pkg,
      other,
    ];
    return `{${parts.filter((p) => p !== undefined).join(",")}}`;
  });

describe("webhook payload fast path", () => {
  it("reads every payload as the schema does, field for field, refusals included", () => {
    let decided = 0;
    fc.assert(
      fc.property(payloadText, fc.constantFrom(345, 0, -300), (text, offset) => {
        expect(parseWebhookPayload(text, offset)).toStrictEqual(
          parseWebhookPayloadWithSchema(text, offset),
        );
        if (readUsualPayload(parseJsonPreservingBigInts(text), offset) !== undefined) decided++;
      }),
      { numRuns: 5_000 },
    );
    // Not a comparison of refusals alone: the fast path decided a good share of them.
    expect(decided).toBeGreaterThan(1_000);
  });

  it("decides the provider's usual payloads itself", () => {
    const usual = [
      {
        status: "success",
        transaction_id: 500000001,
        order_id: "100000000000001",
        amount: 150,
        timestamp: "2026-11-22T22:00:00.000Z",
        details: { connection_no: "9841200000", operator: "NTC" },
      },
      {
        status: "pending",
        transaction_id: "98765",
        order_id: 12345,
        amount: "100.00",
        timestamp: "2024-12-21 15:18:00",
        details: null,
        package_name: null,
      },
    ];
    for (const p of usual) {
      const text = JSON.stringify(p);
      const fast = readUsualPayload(JSON.parse(text));
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(parseWebhookPayloadWithSchema(text));
    }
    // A transaction id past 2^53 stays exact (quoted before parsing) on the fast path too.
    const big = '{"status":"success","transaction_id":12345678901234567890,"order_id":"7"}';
    expect(parseWebhookPayload(big)?.transactionId).toBe("12345678901234567890");
  });

  it("leaves the schema to refuse what it refuses", () => {
    for (const text of [
      '{"status":"success"}',
      '{"status":"","order_id":"1"}',
      '{"status":"success","order_id":"a b"}',
      '{"status":"success","order_id":-1}',
      '{"status":"success","order_id":"1","amount":true}',
      '{"status":"success","order_id":"1","details":[]}',
      "[]",
      "null",
    ]) {
      expect(readUsualPayload(JSON.parse(text))).toBeUndefined();
      expect(parseWebhookPayload(text)).toBeNull();
    }
  });
});
