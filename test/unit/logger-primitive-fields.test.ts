import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createLogger, type PrimitiveFields, primitiveFieldsLogger } from "../../src/logger.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { mobileInput, placedOrder } from "../support/orders.ts";

/**
 * primitiveFieldsLogger (src/logger.ts): the status-change line's cheaper child. For a line of
 * strings and numbers it must write what the parent writes, censor the same top-level fields and
 * scrub the same secret values.
 */

const SECRET = "s3cret-webhook-value";

function capture(bindings?: Record<string, unknown>) {
  const lines: Record<string, unknown>[] = [];
  const root = createLogger({
    level: "info",
    secrets: [SECRET],
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  });
  const logger = bindings ? root.child(bindings) : root;
  return { logger, lines };
}

const withoutTime = (line: Record<string, unknown> | undefined) => {
  const { time: _time, ...rest } = line ?? {};
  return rest;
};

describe("primitiveFieldsLogger", () => {
  it("writes what the parent writes for lines of strings, numbers and booleans", () => {
    const { logger, lines } = capture({ requestId: "r-1" });
    const child = primitiveFieldsLogger(logger);
    const samples: PrimitiveFields[] = [
      { reference: "1700000000001", from: "queued", to: "pending", source: "webhook" },
      { reference: "1700000000001", from: "pending", to: "success", note: "confirms webhook x" },
      { token: "abc", secret: "def", webhookSecret: "ghi", accessToken: "jkl", n: 3, ok: true },
      { note: `a note that quotes ${SECRET} by mistake`, providerToken: "p" },
    ];
    for (const fields of samples) {
      logger.info(fields, "order status changed");
      child.info(fields, "order status changed");
    }
    expect(lines).toHaveLength(samples.length * 2);
    for (let i = 0; i < samples.length; i++) {
      expect(withoutTime(lines[2 * i + 1])).toEqual(withoutTime(lines[2 * i]));
    }
    // The same censoring as the parent's: top-level paths and the secret's value.
    expect(lines[5]).toMatchObject({
      token: "[redacted]",
      secret: "[redacted]",
      webhookSecret: "[redacted]",
      accessToken: "[redacted]",
      requestId: "r-1",
    });
    expect(JSON.stringify(lines[7])).not.toContain(SECRET);
    expect(lines[7]).toMatchObject({ providerToken: "[redacted]" });
  });

  it("is the logger of the order's status-change line", async () => {
    const { logger, lines } = capture();
    const store = createMemoryOrderStore({});
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: {
        execute: () => Promise.reject(new Error("not used")),
        statusByReference: () => Promise.reject(new Error("not used")),
      },
      logger,
    });
    await store.create(placedOrder({ status: "queued", transactionId: "T1" }));
    const applied = await orders.apply({
      reference: "1700000000001",
      source: "webhook",
      status: "pending",
      at: 5,
      note: `relayed ${SECRET}`,
    });
    expect(applied.outcome).toBe("changed");
    const line = lines.find((l) => l.msg === "order status changed");
    expect(line).toMatchObject({
      reference: "1700000000001",
      from: "queued",
      to: "pending",
      source: "webhook",
      note: "relayed [redacted]",
    });
  });

  it("writes the 'order placed' line once, with its reference, category and operator", async () => {
    const { logger, lines } = capture({ requestId: "r-2" });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: createMemoryOrderStore({}),
      provider: {
        execute: () => Promise.reject(new Error("not used")),
        statusByReference: () => Promise.reject(new Error("not used")),
      },
      logger,
    });
    const input = mobileInput();
    const order = await orders.place(input);
    // Placed again under the same key: the same order, no second line.
    await orders.place(input);
    const placed = lines.filter((l) => l.msg === "order placed");
    expect(placed).toHaveLength(1);
    expect(withoutTime(placed[0])).toEqual({
      level: 30,
      pid: process.pid,
      hostname: placed[0]?.hostname,
      requestId: "r-2",
      reference: order.reference,
      category: "mobile",
      operatorId: input.operatorId,
      msg: "order placed",
    });
  });
});
