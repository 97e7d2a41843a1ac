import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transition } from "../../src/orders/index.ts";
import { MAX_PAYLOAD_CHARS, payloadOf } from "../../src/orders/payload.ts";
import { eventFromExecute, eventFromStatus } from "../../src/orders/provider-events.ts";
import { applyWebhookEvent } from "../../src/webhook/apply.ts";
import type { WebhookPayload } from "../../src/webhook/payload.ts";
import {
  ADMIN,
  AGENT,
  type DashboardHarness,
  loggedIn,
  startDashboard,
} from "../support/dashboard.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * An order's timeline keeps what the provider sent behind each event (an execute answer, a status
 * reply, a webhook) as JSON with secret-looking fields hidden and at most 4 KB, in the same write
 * as the event (its history entry); the order's page shows it collapsed and escaped.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});

describe("payloadOf", () => {
  it("hides secret-looking fields at any depth and keeps the rest", () => {
    const text = payloadOf({
      status: "success",
      token: "T0KEN",
      nested: { apiKey: "K3Y", Authorization: "Bearer X", password: "pw", keep: "<b>ok</b>" },
    });
    expect(text).not.toMatch(/T0KEN|K3Y|Bearer X|"pw"/);
    expect(JSON.parse(text)).toEqual({
      status: "success",
      token: "[hidden]",
      nested: {
        apiKey: "[hidden]",
        Authorization: "[hidden]",
        password: "[hidden]",
        keep: "<b>ok</b>",
      },
    });
  });

  it("hides a key whose word boundary JSON's escaping moves, and reads a plain payload as JSON does", () => {
    // "\npin" is a key SECRET_KEY's \bpin\b matches; written as JSON it reads "\\npin", no boundary.
    expect(JSON.parse(payloadOf({ "\npin": "1234", spin: "x" }))).toEqual({
      "\npin": "[hidden]",
      spin: "x",
    });
    const plain = { status: "success", order_id: "42", amount: 150, details: { operator: "NTC" } };
    expect(payloadOf(plain)).toBe(JSON.stringify(plain));
    // Secret-looking words in values only: the text may match, nothing is hidden.
    expect(JSON.parse(payloadOf({ message: "token expired" }))).toEqual({
      message: "token expired",
    });
  });

  it("writes what the replacer on every call wrote, for any JSON with secret-looking keys", () => {
    // The implementation before the plain-text pre-check: the replacer on every call.
    const SECRET =
      /token|secret|password|passwd|api[-_]?key|authori[sz]ation|signature|cookie|\bpin\b|otp/i;
    const before = (value: unknown) => {
      const text =
        JSON.stringify(value, (key, v) => (key !== "" && SECRET.test(key) ? "[hidden]" : v)) ??
        String(value);
      return text.length <= MAX_PAYLOAD_CHARS
        ? text
        : `${text.slice(0, MAX_PAYLOAD_CHARS - "…(cut)".length)}…(cut)`;
    };
    const word = fc.constantFrom(
      "ToKeN",
      "secret",
      "PASSWD",
      "api-key",
      "Api_Key",
      "authorisation",
      "cookie",
      "pin",
      "OTP",
      "spin",
      "id",
    );
    const edge = fc.constantFrom("", "\n", '"', "\\", "\uD800", "-", "_", "x", "é", " ");
    const key = fc.tuple(edge, word, edge).map(([a, w, b]) => a + w + b);
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.oneof(key, fc.string()), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => payloadOf(value) === before(value)),
      { numRuns: 2000 },
    );
  });

  it("cuts a long answer to 4 KB, saying so", () => {
    const text = payloadOf({ message: "x".repeat(10_000) });
    expect(text).toHaveLength(MAX_PAYLOAD_CHARS);
    expect(text.endsWith("…(cut)")).toBe(true);
    expect(payloadOf(undefined)).toBe("undefined");
  });
});

describe("the events carry their payload into the order's history", () => {
  it("an execute answer, a status reply and a webhook", async () => {
    const order = await h.successfulOrder(7301);
    const rejected = eventFromExecute(
      {
        kind: "rejected",
        referenceNo: "R1",
        httpStatus: 400,
        message: "bad <number>",
        rateLimited: false,
      },
      1,
    );
    expect(JSON.parse(rejected.payload!)).toMatchObject({
      kind: "rejected",
      message: "bad <number>",
    });
    const status = eventFromStatus(
      order,
      { status: "success", transactionId: order.transactionId } as never,
      "status",
      2,
    );
    expect(JSON.parse(status.payload!)).toMatchObject({ status: "success" });
    const t = transition(placedOrder(), { ...status, status: "queued", note: "checked" });
    expect(t.order.history.at(-1)).toMatchObject({ source: "status", note: "checked" });
    expect(t.order.history.at(-1)?.payload).toBe(status.payload);

    const applied: unknown[] = [];
    const p = { status: "pending", reference: order.reference, transactionId: undefined } as never;
    await applyWebhookEvent(
      {
        orders: {
          apply: async (e: unknown) => {
            applied.push(e);
            return { order: null } as never;
          },
          get: async () => null,
          getByTransactionId: async () => null,
        } as never,
        confirmations: { schedule: () => {} } as never,
        confirmFinal: true,
        logger: undefined,
        now: () => 3,
      },
      p as WebhookPayload,
    );
    expect(applied).toHaveLength(1);
    expect(JSON.parse((applied[0] as { payload: string }).payload)).toMatchObject({
      status: "pending",
      reference: order.reference,
    });
  });
});

describe("an order's page", () => {
  // Agents no longer see it (review s24-a, 1): an execute answer carries the merchant's float and
  // commission, which /status shows to admins only.
  it("shows each payload collapsed and escaped, never a secret; to admins only", async () => {
    const reference = String(Date.now()).slice(-13);
    await h.store.create(
      placedOrder({
        reference,
        idempotencyKey: `payload-${reference}`,
        userId: 7302,
        chatId: 7302,
      }),
    );
    const payload = payloadOf({
      status: "success",
      note: "<script>alert(1)</script>",
      token: "S3CRET",
    });
    const r = await h.store.update(reference, (cur) => {
      const t = transition(cur, {
        source: "status",
        status: null,
        at: Date.now(),
        note: "reply",
        payload,
      });
      return t.changed ? { order: t.order, notifications: t.notifications } : null;
    });
    expect(r?.order.history.at(-1)?.payload).toBe(payload);
    const c = await loggedIn(h, ADMIN);
    const text = await (await c.get(`/dashboard/orders?ref=${reference}`)).text();
    expect(text).toMatch(/<details><summary>payload \(\d+ characters\)<\/summary><pre>/);
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).not.toContain("<script>alert(1)</script>");
    expect(text).not.toContain("S3CRET");
    expect(text).toContain("[hidden]");
    const agent = await (await loggedIn(h, AGENT)).get(`/dashboard/orders?ref=${reference}`);
    expect(agent.status).toBe(200);
    const seen = await agent.text();
    expect(seen).toContain("reply");
    expect(seen).not.toContain("<details>");
    expect(seen).not.toContain("alert(1)");
  });

  it("the order page shows the aggregator's contradiction of a final order: what it said, when, and that no money moved", async () => {
    const reference = String(Date.now() + 7).slice(-13);
    await h.store.create(
      placedOrder({
        reference,
        idempotencyKey: `contradicted-${reference}`,
        userId: 7303,
        chatId: 7303,
        status: "pending",
      }),
    );
    const step = (status: "success" | "failed", at: number) =>
      h.store.update(reference, (cur) => {
        const t = transition(cur, { source: "status", status, at }, [ADMIN]);
        return t.changed ? { order: t.order, notifications: t.notifications } : null;
      });
    const at = Date.UTC(2026, 10, 20, 8, 15, 0);
    await step("success", at - 60_000);
    const r = await step("failed", at);
    expect(r?.order.contradicted).toEqual({ at, said: "failed", source: "status" });
    for (const who of [ADMIN, AGENT]) {
      const c = await loggedIn(h, who);
      const text = await (await c.get(`/dashboard/orders?ref=${reference}`)).text();
      expect(text).toContain("Contradicted by the aggregator");
      expect(text).toContain(
        "2026-11-20 08:15:00 UTC: the aggregator said failed (status answer), but the order stays success; no money moved",
      );
    }
  });
});
