import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningSandbox, startSandbox, TOKEN } from "../support/sandbox.ts";

/** The wire as a non-client sees it: error shapes, malformed bodies, form bodies, validation text. */

let run: RunningSandbox;

beforeAll(async () => {
  run = await startSandbox({ rateLimitPerSecond: 0 });
});
afterAll(async () => {
  await run.close();
});

const POSTS: Array<[path: string, shape: "A" | "B"]> = [
  ["/np/recharge/execute", "B"],
  ["/in/recharge/execute", "B"],
  ["/np/recharge/package", "A"],
  ["/np/recharge/check", "A"],
  ["/utility/office-codes", "A"],
  ["/in/operator-plans", "A"],
  ["/np/service/status", "B"],
  ["/in/service/status", "B"],
  ["/np/order/status", "B"],
  ["/in/order/status", "B"],
];
const GETS: Array<[path: string, shape: "A" | "B"]> = [
  ["/in/circle", "A"],
  ["/wallet/balance", "B"],
  ["/np/operators", "A"],
  ["/np/operator-types", "A"],
  ["/in/operators", "A"],
];

function expectShape(json: Record<string, unknown>, shape: "A" | "B") {
  if (shape === "A") {
    expect(json).toEqual({ error: true, message: expect.any(String) });
  } else {
    expect(json).toEqual({
      status: expect.toSatisfy((s) => s === false || s === "failed"),
      message: expect.any(String),
      data: [],
    });
  }
}

describe("authentication", () => {
  it.each([...POSTS, ...GETS])(
    "%s answers 401 in shape %s without a valid token",
    async (path, shape) => {
      const method = GETS.some(([p]) => p === path) ? "GET" : "POST";
      const attempts: Array<Record<string, string>> = [{}, { "x-auth-token": "nope" }];
      for (const headers of attempts) {
        const r = await call(run.base, method, path, method === "GET" ? undefined : {}, headers);
        expect(r.status).toBe(401);
        expectShape(r.json, shape);
      }
    },
  );
});

describe("malformed bodies", () => {
  it.each(POSTS)(
    "%s answers 400 in shape %s to broken JSON, arrays and huge bodies",
    async (path, shape) => {
      for (const body of ["{bad", '{"operator_id": 5,', "[1,2]", '"text"']) {
        const r = await call(run.base, "POST", path, body);
        expect(r.status).toBe(400);
        expectShape(r.json, shape);
      }
      const huge = await call(run.base, "POST", path, JSON.stringify({ pad: "x".repeat(70_000) }));
      expect(huge.status).toBe(413);
      expectShape(huge.json, shape);
    },
  );

  it("answers an unknown path with 404 in shape A", async () => {
    const r = await call(run.base, "GET", "/np/nothing-here");
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: true, message: "Not found" });
  });
});

describe("lenient types, strict content", () => {
  it("accepts ids and amounts as text, and a form-encoded status query", async () => {
    const exec = await call(run.base, "POST", "/np/recharge/execute", {
      operator_id: "5",
      operator_type_id: "1",
      connection_no: "9861234567",
      reference_no: "H-1",
      amount: "150.50",
    });
    expect(exec.status).toBe(200);
    expect(exec.json).toMatchObject({
      error: false,
      data: { reference_no: "H-1", amount: 150.5, credit_consumed: { debit_amount: 150.5 } },
    });
    const id = (exec.json.data as { transaction_id: number }).transaction_id;
    const res = await fetch(`${run.base}/np/service/status`, {
      method: "POST",
      headers: {
        "x-auth-token": TOKEN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `transaction_id=${id}`,
    });
    expect(await res.json()).toMatchObject({ data: { transaction_id: id, order_id: "H-1" } });
  });

  it.each([
    [{ operator_type_id: 1 }, "operator_id is required"],
    [{ operator_id: 5 }, "operator_type_id is required"],
    [{ operator_id: 999, operator_type_id: 1 }, "Unknown operator_id 999"],
    [
      { operator_id: 5, operator_type_id: 3 },
      "operator_type_id 3 does not match NTC Prepaid (operator type 1)",
    ],
    [
      { operator_id: 5, operator_type_id: 1, amount: 100, reference_no: 1 },
      "connection_no is required",
    ],
    [
      { operator_id: 5, operator_type_id: 1, connection_no: "9841234567", amount: 100 },
      "reference_no is required",
    ],
    [
      { operator_id: 5, operator_type_id: 1, connection_no: "9841234567", reference_no: 2 },
      "amount is required",
    ],
    [
      {
        operator_id: 5,
        operator_type_id: 1,
        connection_no: "+9779841234567",
        reference_no: 3,
        amount: 100,
      },
      "connection_no must contain digits only",
    ],
    [
      {
        operator_id: 5,
        operator_type_id: 1,
        connection_no: "09841234567",
        reference_no: 5,
        amount: 100,
      },
      "connection_no must have exactly 10 digits (got 11)",
    ],
    [
      {
        operator_id: 5,
        operator_type_id: 1,
        connection_no: "9841234567",
        reference_no: 4,
        amount: "100.555",
      },
      "amount must be an amount in rupees with at most two decimals",
    ],
    [
      {
        operator_id: 118,
        operator_type_id: 8,
        connection_no: "NEA-1",
        office_code: "273",
        reference_no: "E1",
        phone: "9841234567",
        advance_amount: "500",
      },
      "sc_no is required",
    ],
    [
      {
        operator_id: 46,
        operator_type_id: 7,
        connection_no: "KTM-1",
        office_code: "504",
        reference_no: "W1",
        amount: "500",
      },
      "month_id is required",
    ],
    [
      {
        operator_id: 46,
        operator_type_id: 7,
        connection_no: "KTM-1",
        office_code: "504",
        reference_no: "W2",
        month_id: "0",
        amount: "500",
      },
      "month_id must be a month number from 1 to 12",
    ],
    [
      {
        operator_id: 221,
        operator_type_id: 2,
        circle_id: 5,
        connection_no: "12345",
        reference_no: 9,
        amount: 300,
      },
      "connection_no must have exactly 10 digits (got 5)",
    ],
  ])("refuses %j: %s", async (body, message) => {
    const r = await call(run.base, "POST", "/np/recharge/execute", body);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: "failed", message, data: [] });
  });

  it("refuses a listing with a reference already used by a transaction", async () => {
    await call(run.base, "POST", "/np/recharge/execute", {
      operator_id: 5,
      operator_type_id: 1,
      connection_no: "9841234567",
      reference_no: "USED-1",
      amount: 100,
    });
    const r = await call(run.base, "POST", "/np/recharge/package", {
      operator_id: 2,
      operator_type_id: 3,
      connection_no: "9801234567",
      reference_no: "USED-1",
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: true,
      message: "Duplicate reference_no USED-1: a transaction with this reference already exists",
    });
  });

  it("filters operators by type and serves the India lists", async () => {
    const dth = await call(run.base, "GET", "/np/operators?operator_type_id=2");
    const labels = (dth.json.data as Array<{ label: string }>).map((o) => o.label);
    expect(labels).toContain("Dish Home");
    expect(labels).not.toContain("NTC Prepaid");
    const india = await call(run.base, "GET", "/in/operators");
    expect(india.json.data).toContainEqual({ value: 221, label: "Tata Play", operator_type_id: 2 });
  });
});
