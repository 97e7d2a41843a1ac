import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderInvalidRequestError } from "../../src/provider/index.ts";
import {
  createProviderClient,
  type ExecuteTerms,
  type TermsClient,
} from "../support/execute-terms.ts";
import {
  captureLogger,
  type FakeProvider,
  type Reply,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";

/** Execute: exact bodies per category, and the three outcomes after exactly one request. */

const EXECUTE = "/np/recharge/execute";
let provider: FakeProvider;
let client: TermsClient;
const logger = captureLogger();

beforeAll(async () => {
  provider = await startFakeProvider();
  client = createProviderClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    executeTimeoutMs: 200,
    logger,
  });
});
afterEach(() => {
  provider.requests.length = 0;
  logger.calls.length = 0;
});
afterAll(async () => {
  await client.close();
  await provider.close();
});

const successBody = {
  error: false,
  message: "Recharge request accepted",
  data: {
    transaction_id: 778899,
    reference_no: 1001,
    amount: 100,
    credit_consumed: { service_charge: 0, instant_discount: 2.5, debit_amount: 97.5 },
    credit_available: 5635.22,
    commission: 1.25,
    status: "Queued",
  },
};

const mobile: ExecuteTerms = {
  category: "mobile",
  operatorId: 5,
  operatorTypeId: 1,
  connectionNo: "9841234567",
  referenceNo: "1001",
  amountPaisa: 10000,
};

/** Executes against a one-route server and returns the result and the single recorded request. */
/** The success sample echoing `referenceNo` (an answer naming another is about another order). */
const answering = (referenceNo: string) => ({
  ...successBody,
  data: { ...successBody.data, reference_no: referenceNo },
});

async function executeWith(req: ExecuteTerms, reply: Reply, path = EXECUTE) {
  provider.on("POST", path, reply);
  const result = await client.execute(req);
  expect(provider.requests).toHaveLength(1);
  return { result, sent: provider.requests[0]! };
}

describe("request bodies, field by field, in the JSON types of spec 4.1", () => {
  const cases: Array<{ req: ExecuteTerms; body: Record<string, unknown>; path?: string }> = [
    {
      req: {
        category: "internet",
        operatorId: 19,
        operatorTypeId: 5,
        connectionNo: "ram.subisu",
        packageId: "101",
        packageName: "Subisu 100 Mbps 1 month",
        amountPaisa: 150050,
        referenceNo: "2001",
      },
      body: {
        operator_id: 19,
        operator_type_id: 5,
        connection_no: "ram.subisu",
        package_id: 101,
        package_name: "Subisu 100 Mbps 1 month",
        amount: 1500.5,
        reference_no: 2001,
      },
    },
    {
      req: {
        category: "datapack",
        operatorId: 2,
        operatorTypeId: 3,
        connectionNo: "9801234567",
        packageId: "PROD_001_inv",
        referenceNo: "PKG-REF-1",
        amountPaisa: 5000,
      },
      body: {
        operator_id: 2,
        operator_type_id: 3,
        connection_no: "9801234567",
        package_id: "PROD_001_inv",
        reference_no: "PKG-REF-1",
        amount: 50,
      },
    },
    {
      req: {
        category: "datapack",
        operatorId: 8,
        operatorTypeId: 3,
        connectionNo: "9841234567",
        packageId: "17",
        referenceNo: "PKG-REF-2",
      },
      body: {
        operator_id: 8,
        operator_type_id: 3,
        connection_no: "9841234567",
        package_id: "17",
        reference_no: "PKG-REF-2",
      },
    },
    {
      req: {
        category: "dth",
        operatorId: 43,
        operatorTypeId: 2,
        connectionNo: "1234567890",
        packageId: "PROD_002_inv",
        referenceNo: "DTH-REF-9",
      },
      body: {
        operator_id: 43,
        operator_type_id: 2,
        connection_no: "1234567890",
        package_id: "PROD_002_inv",
        reference_no: "DTH-REF-9",
      },
    },
    {
      req: mobile,
      body: {
        operator_id: 5,
        operator_type_id: 1,
        connection_no: "9841234567",
        reference_no: 1001,
        amount: 100,
      },
    },
    {
      req: {
        category: "india",
        operatorId: 12,
        operatorTypeId: 1,
        connectionNo: "9876543210",
        circleId: "5",
        referenceNo: "3001",
        amountPaisa: 23900,
      },
      body: {
        operator_id: 12,
        operator_type_id: 1,
        connection_no: "9876543210",
        circle_id: 5,
        reference_no: 3001,
        amount: 239,
      },
      path: "/in/recharge/execute",
    },
    {
      req: {
        category: "landline",
        operatorId: 11,
        operatorTypeId: 4,
        connectionNo: "014123456",
        referenceNo: "4001",
        amountPaisa: 50000,
      },
      body: {
        operator_id: 11,
        operator_type_id: 4,
        connection_no: "014123456",
        reference_no: 4001,
        amount: 500,
      },
    },
    {
      req: {
        category: "water",
        operatorId: 46,
        operatorTypeId: 7,
        connectionNo: "1234",
        officeCode: "101",
        referenceNo: "WB-1",
        monthId: 9,
        amountPaisa: 53344,
      },
      body: {
        operator_id: 46,
        operator_type_id: 7,
        connection_no: "1234",
        office_code: "101",
        reference_no: "WB-1",
        month_id: "9",
        amount: "533.44",
      },
    },
    {
      req: {
        category: "electricity",
        operatorId: 90,
        operatorTypeId: 8,
        connectionNo: "012.34.567",
        officeCode: "273",
        scNo: "SC-7788",
        referenceNo: "EL-1",
        phone: "9841000000",
        amountPaisa: 120000,
      },
      body: {
        operator_id: 90,
        operator_type_id: 8,
        connection_no: "012.34.567",
        office_code: "273",
        sc_no: "SC-7788",
        reference_no: "EL-1",
        phone: "9841000000",
        advance_amount: "1200",
      },
    },
  ];

  for (const { req, body, path } of cases) {
    it(`${req.category}${"amountPaisa" in req ? "" : " (no amount)"}`, async () => {
      const { result, sent } = await executeWith(
        req,
        { json: answering(req.referenceNo) },
        path ?? EXECUTE,
      );
      expect(sent.path).toBe(path ?? EXECUTE);
      expect(sent.headers["x-auth-token"]).toBe(TOKEN);
      expect(sent.headers["content-type"]).toBe("application/json");
      expect(sent.headers.accept).toBe("application/json");
      // toStrictEqual checks every field, its JSON type, and that no other field is sent.
      expect(sent.body).toStrictEqual(body);
      expect(result.kind).toBe("accepted");
      expect(result.referenceNo).toBe(req.referenceNo);
    });
  }

  it("internet package ids that are not numbers are sent as text", async () => {
    const { sent } = await executeWith(
      {
        category: "internet",
        operatorId: 20,
        operatorTypeId: 5,
        connectionNo: "user1",
        packageId: "WL_100M",
        packageName: "Worldlink 100M",
        amountPaisa: 100000,
        referenceNo: "2002",
      },
      { json: successBody },
    );
    expect((sent.body as Record<string, unknown>).package_id).toBe("WL_100M");
  });

  it("the India execute path is configurable", async () => {
    const custom = createProviderClient({
      baseUrl: provider.baseUrl,
      token: TOKEN,
      paths: { indiaExecute: "/np/recharge/execute" },
    });
    try {
      provider.on("POST", EXECUTE, { json: answering("3002") });
      const result = await custom.execute({
        category: "india",
        operatorId: 12,
        operatorTypeId: 1,
        connectionNo: "9876543210",
        circleId: 5,
        referenceNo: "3002",
        amountPaisa: 5000,
      });
      expect(result.kind).toBe("accepted");
      expect(provider.received("POST", EXECUTE)).toHaveLength(1);
    } finally {
      await custom.close();
    }
  });

  it("invalid requests are refused before anything is sent", async () => {
    const bad: unknown[] = [
      { ...mobile, referenceNo: "00123" }, // a number reference cannot keep leading zeros
      { ...mobile, referenceNo: "99999999999999999999" }, // beyond 2^53
      { ...mobile, amountPaisa: 100.5 },
      { ...mobile, amountPaisa: 0 },
      { ...mobile, category: "gift-card" },
      { ...mobile, connectionNo: "" },
    ];
    for (const req of bad) {
      await expect(client.execute(req as ExecuteTerms)).rejects.toBeInstanceOf(
        ProviderInvalidRequestError,
      );
    }
    expect(provider.requests).toHaveLength(0);
  });
});

describe("accepted", () => {
  it("reads the success sample into paisa, lowercasing the status", async () => {
    const { result } = await executeWith(mobile, { json: successBody });
    expect(result).toStrictEqual({
      kind: "accepted",
      referenceNo: "1001",
      transactionId: "778899",
      status: "queued",
      message: "Recharge request accepted",
      amountPaisa: 10000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 250,
      debitAmountPaisa: 9750,
      creditAvailablePaisa: 563522,
      commissionPaisa: 125,
    });
  });

  it("tolerates string amounts, credits_available, no commission and a huge transaction id", async () => {
    const text =
      '{"error":false,"message":"Success","data":{"transaction_id":123456789012345678901,' +
      '"reference_no":"WB-1","amount":"533.44","credit_consumed":{"service_charge":"5",' +
      '"instant_discount":"0","debit_amount":"538.44"},"credits_available":"5732.72","status":"SUCCESS"}}';
    const { result } = await executeWith(
      {
        category: "water",
        operatorId: 46,
        operatorTypeId: 7,
        connectionNo: "1234",
        officeCode: "101",
        referenceNo: "WB-1",
        monthId: 9,
        amountPaisa: 53344,
      },
      { json: text },
    );
    expect(result).toStrictEqual({
      kind: "accepted",
      referenceNo: "WB-1",
      transactionId: "123456789012345678901",
      status: "success",
      message: "Success",
      amountPaisa: 53344,
      serviceChargePaisa: 500,
      instantDiscountPaisa: 0,
      debitAmountPaisa: 53844,
      creditAvailablePaisa: 573272,
    });
  });

  it("201 and 202 are successes too", async () => {
    for (const status of [201, 202]) {
      provider.requests.length = 0;
      const { result } = await executeWith(mobile, { json: successBody, status });
      expect(result.kind).toBe("accepted");
    }
  });

  // Review s31-orders, 2: an answer naming another reference is about another order (a duplicate
  // guard answering with an earlier transaction): taken as ours, it charged the customer twice.
  it("an answer echoing another reference is an unknown outcome, not accepted", async () => {
    const body = { ...successBody, data: { ...successBody.data, reference_no: 1000 } };
    const { result } = await executeWith(mobile, { json: body });
    expect(result).toMatchObject({ kind: "unknown", referenceNo: "1001", reason: "malformed" });
    expect(result.kind === "unknown" && result.detail).toMatch(/echoes reference 1000, not ours/);
  });

  it("the same reference written otherwise, or none echoed, is accepted", async () => {
    for (const reference_no of ["1001", " 1001 ", 1001, undefined]) {
      const body = { ...successBody, data: { ...successBody.data, reference_no } };
      provider.requests.length = 0;
      const { result } = await executeWith(mobile, { json: body });
      expect(result.kind).toBe("accepted");
    }
  });

  it("a provider status of failed inside a success envelope stays accepted with that status", async () => {
    const body = { ...successBody, data: { ...successBody.data, status: "Failed" } };
    const { result } = await executeWith(mobile, { json: body });
    expect(result).toMatchObject({ kind: "accepted", status: "failed" });
  });
});

describe("rejected: the provider did not execute", () => {
  const cases: Array<{
    name: string;
    reply: Reply;
    httpStatus: number;
    message: string;
    rateLimited?: boolean;
  }> = [
    {
      name: "400 with error shape B (string status)",
      reply: {
        status: 400,
        json: { status: "failed", message: "Amount must be between 50 and 3000", data: [] },
      },
      httpStatus: 400,
      message: "Amount must be between 50 and 3000",
    },
    {
      name: "400 with error shape B (boolean status)",
      reply: { status: 400, json: { status: false, message: "Invalid operator", data: [] } },
      httpStatus: 400,
      message: "Invalid operator",
    },
    {
      name: "401 unauthenticated",
      reply: { status: 401, json: { error: true, message: "Unauthenticated." } },
      httpStatus: 401,
      message: "Unauthenticated.",
    },
    {
      name: "404 not found with an HTML body",
      reply: { status: 404, text: "<html><body>Not Found</body></html>" },
      httpStatus: 404,
      message: "HTTP 404",
    },
    {
      name: "429 throttling",
      reply: {
        status: 429,
        json: { error: true, message: "Too many requests" },
        headers: { "retry-after": "3" },
      },
      httpStatus: 429,
      message: "Too many requests",
      rateLimited: true,
    },
    {
      name: "200 with error shape A",
      reply: { json: { error: true, message: "Insufficient balance" } },
      httpStatus: 200,
      message: "Insufficient balance",
    },
    {
      name: "200 with error shape B, status false",
      reply: { json: { status: false, message: "Invalid number", data: [] } },
      httpStatus: 200,
      message: "Invalid number",
    },
    {
      name: '200 with error shape B, status "failed"',
      reply: { json: { status: "failed", message: "Operator down", data: [] } },
      httpStatus: 200,
      message: "Operator down",
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { result } = await executeWith(mobile, c.reply);
      expect(result).toStrictEqual({
        kind: "rejected",
        referenceNo: "1001",
        httpStatus: c.httpStatus,
        message: c.message,
        rateLimited: c.rateLimited ?? false,
      });
    });
  }
});

describe("unknown: may or may not have executed; exactly one request, never retried", () => {
  it("timeout: the server holds the response past executeTimeoutMs", async () => {
    const { result } = await executeWith(mobile, { hold: true });
    expect(result).toMatchObject({ kind: "unknown", referenceNo: "1001", reason: "timeout" });
    expect(result.kind === "unknown" && result.detail).toContain("200 ms");
    expect(logger.calls.some((c) => c.level === "warn" && c.msg?.includes("unknown"))).toBe(true);
  });

  it("connection reset: the server destroys the socket", async () => {
    const { result } = await executeWith(mobile, { destroy: true });
    expect(result).toMatchObject({ kind: "unknown", referenceNo: "1001", reason: "network" });
  });

  // Review s25-c (note): a proxy's 408 does not prove the order was not executed: unknown, so its
  // hold is not released at once; the reconciler's status query decides.
  it("unclear refusal: a proxy's 408", async () => {
    const { result } = await executeWith(mobile, {
      status: 408,
      text: "<html><body>408 Request Timeout</body></html>",
    });
    expect(result).toMatchObject({
      kind: "unknown",
      referenceNo: "1001",
      reason: "unclear_refusal",
    });
  });

  // Review s25-e, 1: the execute is sent once, so a 409 or a duplicate refusal names a reference
  // the aggregator holds for another recharge: ours was not executed (refused; the order fails).
  const collision: Array<[string, Reply]> = [
    ["a 409 conflict", { status: 409, json: { status: false, message: "Conflict", data: [] } }],
    [
      "a 400 naming a duplicate reference",
      { status: 400, json: { status: false, message: "Duplicate reference_no", data: [] } },
    ],
    [
      "a 200 error envelope naming a duplicate reference",
      { json: { error: true, message: "Duplicate reference_no 1001: already exists" } },
    ],
  ];
  for (const [name, reply] of collision) {
    it(`reference collision, refused: ${name}`, async () => {
      const { result } = await executeWith(mobile, reply);
      expect(result).toMatchObject({ kind: "rejected", referenceNo: "1001", rateLimited: false });
    });
  }

  for (const status of [500, 502, 503, 504]) {
    it(`HTTP ${status}`, async () => {
      const { result } = await executeWith(mobile, {
        status,
        json: { status: "error", message: "Server Error", data: [] },
      });
      expect(result).toMatchObject({
        kind: "unknown",
        referenceNo: "1001",
        reason: "server_error",
      });
      expect(result.kind === "unknown" && result.detail).toContain(`HTTP ${status}`);
    });
  }

  const malformed: Array<[string, Reply]> = [
    [
      "HTML 200",
      { text: "<!DOCTYPE html><html><body>Whoops, looks like something went wrong.</body></html>" },
    ],
    ["empty 200", { text: "", contentType: "application/json" }],
    ["truncated JSON 200", { json: '{"error":false,"message":"ok","data":{"transaction_id":' }],
    ["success envelope with blank data", { json: { error: false, message: "ok", data: [] } }],
    [
      "success without a transaction id",
      { json: { error: false, message: "ok", data: { amount: 100, status: "success" } } },
    ],
    [
      "an envelope that is neither success nor error",
      { json: { status: "processing", message: "hm" } },
    ],
    ["a JSON array", { json: [1, 2, 3] }],
    ["a 3xx redirect", { status: 302, text: "", headers: { location: "http://127.0.0.1:1/" } }],
  ];
  for (const [name, reply] of malformed) {
    it(`malformed: ${name}`, async () => {
      const { result } = await executeWith(mobile, reply);
      expect(result).toMatchObject({ kind: "unknown", referenceNo: "1001", reason: "malformed" });
    });
  }

  it("network: nothing listens on the port", async () => {
    const dead = await startFakeProvider();
    const baseUrl = dead.baseUrl;
    await dead.close();
    const offline = createProviderClient({ baseUrl, token: TOKEN });
    try {
      const result = await offline.execute(mobile);
      expect(result).toMatchObject({ kind: "unknown", reason: "network" });
      expect(result.kind === "unknown" && result.detail).toContain("ECONNREFUSED");
    } finally {
      await offline.close();
    }
  });
});
