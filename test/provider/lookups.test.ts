import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkElectricityBill } from "../../src/categories/electricity/lookup.ts";
import { checkWaterBill } from "../../src/categories/water/lookup.ts";
import {
  createProviderClient,
  type ProviderClient,
  ProviderInvalidRequestError,
  ProviderMalformedResponseError,
  ProviderRejectedError,
} from "../../src/provider/index.ts";
import {
  type FakeProvider,
  recordingSleep,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";

/** Every lookup, listing, bill check, status and balance endpoint over real HTTP. */

let provider: FakeProvider;
let client: ProviderClient;

beforeAll(async () => {
  provider = await startFakeProvider();
  client = createProviderClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    sleep: recordingSleep().sleep,
  });
});
afterEach(() => {
  provider.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await provider.close();
});

const ok = (data: unknown, message = "Success") => ({ json: { error: false, message, data } });

function only(method: string, path: string) {
  const received = provider.received(method, path);
  expect(received).toHaveLength(1);
  return received[0]!;
}

describe("headers", () => {
  it("sends x-auth-token, Accept and (on POST) Content-Type", async () => {
    provider.on("POST", "/utility/office-codes", ok([]));
    provider.on("GET", "/in/circle", ok([]));
    await client.officeCodes(46);
    await client.circles();
    const post = only("POST", "/utility/office-codes");
    expect(post.headers["x-auth-token"]).toBe(TOKEN);
    expect(post.headers.accept).toBe("application/json");
    expect(post.headers["content-type"]).toBe("application/json");
    const get = only("GET", "/in/circle");
    expect(get.headers["x-auth-token"]).toBe(TOKEN);
    expect(get.headers.accept).toBe("application/json");
    expect(get.headers["content-type"]).toBeUndefined();
    expect(get.rawBody).toBe("");
  });
});

describe("package listings: POST /np/recharge/package", () => {
  const query = {
    operatorId: 2,
    operatorTypeId: 3,
    connectionNo: "9801234567",
    referenceNo: "PKG-REF-1",
  };

  it("data packs: an array; string amounts and ids become paisa and strings", async () => {
    provider.on(
      "POST",
      "/np/recharge/package",
      ok([
        { id: "PROD_001_inv", name: "1 GB / 1 day", amount: "50" },
        { id: 77, name: "5 GB / 7 days", amount: 299.5 },
      ]),
    );
    const packages = await client.listDataPackages(query);
    expect(packages).toEqual([
      { id: "PROD_001_inv", name: "1 GB / 1 day", amountPaisa: 5000 },
      { id: "77", name: "5 GB / 7 days", amountPaisa: 29950 },
    ]);
    expect(only("POST", "/np/recharge/package").body).toStrictEqual({
      operator_id: 2,
      operator_type_id: 3,
      connection_no: "9801234567",
      reference_no: "PKG-REF-1",
    });
  });

  it("internet packages for the multistep group use the same endpoint", async () => {
    provider.on(
      "POST",
      "/np/recharge/package",
      ok([{ id: 101, name: "Subisu 100 Mbps 1 month", amount: "1,500.00" }]),
    );
    const packages = await client.listInternetPackages({
      operatorId: 19,
      operatorTypeId: 5,
      connectionNo: "ram.subisu",
      referenceNo: "INET-1",
    });
    expect(packages).toEqual([{ id: "101", name: "Subisu 100 Mbps 1 month", amountPaisa: 150000 }]);
    expect(only("POST", "/np/recharge/package").body).toStrictEqual({
      operator_id: 19,
      operator_type_id: 5,
      connection_no: "ram.subisu",
      reference_no: "INET-1",
    });
  });

  it("DTH: an object with customer info split on ' || ', session id and packages", async () => {
    provider.on(
      "POST",
      "/np/recharge/package",
      ok({
        operator_id: "43",
        connection_no: "1234567890",
        reference_no: "DTH-REF-9",
        customerinfo: "Ram Bahadur Thapa || STB: 0012345678 || Kathmandu",
        session_id: 5566778899,
        packages: [
          { id: "PROD_001_inv", name: "Basic HD", amount: "350" },
          { id: "PROD_002_inv", name: "Premium HD", amount: 599.99 },
        ],
      }),
    );
    const listing = await client.listDthPackages({
      operatorId: 43,
      operatorTypeId: 2,
      connectionNo: "1234567890",
      referenceNo: "DTH-Q-1",
    });
    expect(listing).toEqual({
      operatorId: "43",
      connectionNo: "1234567890",
      referenceNo: "DTH-REF-9",
      customerInfo: ["Ram Bahadur Thapa", "STB: 0012345678", "Kathmandu"],
      sessionId: "5566778899",
      packages: [
        { id: "PROD_001_inv", name: "Basic HD", amountPaisa: 35000 },
        { id: "PROD_002_inv", name: "Premium HD", amountPaisa: 59999 },
      ],
    });
  });

  it("DTH: missing echo fields fall back to the request", async () => {
    provider.on("POST", "/np/recharge/package", ok({ packages: [] }));
    const listing = await client.listDthPackages({
      operatorId: 36,
      operatorTypeId: 2,
      connectionNo: "CAS-1",
      referenceNo: "R-1",
    });
    expect(listing).toEqual({
      operatorId: "36",
      connectionNo: "CAS-1",
      referenceNo: "R-1",
      customerInfo: [],
      sessionId: "",
      packages: [],
    });
  });

  it("a DTH listing answered with an array (the data-pack shape) is malformed", async () => {
    provider.on("POST", "/np/recharge/package", ok([{ id: "1", name: "x", amount: 1 }]));
    await expect(
      client.listDthPackages({
        operatorId: 36,
        operatorTypeId: 2,
        connectionNo: "CAS-1",
        referenceNo: "R-1",
      }),
    ).rejects.toBeInstanceOf(ProviderMalformedResponseError);
  });

  it("a package without an amount is malformed, not silently zero", async () => {
    provider.on("POST", "/np/recharge/package", ok([{ id: "1", name: "x", amount: "free" }]));
    const error = await client.listDataPackages(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderMalformedResponseError);
    expect((error as ProviderMalformedResponseError).detail).toContain("0.amount");
  });

  it("error shape A with HTTP 200 is a rejection carrying the provider's message", async () => {
    provider.on("POST", "/np/recharge/package", {
      json: { error: true, message: "Invalid customer id" },
    });
    const error = await client.listDataPackages(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).providerMessage).toBe("Invalid customer id");
    expect((error as ProviderRejectedError).httpStatus).toBe(200);
    expect(provider.received("POST", "/np/recharge/package")).toHaveLength(1);
  });

  it("invalid arguments are refused before anything is sent", async () => {
    await expect(client.listDataPackages({ ...query, connectionNo: "  " })).rejects.toBeInstanceOf(
      ProviderInvalidRequestError,
    );
    expect(provider.requests).toHaveLength(0);
  });
});

describe("office codes: POST /utility/office-codes", () => {
  it("sends operator_id as a string and returns {value, label} as strings", async () => {
    provider.on(
      "POST",
      "/utility/office-codes",
      ok([
        { value: 101, label: "Kathmandu Branch" },
        { value: "KTM-2", label: "Lalitpur Branch" },
      ]),
    );
    const codes = await client.officeCodes(46);
    expect(codes).toEqual([
      { value: "101", label: "Kathmandu Branch" },
      { value: "KTM-2", label: "Lalitpur Branch" },
    ]);
    expect(only("POST", "/utility/office-codes").body).toStrictEqual({ operator_id: "46" });
  });
});

describe("circles: GET /in/circle", () => {
  it("accepts the sample's {value:number, label}", async () => {
    provider.on(
      "GET",
      "/in/circle",
      ok([
        { value: 1, label: "Andhra Pradesh" },
        { value: 13, label: "Maharashtra" },
      ]),
    );
    expect(await client.circles()).toEqual([
      { circleId: "1", circleName: "Andhra Pradesh" },
      { circleId: "13", circleName: "Maharashtra" },
    ]);
  });

  it("accepts the field table's {circle_id, circle_name, value, label} strings", async () => {
    provider.on(
      "GET",
      "/in/circle",
      ok([
        { circle_id: "5", circle_name: "Delhi NCR", value: "5", label: "Delhi NCR" },
        { circle_id: "22", circle_name: "West Bengal" },
      ]),
    );
    expect(await client.circles()).toEqual([
      { circleId: "5", circleName: "Delhi NCR" },
      { circleId: "22", circleName: "West Bengal" },
    ]);
  });

  it("a circle without a name is malformed", async () => {
    provider.on("GET", "/in/circle", ok([{ value: 1 }]));
    await expect(client.circles()).rejects.toBeInstanceOf(ProviderMalformedResponseError);
  });
});

describe("bill check: POST /np/recharge/check", () => {
  it("water: sends the khanepani body and reads bill_amount and payments rows", async () => {
    provider.on(
      "POST",
      "/np/recharge/check",
      ok({
        customer_name: "Hari Prasad",
        connection_no: "1234",
        reference_no: "WB-1",
        bill_amount: "533.44",
        payments: [
          {
            address: "Baneshwor",
            mobile_number: "9841000000",
            current_month_dues: "500.00",
            discount: "0",
            fine: "33.44",
            previous_dues: "0",
            total_dues: "533.44",
          },
        ],
      }),
    );
    const bill = await checkWaterBill(client, {
      operatorId: 46,
      operatorTypeId: 7,
      connectionNo: "1234",
      referenceNo: "WB-1",
      monthId: 9,
      officeCode: "101",
    });
    expect(bill).toEqual({
      customerName: "Hari Prasad",
      connectionNo: "1234",
      referenceNo: "WB-1",
      billAmountPaisa: 53344,
      dues: [
        {
          address: "Baneshwor",
          mobile_number: "9841000000",
          current_month_dues: "500.00",
          discount: "0",
          fine: "33.44",
          previous_dues: "0",
          total_dues: "533.44",
        },
      ],
    });
    expect(only("POST", "/np/recharge/check").body).toStrictEqual({
      operator_id: 46,
      operator_type_id: 7,
      connection_no: "1234",
      reference_no: "WB-1",
      month_id: "9",
      office_code: "101",
    });
  });

  it("electricity: sends phone, sc_no and office_code; number cells become text", async () => {
    provider.on(
      "POST",
      "/np/recharge/check",
      ok({
        customer_name: "Sita Sharma",
        connection_no: "012.34.567",
        reference_no: 5001,
        bill_amount: 1200.5,
        dues: [{ due_bill_of: "Mangsir 2081", bill_amount: 1200.5, days: 12, status: null }],
      }),
    );
    const bill = await checkElectricityBill(client, {
      operatorId: 90,
      operatorTypeId: 8,
      connectionNo: "012.34.567",
      referenceNo: "5001",
      phone: "9841000000",
      scNo: "SC-7788",
      officeCode: "273",
    });
    expect(bill).toEqual({
      customerName: "Sita Sharma",
      connectionNo: "012.34.567",
      referenceNo: "5001",
      billAmountPaisa: 120050,
      dues: [{ due_bill_of: "Mangsir 2081", bill_amount: "1200.5", days: "12", status: "" }],
    });
    expect(only("POST", "/np/recharge/check").body).toStrictEqual({
      operator_id: 90,
      operator_type_id: 8,
      connection_no: "012.34.567",
      reference_no: "5001",
      phone: "9841000000",
      sc_no: "SC-7788",
      office_code: "273",
    });
  });

  it("no bill: bill_amount absent reads as 0 with no dues", async () => {
    provider.on("POST", "/np/recharge/check", ok({ customer_name: "Hari Prasad" }));
    const bill = await checkWaterBill(client, {
      operatorId: 46,
      operatorTypeId: 7,
      connectionNo: "1234",
      referenceNo: "WB-2",
      monthId: 1,
      officeCode: "101",
    });
    expect(bill).toEqual({
      customerName: "Hari Prasad",
      connectionNo: "1234",
      referenceNo: "WB-2",
      billAmountPaisa: 0,
      dues: [],
    });
  });
});

describe("bill check: a bill about another account or check is refused", () => {
  const query = {
    operatorId: 46,
    operatorTypeId: 7,
    connectionNo: "ab-1234",
    referenceNo: "7001",
    monthId: 9,
    officeCode: "101",
  };
  const bill = (echo: Record<string, unknown>) =>
    ok({ customer_name: "Ram Bahadur", bill_amount: "4,410.00", payments: [], ...echo });

  it("another customer's account: malformed (Retry), never shown as this customer's bill", async () => {
    provider.on(
      "POST",
      "/np/recharge/check",
      bill({ connection_no: "99887", reference_no: "7001" }),
    );
    const err = await checkWaterBill(client, query).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderMalformedResponseError);
    expect(String(err)).toContain("the bill is for account 99887");
  });

  it("another check's reference: malformed", async () => {
    provider.on(
      "POST",
      "/np/recharge/check",
      bill({ connection_no: "ab-1234", reference_no: 6999 }),
    );
    const err = await checkWaterBill(client, query).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderMalformedResponseError);
    expect(String(err)).toContain("reference 6999");
  });

  it('empty echoes as PHP writes them (null, ""): the bill, not a malformed answer', async () => {
    provider.on(
      "POST",
      "/np/recharge/check",
      bill({ customer_name: null, connection_no: null, reference_no: "" }),
    );
    const got = await checkWaterBill(client, query);
    expect(got).toMatchObject({
      customerName: "",
      connectionNo: "ab-1234",
      referenceNo: "7001",
      billAmountPaisa: 441_000,
    });
  });

  it("the same account in capitals, spaced, without its dash, a numeric reference, or no echo: the bill", async () => {
    for (const echo of [
      { connection_no: " AB-1234 ", reference_no: 7001 },
      { connection_no: "ab1234", reference_no: "7001" },
      { connection_no: "", reference_no: "07001" },
      {},
    ]) {
      provider.on("POST", "/np/recharge/check", bill(echo));
      const got = await checkWaterBill(client, query);
      expect(got.billAmountPaisa, JSON.stringify(echo)).toBe(441_000);
      expect(got.customerName).toBe("Ram Bahadur");
    }
  });
});

describe("status queries", () => {
  const sample = {
    status: "Success",
    transaction_id: 4455667788,
    order_id: 1001,
    amount: 100,
    timestamp: "December 21,2024 9:03pm",
    details: { connection_no: "9841234567", operator: "NTC Prepaid" },
    package_name: null,
  };

  it("by transaction id: POST /np/service/status with a numeric transaction_id", async () => {
    provider.on("POST", "/np/service/status", ok(sample, "Status fetched"));
    const status = await client.statusByTransaction("np", "4455667788");
    expect(status).toEqual({
      status: "success",
      transactionId: "4455667788",
      referenceNo: "1001",
      amountPaisa: 10000,
      timestampMs: Date.UTC(2024, 11, 21, 15, 18),
      connectionNo: "9841234567",
      operator: "NTC Prepaid",
      packageName: null,
    });
    expect(only("POST", "/np/service/status").rawBody).toBe('{"transaction_id":4455667788}');
  });

  it("by transaction id beyond 2^53: sent as a string, read back exactly", async () => {
    provider.on("POST", "/in/service/status", {
      json:
        '{"error":false,"message":"ok","data":{"status":"pending","transaction_id":98765432109876543210,' +
        '"order_id":"A-77","amount":"533.44","timestamp":"2024-12-21T15:18:00Z",' +
        '"details":{"connection_no":"9876543210","operator":"Jio"},"package_name":"Unlimited 28d"}}',
    });
    const status = await client.statusByTransaction("in", "98765432109876543210");
    expect(status).toEqual({
      status: "pending",
      transactionId: "98765432109876543210",
      referenceNo: "A-77",
      amountPaisa: 53344,
      timestampMs: Date.UTC(2024, 11, 21, 15, 18),
      connectionNo: "9876543210",
      operator: "Jio",
      packageName: "Unlimited 28d",
    });
    expect(only("POST", "/in/service/status").rawBody).toBe(
      '{"transaction_id":"98765432109876543210"}',
    );
  });

  it("by reference: POST /np/order/status and /in/order/status with order_id", async () => {
    provider.on("POST", "/np/order/status", ok({ ...sample, status: "FAILED" }));
    provider.on("POST", "/in/order/status", ok({ ...sample, timestamp: "not a time" }));
    const np = await client.statusByReference("np", "1001");
    const india = await client.statusByReference("in", "REF-X");
    expect(np.status).toBe("failed");
    expect(india.timestampMs).toBeNull();
    expect(only("POST", "/np/order/status").rawBody).toBe('{"order_id":1001}');
    expect(only("POST", "/in/order/status").rawBody).toBe('{"order_id":"REF-X"}');
  });

  it("error shape B (status false, data []) is a rejection", async () => {
    provider.on("POST", "/np/order/status", {
      json: { status: false, message: "Order not found", data: [] },
    });
    const error = await client.statusByReference("np", "999").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).providerMessage).toBe("Order not found");
  });

  it("error shape B with a string status is a rejection", async () => {
    provider.on("POST", "/np/service/status", {
      json: { status: "failed", message: "Transaction not found", data: [] },
    });
    const error = await client.statusByTransaction("np", "1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).providerMessage).toBe("Transaction not found");
  });

  it("an id with a leading zero is sent as a string, not rewritten as a number", async () => {
    provider.on("POST", "/np/order/status", ok(sample));
    await client.statusByReference("np", "007");
    expect(only("POST", "/np/order/status").rawBody).toBe('{"order_id":"007"}');
  });
});

describe("wallet balance: GET /wallet/balance", () => {
  it("reads credits_available as a string (provider notes)", async () => {
    provider.on("GET", "/wallet/balance", ok({ credits_available: "5732.72" }));
    expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: 573272 });
  });

  it("reads credit_available as a number (spec)", async () => {
    provider.on("GET", "/wallet/balance", ok({ credit_available: 120.5 }));
    expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: 12050 });
  });

  it("a balance without either field is malformed", async () => {
    provider.on("GET", "/wallet/balance", ok({ balance: 1 }));
    await expect(client.walletBalance()).rejects.toBeInstanceOf(ProviderMalformedResponseError);
  });
});

describe("operator and operator-type lookups (configurable paths)", () => {
  it("GET the default paths; {value,label} with number values", async () => {
    provider.on(
      "GET",
      "/np/operators",
      ok([
        { value: 5, label: "NTC Prepaid" },
        { value: 2, label: "Ncell Data" },
      ]),
    );
    provider.on("GET", "/np/operator-types", ok([{ value: 1, label: "Mobile" }]));
    expect(await client.operators()).toEqual([
      { value: "5", label: "NTC Prepaid" },
      { value: "2", label: "Ncell Data" },
    ]);
    expect(await client.operatorTypes()).toEqual([{ value: "1", label: "Mobile" }]);
  });

  it("uses configured paths and tolerates {id, name} records", async () => {
    const custom = createProviderClient({
      baseUrl: `${provider.baseUrl}/`,
      token: TOKEN,
      paths: {
        operators: "/operators/list",
        operatorTypes: "/operator-types/list",
        indiaPlans: "/in/plans",
        indiaDthBill: "/in/dth-bill",
      },
    });
    try {
      provider.on("GET", "/operators/list", ok([{ id: 36, name: "Dish Home" }]));
      provider.on("GET", "/operator-types/list", ok([{ id: "2", name: "DTH" }]));
      provider.on("POST", "/in/plans", { json: { status: true, message: "ok", data: [] } });
      provider.on("POST", "/in/dth-bill", ok({ customer_name: "A" }));
      expect(await custom.operators()).toEqual([{ value: "36", label: "Dish Home" }]);
      expect(await custom.operatorTypes()).toEqual([{ value: "2", label: "DTH" }]);
      expect(await custom.indiaPlans({ operatorId: 1, circleId: "5" })).toEqual([]);
      expect(
        (await custom.indiaDthBill({ operatorId: 3, connectionNo: "X", circleId: 5 })).customerName,
      ).toBe("A");
      expect(provider.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /operators/list",
        "GET /operator-types/list",
        "POST /in/plans",
        "POST /in/dth-bill",
      ]);
    } finally {
      await custom.close();
    }
  });
});

describe("India plans: POST /in/operator-plans", () => {
  it("status:true envelope; plans with amount and description; body with numbers", async () => {
    provider.on("POST", "/in/operator-plans", {
      json: {
        status: true,
        message: "Plans fetched",
        data: [
          { id: 11, amount: "239", description: "1.5GB/day, 28 days", validity: "28 days" },
          { rs: 19, desc: "1GB data add-on", validity: "1 day", plan_type: "DATA" },
          { note: "no amount here" },
        ],
      },
    });
    const plans = await client.indiaPlans({ operatorId: 12, circleId: "5" });
    expect(plans).toEqual([
      {
        id: "11",
        amountPaisa: 23900,
        description: "1.5GB/day, 28 days",
        validity: "28 days",
        category: null,
      },
      {
        id: null,
        amountPaisa: 1900,
        description: "1GB data add-on",
        validity: "1 day",
        category: "DATA",
      },
    ]);
    expect(only("POST", "/in/operator-plans").body).toStrictEqual({
      operator_id: 12,
      circle_id: 5,
    });
  });

  it("plans grouped by category in an object", async () => {
    provider.on("POST", "/in/operator-plans", {
      json: {
        status: true,
        message: "ok",
        data: { FULLTT: [{ rs: 299, desc: "Talk time" }], TOPUP: [{ rs: "10", desc: "Top-up" }] },
      },
    });
    const plans = await client.indiaPlans({ operatorId: 12, circleId: 5 });
    expect(plans.map((p) => [p.category, p.amountPaisa, p.description])).toEqual([
      ["FULLTT", 29900, "Talk time"],
      ["TOPUP", 1000, "Top-up"],
    ]);
  });

  it("status:false is a rejection", async () => {
    provider.on("POST", "/in/operator-plans", {
      json: { status: false, message: "Invalid circle", data: [] },
    });
    const error = await client
      .indiaPlans({ operatorId: 12, circleId: 99 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).providerMessage).toBe("Invalid circle");
  });

  it("a list where no plan is readable is malformed", async () => {
    provider.on("POST", "/in/operator-plans", {
      json: { status: true, message: "ok", data: [{ foo: 1 }] },
    });
    await expect(client.indiaPlans({ operatorId: 12, circleId: 5 })).rejects.toBeInstanceOf(
      ProviderMalformedResponseError,
    );
  });
});

describe("India DTH bill (configurable path, default /in/operator-plans)", () => {
  it("sends operator_id, connection_no, circle_id and reads the record tolerantly", async () => {
    provider.on(
      "POST",
      "/in/operator-plans",
      ok({
        customer_name: "Anil Kumar",
        monthly_recharge: "353.00",
        next_recharge_date: "2025-01-05",
        balance: "12.5",
        status: "Active",
      }),
    );
    const bill = await client.indiaDthBill({
      operatorId: 31,
      connectionNo: "3012345678",
      circleId: "5",
    });
    expect(bill).toEqual({
      customerName: "Anil Kumar",
      // The monthly pack is what is paid; the account's balance is only shown.
      billAmountPaisa: 35_300,
      balancePaisa: 1250,
      dueDate: "2025-01-05",
      details: {
        customer_name: "Anil Kumar",
        monthly_recharge: "353.00",
        next_recharge_date: "2025-01-05",
        balance: "12.5",
        status: "Active",
      },
    });
    expect(only("POST", "/in/operator-plans").body).toStrictEqual({
      operator_id: 31,
      connection_no: "3012345678",
      circle_id: 5,
    });
  });
});
