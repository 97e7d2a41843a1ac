import { describe, expect, it } from "vitest";
import { feesFor, SANDBOX_INR_TO_NPR_RATE_E4 } from "../../dev/sandbox/index.ts";

/**
 * The sandbox's wallet is in Nepal rupees for both regions: an India execute debits its ₹ amount
 * converted at the sandbox's own rate (rounded up to the paisa), and reports its commission as a
 * share of that debit, so the books can take `debit_amount` as the wallet's figure.
 */
describe("sandbox fees: India debits the Nepal-rupee wallet", () => {
  it("converts at the peg by default", () => {
    expect(SANDBOX_INR_TO_NPR_RATE_E4).toBe(16_000);
    expect(feesFor("india", 10_000)).toEqual({
      serviceChargePaisa: 0,
      instantDiscountPaisa: 0,
      debitPaisa: 16_000,
      commissionPaisa: 320,
    });
  });

  it("at its own rate when given one, rounded up", () => {
    expect(feesFor("india", 10_001, 16_015).debitPaisa).toBe(16_017);
    expect(feesFor("india", 10_000, 15_000).debitPaisa).toBe(15_000);
  });

  it("leaves Nepal orders in their own rupees", () => {
    expect(feesFor("mobile", 10_000, 20_000).debitPaisa).toBe(10_000);
    expect(feesFor("water", 10_000).debitPaisa).toBe(10_500);
  });
});
