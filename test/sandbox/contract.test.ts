import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkElectricityBill } from "../../src/categories/electricity/lookup.ts";
import { checkWaterBill } from "../../src/categories/water/lookup.ts";
import {
  type ExecuteResult,
  ProviderAuthError,
  ProviderInvalidRequestError,
  ProviderRejectedError,
} from "../../src/provider/index.ts";
import { createProviderClient, type TermsClient } from "../support/execute-terms.ts";
import { call, type RunningSandbox, startSandbox, TOKEN } from "../support/sandbox.ts";

/**
 * The provider client (src/provider) against the sandbox over HTTP: every endpoint, every category,
 * both regions, and the rejections of spec 4.1 and 8.
 */

// The spec's own sample time: 15:18:30 UTC is 9:03pm Nepal Time.
const NOW = Date.UTC(2024, 11, 21, 15, 18, 30);
const START_BALANCE = 100_000_00;

let run: RunningSandbox;
let client: TermsClient;
let refSeq = 1000;
const nextRef = () => String(++refSeq);

beforeAll(async () => {
  // Long delays: a transaction stays queued until a test calls settle(), whatever the machine's speed.
  run = await startSandbox({
    now: () => NOW,
    rateLimitPerSecond: 0,
    delays: { toPendingMs: 60_000, toFinalMs: 60_000 },
  });
  client = createProviderClient({ baseUrl: run.base, token: TOKEN, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await run.close();
});
beforeEach(() => {
  run.sandbox.setBalance(TOKEN, START_BALANCE);
});

function accepted(r: ExecuteResult) {
  if (r.kind !== "accepted") throw new Error(`expected accepted, got ${JSON.stringify(r)}`);
  return r;
}
function rejected(r: ExecuteResult) {
  if (r.kind !== "rejected") throw new Error(`expected rejected, got ${JSON.stringify(r)}`);
  return r;
}

describe("lookups", () => {
  it("lists Nepal operators and operator types at the client's default paths", async () => {
    const ops = await client.operators();
    expect(ops).toContainEqual({ value: "5", label: "NTC Prepaid" });
    expect(ops).toContainEqual({ value: "20", label: "Worldlink" });
    expect(ops).toContainEqual({ value: "46", label: "Khanepani (Water)" });
    expect(ops.some((o) => o.label === "Jio Prepaid")).toBe(false);
    const types = await client.operatorTypes();
    expect(types).toContainEqual({ value: "1", label: "Mobile" });
    expect(types).toContainEqual({ value: "7", label: "Khanepani (Water)" });
  });

  it("lists India circles with ids and names", async () => {
    const circles = await client.circles();
    expect(circles).toContainEqual({ circleId: "5", circleName: "Delhi NCR" });
    expect(circles).toHaveLength(23);
  });

  it("lists water and electricity office codes, and refuses an operator without offices", async () => {
    expect(await client.officeCodes(46)).toContainEqual({ value: "504", label: "KUKL Baneshwor" });
    expect(await client.officeCodes("118")).toContainEqual({ value: "273", label: "Ratnapark DC" });
    await expect(client.officeCodes(5)).rejects.toBeInstanceOf(ProviderRejectedError);
  });

  it("reports the wallet balance", async () => {
    expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: START_BALANCE });
  });

  it("lists India plans and reads an India DTH bill", async () => {
    const plans = await client.indiaPlans({ operatorId: 201, circleId: "5" });
    expect(plans).toContainEqual(
      expect.objectContaining({
        amountPaisa: 29_900,
        validity: "28 days",
        description: "Unlimited calls, 2 GB/day, 100 SMS/day",
      }),
    );
    const bill = await client.indiaDthBill({
      operatorId: 221,
      connectionNo: "1234567890",
      circleId: 5,
    });
    expect(bill.customerName).toMatch(/\w+ \w+ \w+/);
    expect(bill.billAmountPaisa).toBeGreaterThan(0);
    await expect(
      client.indiaDthBill({ operatorId: 201, connectionNo: "1234567890", circleId: 5 }),
    ).rejects.toThrow(/not a DTH operator/);
  });
});

describe("data packs (Ncell and NTC)", () => {
  it("lists Ncell data packs and executes one with the listing's reference", async () => {
    const ref = `DP-${nextRef()}`;
    const q = { operatorId: 2, operatorTypeId: 3, connectionNo: "9801234567", referenceNo: ref };
    const packs = await client.listDataPackages(q);
    const pack = packs.find((p) => p.name === "1.5 GB / 1 day");
    expect(pack).toEqual({ id: "PROD_002_01_inv", name: "1.5 GB / 1 day", amountPaisa: 10_000 });
    const r = accepted(await client.execute({ category: "datapack", ...q, packageId: pack!.id }));
    // 2 % instant discount on data packs, no commission.
    expect(r).toMatchObject({
      referenceNo: ref,
      status: "queued",
      amountPaisa: 10_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 200,
      debitAmountPaisa: 9_800,
      creditAvailablePaisa: START_BALANCE - 9_800,
    });
    expect(r.commissionPaisa).toBeUndefined();
    expect((await client.walletBalance()).creditAvailablePaisa).toBe(START_BALANCE - 9_800);
  });

  it("executes an NTC data pack with the amount given", async () => {
    const ref = `DP-${nextRef()}`;
    const q = { operatorId: 8, operatorTypeId: 3, connectionNo: "9851234567", referenceNo: ref };
    const packs = await client.listDataPackages(q);
    const pack = packs.find((p) => p.name === "4 GB / 7 days")!;
    const r = accepted(
      await client.execute({
        category: "datapack",
        ...q,
        packageId: pack.id,
        amountPaisa: pack.amountPaisa,
      }),
    );
    expect(r.amountPaisa).toBe(30_000);
  });

  it("refuses a number of the other operator family at listing and at execute", async () => {
    const q = {
      operatorId: 2,
      operatorTypeId: 3,
      connectionNo: "9841234567",
      referenceNo: `DP-${nextRef()}`,
    };
    await expect(client.listDataPackages(q)).rejects.toThrow(
      /must start with 980, 981, 982 or 970/,
    );
    const r = rejected(
      await client.execute({ category: "datapack", ...q, packageId: "PROD_002_01_inv" }),
    );
    expect(r.httpStatus).toBe(400);
  });

  it("refuses an unknown package id, and a reference that no listing returned", async () => {
    const ref = `DP-${nextRef()}`;
    const q = { operatorId: 2, operatorTypeId: 3, connectionNo: "9801234567", referenceNo: ref };
    await client.listDataPackages(q);
    const unknown = rejected(
      await client.execute({ category: "datapack", ...q, packageId: "PROD_008_01_inv" }),
    );
    expect(unknown.message).toMatch(/Unknown package_id PROD_008_01_inv/);
    const noListing = rejected(
      await client.execute({
        category: "datapack",
        ...q,
        referenceNo: `DP-${nextRef()}`,
        packageId: "PROD_002_01_inv",
      }),
    );
    expect(noListing.message).toMatch(/does not match a package listing/);
    expect(run.sandbox.balance(TOKEN)).toBe(START_BALANCE);
  });
});

describe("DTH", () => {
  it("lists a subscriber's packages with customer info and executes one", async () => {
    const ref = `DTH-${nextRef()}`;
    const q = { operatorId: 36, operatorTypeId: 2, connectionNo: "DH1234567", referenceNo: ref };
    const listing = await client.listDthPackages(q);
    expect(listing.operatorId).toBe("36");
    expect(listing.referenceNo).toBe(ref);
    expect(listing.customerInfo[0]).toMatch(/^Customer: \w+/);
    expect(listing.customerInfo[1]).toMatch(/^STB No: STB\d{10}$/);
    expect(listing.sessionId).toMatch(/^\d+$/);
    const pack = listing.packages.find((p) => p.name === "Dish Home Silver - 1 Month")!;
    expect(pack.amountPaisa).toBe(45_000);
    const r = accepted(
      await client.execute({
        category: "dth",
        operatorId: 36,
        operatorTypeId: 2,
        connectionNo: "DH1234567",
        referenceNo: listing.referenceNo,
        packageId: pack.id,
      }),
    );
    // 2.5 % commission on DTH.
    expect(r).toMatchObject({
      amountPaisa: 45_000,
      debitAmountPaisa: 45_000,
      commissionPaisa: 1_125,
    });
  });

  it("refuses a package of another operator's listing", async () => {
    const ref = `DTH-${nextRef()}`;
    const q = { operatorId: 38, operatorTypeId: 2, connectionNo: "MT555", referenceNo: ref };
    await client.listDthPackages(q);
    const r = rejected(
      await client.execute({ category: "dth", ...q, packageId: "DTH36_SILVER_1M" }),
    );
    expect(r.message).toMatch(/Unknown package_id DTH36_SILVER_1M for Mero TV/);
  });

  it("answers an unknown subscriber with an error", async () => {
    await expect(
      client.listDthPackages({
        operatorId: 36,
        operatorTypeId: 2,
        connectionNo: "DH4040",
        referenceNo: `DTH-${nextRef()}`,
      }),
    ).rejects.toThrow(/Customer not found/);
  });
});

describe("internet", () => {
  it("lists an ISP's packages for a username and executes one", async () => {
    const q = {
      operatorId: 20,
      operatorTypeId: 5,
      connectionNo: "ram_shrestha",
      referenceNo: nextRef(),
    };
    const packs = await client.listInternetPackages(q);
    const pack = packs.find((p) => p.name === "Worldlink 100 Mbps - 1 Month")!;
    expect(pack.id).toBe("2011");
    const r = accepted(
      await client.execute({
        category: "internet",
        ...q,
        referenceNo: nextRef(),
        packageId: pack.id,
        packageName: pack.name,
        amountPaisa: pack.amountPaisa,
      }),
    );
    expect(r.amountPaisa).toBe(pack.amountPaisa);
    // 1 % instant discount on internet.
    expect(r.instantDiscountPaisa).toBe(Math.floor(pack.amountPaisa / 100));
    expect(r.debitAmountPaisa).toBe(pack.amountPaisa - r.instantDiscountPaisa);
  });

  it("refuses a package name or amount that does not match the package", async () => {
    const base = {
      category: "internet" as const,
      operatorId: 21,
      operatorTypeId: 5,
      connectionNo: "vianet_user",
      packageId: "2101",
    };
    const wrongAmount = rejected(
      await client.execute({
        ...base,
        referenceNo: nextRef(),
        packageName: "Vianet 60 Mbps - 1 Month",
        amountPaisa: 100,
      }),
    );
    expect(wrongAmount.message).toMatch(/amount does not match/);
    const wrongName = rejected(
      await client.execute({
        ...base,
        referenceNo: nextRef(),
        packageName: "Something else",
        amountPaisa: 100_000,
      }),
    );
    expect(wrongName.message).toMatch(/package_name does not match/);
  });
});

describe("mobile (NTC) and landline", () => {
  it.each([
    [5, "9841234567"],
    [5, "9040123456"],
    [6, "9851234567"],
    [14, "9741234567"],
  ])("executes operator %i for %s with a 3 percent commission", async (operatorId, number) => {
    const r = accepted(
      await client.execute({
        category: "mobile",
        operatorId,
        operatorTypeId: 1,
        connectionNo: number,
        referenceNo: nextRef(),
        amountPaisa: 50_000,
      }),
    );
    expect(r).toMatchObject({
      status: "queued",
      amountPaisa: 50_000,
      debitAmountPaisa: 50_000,
      commissionPaisa: 1_500,
      creditAvailablePaisa: START_BALANCE - 50_000,
    });
  });

  it.each([
    ["9801234567", 10_000, /must start with 984, 986, 976 or 9040/],
    ["985123456", 10_000, /exactly 10 digits/],
    ["9611234567", 10_000, /SmartCell/],
    ["9841234567", 4_900, /between Rs 50 and Rs 3000/],
    ["9841234567", 300_100, /between Rs 50 and Rs 3000/],
  ])("refuses %s with %i paisa", async (number, amountPaisa, message) => {
    const r = rejected(
      await client.execute({
        category: "mobile",
        operatorId: 5,
        operatorTypeId: 1,
        connectionNo: number,
        referenceNo: nextRef(),
        amountPaisa,
      }),
    );
    expect(r.httpStatus).toBe(400);
    expect(r.message).toMatch(message);
    expect(run.sandbox.balance(TOKEN)).toBe(START_BALANCE);
  });

  it("executes a landline of 9 digits and refuses a leading 0 or a wrong length", async () => {
    const line = { category: "landline" as const, operatorId: 11, operatorTypeId: 4 };
    const r = accepted(
      await client.execute({
        ...line,
        connectionNo: "144123456",
        referenceNo: nextRef(),
        amountPaisa: 500_000,
      }),
    );
    expect(r.commissionPaisa).toBe(10_000);
    for (const [number, message] of [
      ["014412345", /must not start with 0/],
      ["14412345", /exactly 9 digits/],
    ] as const) {
      const bad = rejected(
        await client.execute({
          ...line,
          connectionNo: number,
          referenceNo: nextRef(),
          amountPaisa: 10_000,
        }),
      );
      expect(bad.message).toMatch(message);
    }
    const tooMuch = rejected(
      await client.execute({
        ...line,
        connectionNo: "144123456",
        referenceNo: nextRef(),
        amountPaisa: 500_100,
      }),
    );
    expect(tooMuch.message).toMatch(/between Rs 50 and Rs 5000/);
  });
});

describe("water and electricity bills", () => {
  it("checks a water bill and pays its amount with the Rs 5 service charge", async () => {
    const bill = await checkWaterBill(client, {
      operatorId: 46,
      operatorTypeId: 7,
      connectionNo: "KTM-1234",
      referenceNo: `W-${nextRef()}`,
      monthId: 9,
      officeCode: "504",
    });
    expect(bill.customerName).toMatch(/\w+ \w+ \w+/);
    expect(bill.billAmountPaisa).toBeGreaterThan(0);
    expect(bill.dues.length).toBeGreaterThan(0);
    expect(bill.dues.at(-1)).toMatchObject({
      month: "Poush",
      total_dues: (bill.billAmountPaisa / 100).toFixed(2),
    });
    const r = accepted(
      await client.execute({
        category: "water",
        operatorId: 46,
        operatorTypeId: 7,
        connectionNo: "KTM-1234",
        officeCode: "504",
        referenceNo: `W-${nextRef()}`,
        monthId: 9,
        amountPaisa: bill.billAmountPaisa,
      }),
    );
    expect(r.serviceChargePaisa).toBe(500);
    expect(r.debitAmountPaisa).toBe(bill.billAmountPaisa + 500);
    expect(r.commissionPaisa).toBeUndefined();
  });

  it("reports nothing due for a 7777 customer and refuses an unknown office", async () => {
    const q = {
      operatorId: 46,
      operatorTypeId: 7,
      connectionNo: "KTM-7777",
      referenceNo: `W-${nextRef()}`,
      monthId: 1,
      officeCode: "504",
    };
    const bill = await checkWaterBill(client, q);
    expect(bill.billAmountPaisa).toBe(0);
    expect(bill.dues).toEqual([]);
    await expect(checkWaterBill(client, { ...q, officeCode: "999" })).rejects.toThrow(
      /Unknown office_code 999/,
    );
    const r = rejected(
      await client.execute({
        category: "water",
        operatorId: 46,
        operatorTypeId: 7,
        connectionNo: "KTM-1",
        officeCode: "999",
        referenceNo: `W-${nextRef()}`,
        monthId: 1,
        amountPaisa: 10_000,
      }),
    );
    expect(r.message).toMatch(/Unknown office_code 999/);
  });

  it("refuses month 13: the client before sending, the sandbox when sent", async () => {
    await expect(
      client.execute({
        category: "water",
        operatorId: 46,
        operatorTypeId: 7,
        connectionNo: "KTM-1",
        officeCode: "504",
        referenceNo: `W-${nextRef()}`,
        monthId: 13,
        amountPaisa: 10_000,
      }),
    ).rejects.toBeInstanceOf(ProviderInvalidRequestError);
    const raw = await call(run.base, "POST", "/np/recharge/execute", {
      operator_id: 46,
      operator_type_id: 7,
      connection_no: "KTM-1",
      office_code: "504",
      reference_no: `W-${nextRef()}`,
      month_id: "13",
      amount: "100",
    });
    expect(raw.status).toBe(400);
    expect(raw.json).toEqual({
      status: "failed",
      message: "month_id must be a month number from 1 to 12",
      data: [],
    });
  });

  it("checks an electricity bill and pays it with the Rs 10 service charge", async () => {
    const q = {
      operatorId: 118,
      operatorTypeId: 8,
      connectionNo: "NEA-55012",
      phone: "9841234567",
      scNo: "012.04.056",
      officeCode: "273",
    };
    const bill = await checkElectricityBill(client, { ...q, referenceNo: `E-${nextRef()}` });
    expect(bill.billAmountPaisa).toBeGreaterThan(0);
    expect(bill.dues[0]).toHaveProperty("payable_amount");
    const r = accepted(
      await client.execute({
        category: "electricity",
        ...q,
        referenceNo: `E-${nextRef()}`,
        amountPaisa: bill.billAmountPaisa,
      }),
    );
    expect(r.serviceChargePaisa).toBe(1_000);
    expect(r.debitAmountPaisa).toBe(bill.billAmountPaisa + 1_000);
  });
});

describe("India and status in both regions", () => {
  it("executes an India recharge and reads its status by id and by reference (in, not np)", async () => {
    const ref = nextRef();
    const r = accepted(
      await client.execute({
        category: "india",
        operatorId: 201,
        operatorTypeId: 1,
        connectionNo: "9876543210",
        circleId: "5",
        referenceNo: ref,
        amountPaisa: 29_900,
      }),
    );
    // ₹299 recharged; the Nepal-rupee wallet pays it at the peg: Rs 478.40, 2 % of it reported.
    expect(r.amountPaisa).toBe(29_900);
    expect(r.debitAmountPaisa).toBe(47_840);
    expect(r.commissionPaisa).toBe(956);
    await run.sandbox.settle();
    const byId = await client.statusByTransaction("in", r.transactionId);
    expect(byId).toEqual({
      status: "success",
      transactionId: r.transactionId,
      referenceNo: ref,
      amountPaisa: 29_900,
      // "December 21,2024 9:03pm" read back at Nepal Time: the minute of NOW.
      timestampMs: Date.UTC(2024, 11, 21, 15, 18, 0),
      connectionNo: "9876543210",
      operator: "Jio Prepaid",
      packageName: null,
    });
    expect(await client.statusByReference("in", ref)).toEqual(byId);
    await expect(client.statusByReference("np", ref)).rejects.toMatchObject({ httpStatus: 404 });
  });

  it("refuses an unknown circle and a Nepal operator on the India path", async () => {
    const india = {
      category: "india" as const,
      operatorTypeId: 1,
      connectionNo: "9876543210",
      amountPaisa: 10_000,
    };
    const circle = rejected(
      await client.execute({ ...india, operatorId: 201, circleId: "99", referenceNo: nextRef() }),
    );
    expect(circle.message).toMatch(/Unknown circle_id 99/);
    const nepal = rejected(
      await client.execute({ ...india, operatorId: 5, circleId: "5", referenceNo: nextRef() }),
    );
    expect(nepal.message).toMatch(/not an India operator/);
  });

  it("reads a Nepal status by id and by reference, with the package name", async () => {
    const ref = `DP-${nextRef()}`;
    const q = { operatorId: 9, operatorTypeId: 3, connectionNo: "9761234567", referenceNo: ref };
    const [pack] = await client.listDataPackages(q);
    const r = accepted(await client.execute({ category: "datapack", ...q, packageId: pack!.id }));
    const queued = await client.statusByReference("np", ref);
    expect(queued.status).toBe("queued");
    await run.sandbox.settle();
    const done = await client.statusByTransaction("np", r.transactionId);
    expect(done).toMatchObject({
      status: "success",
      referenceNo: ref,
      packageName: "Namaste 100 minutes / 7 days",
      operator: "NTC Voice",
    });
    await expect(client.statusByTransaction("np", "1")).rejects.toThrow(/Transaction not found/);
  });
});

describe("references, wallet and credentials", () => {
  it("refuses a repeated reference and debits once", async () => {
    const req = {
      category: "mobile" as const,
      operatorId: 5,
      operatorTypeId: 1,
      connectionNo: "9841234567",
      referenceNo: nextRef(),
      amountPaisa: 20_000,
    };
    accepted(await client.execute(req));
    // The sandbox refuses it (HTTP 400). Our execute is sent once, so a duplicate reference is
    // another recharge's: refused, this one not executed (review s25-e, 1).
    const again = rejected(await client.execute({ ...req, amountPaisa: 30_000 }));
    expect(again.httpStatus).toBe(400);
    expect(again.message).toMatch(/Duplicate reference_no/);
    expect((await client.walletBalance()).creditAvailablePaisa).toBe(START_BALANCE - 20_000);
    expect(
      run.sandbox.ledger(TOKEN).filter((row) => row.referenceNo === req.referenceNo),
    ).toHaveLength(1);
  });

  it("refuses an execute the wallet cannot pay, without a debit", async () => {
    run.sandbox.setBalance(TOKEN, 9_999);
    const r = rejected(
      await client.execute({
        category: "mobile",
        operatorId: 5,
        operatorTypeId: 1,
        connectionNo: "9841234567",
        referenceNo: nextRef(),
        amountPaisa: 10_000,
      }),
    );
    expect(r.message).toMatch(/Insufficient balance/);
    expect((await client.walletBalance()).creditAvailablePaisa).toBe(9_999);
  });

  it("answers a wrong token with 401 on execute, lookups and balance", async () => {
    const stranger = createProviderClient({ baseUrl: run.base, token: "wrong", maxRetries: 0 });
    try {
      const r = rejected(
        await stranger.execute({
          category: "mobile",
          operatorId: 5,
          operatorTypeId: 1,
          connectionNo: "9841234567",
          referenceNo: nextRef(),
          amountPaisa: 10_000,
        }),
      );
      expect(r.httpStatus).toBe(401);
      await expect(stranger.walletBalance()).rejects.toBeInstanceOf(ProviderAuthError);
      await expect(stranger.circles()).rejects.toBeInstanceOf(ProviderAuthError);
      await expect(stranger.statusByReference("np", "1")).rejects.toBeInstanceOf(ProviderAuthError);
    } finally {
      await stranger.close();
    }
    expect(run.sandbox.balance(TOKEN)).toBe(START_BALANCE);
  });
});
