import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Review s32-accounts, 6: an agent orders from a balance of their own (prepaid mode), which a
 * cash-in or a top-up fills ("Rs 500 was added to your balance"), yet /balance showed only the
 * float (for cash-ins): the Rs 500 was nowhere (an admin's /balance the aggregator's wallet only).
 * Now /balance shows both, each named; in staff mode (the merchant's wallet pays) the own balance
 * is not shown.
 */

const AGENT = 4841;
const AGENT_NE = 4842;

describe("an agent's /balance shows their own balance beside the float", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", AGENT_IDS: `${AGENT},${AGENT_NE}`, ADMIN_IDS: "4843" },
    });
    for (const a of [AGENT, AGENT_NE]) {
      const r = await ts.system.ledger.transfer({
        id: `fund-${a}`,
        debit: account.merchant.funding,
        credit: account.agent(a),
        amountPaisa: 100_000,
        kind: "credit",
      });
      expect(r.ok).toBe(true);
    }
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("the float and, apart, the own balance that pays the agent's orders", async () => {
    const agent = ts.user(AGENT);
    await agent.credit(50_000);
    const shown = await agent.say("/balance", /agent balance/);
    const lines = shown.text.split("\n");
    expect(lines[0]).toBe("🏪 Your agent balance: Rs 1,000");
    expect(lines[1]).toBe("💳 Your own balance (it pays your own orders): Rs 500");
  });

  it("an admin's too, beside the aggregator's wallet", async () => {
    const admin = ts.user(4843);
    await admin.credit(30_000);
    const shown = await admin.say("/balance", /Wallet balance/);
    expect(shown.text).toMatch(
      /^Wallet balance: Rs [\d,.]+\n\n💳 Your own balance \(it pays your own orders\): Rs 300\n\nThe merchant's books: \/books$/,
    );
  });

  it("in Nepali", async () => {
    const agent = ts.user(AGENT_NE, { language_code: "ne" });
    await agent.credit(20_000);
    const shown = await agent.say("/balance", /मौज्दात/);
    expect(shown.text).toContain("तपाईंको आफ्नै मौज्दात (तपाईंका आफ्नै अर्डर यसैबाट तिरिन्छन्): रु 200");
  });
});

describe("in staff mode the merchant's wallet pays: no own balance is shown", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "staff", STAFF_IDS: "", AGENT_IDS: "4844", ADMIN_IDS: "4845" },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("the float only", async () => {
    const shown = await ts.user(4844).say("/balance", /agent balance/);
    expect(shown.text).not.toContain("Your own balance");
  });
});
