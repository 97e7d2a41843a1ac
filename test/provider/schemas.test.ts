import { describe, expect, it } from "vitest";
import {
  executeResultSchema,
  readEnvelope,
  sameReference,
  wireCircleList,
  wireExecuteData,
  wireId,
  wirePackageList,
  wireStatusData,
  wireWallet,
} from "../../src/provider/index.ts";

/** The tolerant readers on their own, for variations the HTTP suites do not reach. */

describe("readEnvelope", () => {
  it("reads both error shapes and both success markers", () => {
    expect(readEnvelope({ error: true, message: "Invalid token" })).toEqual({
      outcome: "error",
      message: "Invalid token",
    });
    expect(readEnvelope({ status: "false", message: "Nope", data: [] })).toEqual({
      outcome: "error",
      message: "Nope",
    });
    expect(readEnvelope({ status: "Error", message: "Nope", data: [] }).outcome).toBe("error");
    expect(readEnvelope({ error: "true", message: "x" }).outcome).toBe("error");
    expect(readEnvelope({ error: 1, message: "x" }).outcome).toBe("error");
    expect(readEnvelope({ error: "Invalid operator" })).toEqual({
      outcome: "error",
      message: "Invalid operator",
    });
    expect(readEnvelope({ error: false, message: "ok", data: [1] })).toEqual({
      outcome: "ok",
      message: "ok",
      data: [1],
    });
    expect(readEnvelope({ error: "false", data: 1 })).toEqual({
      outcome: "ok",
      message: "",
      data: 1,
    });
    expect(readEnvelope({ status: true, message: "Plans", data: [] }).outcome).toBe("ok");
    expect(readEnvelope({ status: "success", data: {} }).outcome).toBe("ok");
    expect(readEnvelope({ data: {} }).outcome).toBe("ok");
  });

  it("answers unrecognised for anything else", () => {
    for (const body of [
      null,
      1,
      "x",
      [],
      {},
      { status: "pending" },
      { error: null },
      { message: "hi" },
    ]) {
      expect(readEnvelope(body).outcome, JSON.stringify(body)).toBe("unrecognised");
    }
  });
});

describe("wire readers", () => {
  it("ids: strings and numbers become trimmed strings; empty is refused", () => {
    expect(wireId.parse(42)).toBe("42");
    expect(wireId.parse(" A-1 ")).toBe("A-1");
    expect(wireId.safeParse("").success).toBe(false);
    expect(wireId.safeParse(null).success).toBe(false);
  });

  it("references: an echo names the reference sent as a number, trimmed or without leading zeros, nothing else", () => {
    const echo = (v: unknown) => wireId.parse(v);
    expect(sameReference(echo(1_700_000_000_001), "1700000000001")).toBe(true);
    expect(sameReference(echo(" 1700000000001\n"), "1700000000001")).toBe(true);
    expect(sameReference(echo(42), "0042")).toBe(true);
    expect(sameReference(echo("000"), "0")).toBe(true);
    expect(sameReference(echo("REF-0042"), "REF-0042")).toBe(true);
    expect(sameReference(echo(1_700_000_000_002), "1700000000001")).toBe(false);
    expect(sameReference(echo(420), "0042")).toBe(false);
    expect(sameReference(echo("REF-42"), "REF-0042")).toBe(false);
    expect(sameReference(echo("ref-0042"), "REF-0042")).toBe(false);
    expect(sameReference(echo("42.0"), "42")).toBe(false);
  });

  it("package lists: an array, or an object wrapping packages", () => {
    const list = [{ id: 1, name: "A", amount: "10.5" }];
    const expected = [{ id: "1", name: "A", amountPaisa: 1050 }];
    expect(wirePackageList.parse(list)).toEqual(expected);
    expect(wirePackageList.parse({ packages: list })).toEqual(expected);
  });

  it("circles: circle_id wins over value when both are present", () => {
    expect(
      wireCircleList.parse([{ circle_id: "7", circle_name: "Gujarat", value: 7, label: "GJ" }]),
    ).toEqual([{ circleId: "7", circleName: "Gujarat" }]);
  });

  it("wallet: prefers credits_available, accepts credit_available", () => {
    expect(wireWallet.parse({ credits_available: "1", credit_available: "2" })).toEqual({
      creditAvailablePaisa: 100,
    });
    expect(wireWallet.parse({ credit_available: "0.01" })).toEqual({ creditAvailablePaisa: 1 });
  });

  it("status: reference_no is accepted for order_id; details may sit at the top level", () => {
    const parsed = wireStatusData(0).parse({
      status: "Pending",
      transaction_id: "T1",
      reference_no: 55,
      amount: "50",
      timestamp: "December 21,2024 9:03pm",
      connection_no: "9841234567",
      operator: "NTC",
    });
    expect(parsed).toEqual({
      status: "pending",
      transactionId: "T1",
      referenceNo: "55",
      amountPaisa: 5000,
      timestampMs: Date.UTC(2024, 11, 21, 21, 3),
      connectionNo: "9841234567",
      operator: "NTC",
      packageName: null,
    });
    expect(wireStatusData().safeParse({ status: "x", transaction_id: 1, amount: 1 }).success).toBe(
      false,
    );
  });

  it("reads PHP's empty array [] as an absent member: status details, execute credit_consumed", () => {
    // The provider is a PHP service: json_encode writes an empty array as [] (review s32-books 1).
    const status = wireStatusData(0).parse({
      status: "Success",
      transaction_id: "T1",
      order_id: "17",
      amount: "50",
      details: [],
      connection_no: "9841234567",
    });
    expect(status).toMatchObject({ status: "success", referenceNo: "17", amountPaisa: 5000 });
    expect(status.connectionNo).toBe("9841234567");
    const d = wireExecuteData.parse({
      transaction_id: 9,
      amount: "100",
      status: "Success",
      credit_consumed: [],
      credit_available: "900",
    });
    expect(d).toMatchObject({ debitAmountPaisa: 10_000, debitReported: false });
    // Only an empty one: a list with something in it is not the object asked for.
    expect(
      wireStatusData(0).safeParse({
        status: "x",
        transaction_id: 1,
        order_id: 1,
        amount: 1,
        details: [1],
      }).success,
    ).toBe(false);
  });

  it("execute data: debit defaults to amount + charge - discount when missing", () => {
    const d = wireExecuteData.parse({
      transaction_id: 9,
      amount: "100",
      status: "Success",
      credit_consumed: { service_charge: "2", instant_discount: "1.5" },
    });
    expect(d).toMatchObject({
      debitAmountPaisa: 10050,
      serviceChargePaisa: 200,
      instantDiscountPaisa: 150,
      creditAvailablePaisa: null,
      commissionPaisa: null,
    });
  });

  it("execute results validate against the exported result schema", () => {
    expect(
      executeResultSchema.safeParse({
        kind: "unknown",
        referenceNo: "1",
        reason: "timeout",
        detail: "x",
      }).success,
    ).toBe(true);
    expect(
      executeResultSchema.safeParse({
        kind: "unknown",
        referenceNo: "1",
        reason: "late",
        detail: "x",
      }).success,
    ).toBe(false);
  });
});
