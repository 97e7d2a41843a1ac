import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Review s32-accounts, 1: in staff mode (orders paid from the merchant's wallet) a customer has
 * no balance to spend or see, yet /cashin booked the agent's cash onto it and told the customer
 * "Rs 100 was added to your balance", while their /balance said the bot is private. Now /cashin
 * says cash-ins are off and to take no cash, before any question; nothing moves. Review
 * s32-accounts, 2: the registration no longer says a shop can add money to the balance.
 */

const AGENT = 4811;
const AGENT_NE = 4814;
const AGENT_HI = 4815;
const CUSTOMER = 14_812;

describe("/cashin in staff mode", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: {
        ACCESS_MODE: "staff",
        STAFF_IDS: "",
        AGENT_IDS: `${AGENT},${AGENT_NE},${AGENT_HI}`,
        ADMIN_IDS: "4813",
      },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("is refused with the reason before any question; nothing is booked", async () => {
    // Review s32-accounts, 2: no "a shop can now add money to your balance" in staff mode.
    const registered = await ts.user(CUSTOMER).register("9779800014812");
    expect(registered.text).toBe("✅ Registered with +977 9800014812.");
    // A float from before a switch to staff mode (or an admin's /credit, still offered).
    const funded = await ts.system.ledger.transfer({
      id: "fund-4811",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    expect(funded.ok).toBe(true);
    const agent = ts.user(AGENT);
    const said = await agent.say("/cashin", /Cash-ins are off|phone number/);
    expect(said.text).toBe(
      "Cash-ins are off: this shop's orders are paid from the merchant's wallet, so a customer has no balance to spend here. Take no cash for it; nothing was moved.",
    );
    // The flow has ended: a number typed now is no cash-in's answer.
    await agent.say("/balance", /agent balance/i);
    expect((await ts.system.ledger.balance(account.customer(CUSTOMER))).postedPaisa).toBe(0);
    expect((await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa).toBe(100_000);
  });

  it("in Nepali and Hindi too", async () => {
    const ne = await ts.user(AGENT_NE, { language_code: "ne" }).say("/cashin", /नगद जम्मा/);
    expect(ne.text).toContain("नगद जम्मा बन्द छ");
    expect(ne.text).toContain("नगद नलिनुहोस्");
    const hi = await ts.user(AGENT_HI, { language_code: "hi" }).say("/cashin", /नकद जमा/);
    expect(hi.text).toContain("नकद जमा बंद है");
    expect(hi.text).toContain("नकद मत लीजिए");
  });
});
