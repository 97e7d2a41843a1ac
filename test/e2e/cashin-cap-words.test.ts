import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Review s32-accounts, 4: an agent whose float is above the most one cash-in may move (Rs
 * 1,00,000) was asked "From Rs 1 to Rs 1,00,000 (your balance)", a false word about their money.
 * Now the cap is named as the cap, with the balance beside it; below the cap the words stay.
 */

const RICH = 4831;
const RICH_NE = 4834;
const RICH_HI = 4835;
const SMALL = 4836;
const CUSTOMER = 14_832;

describe("/cashin's amount question names the cap and the balance", () => {
  let ts: TestSystem;
  const fund = async (agent: number, paisa: number) => {
    const r = await ts.system.ledger.transfer({
      id: `fund-${agent}`,
      debit: account.merchant.funding,
      credit: account.agent(agent),
      amountPaisa: paisa,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
  };
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: {
        ACCESS_MODE: "prepaid",
        AGENT_IDS: [RICH, RICH_NE, RICH_HI, SMALL].join(","),
        ADMIN_IDS: "4833",
      },
    });
    await ts.user(CUSTOMER).register("9779800014832");
    for (const a of [RICH, RICH_NE, RICH_HI]) await fund(a, 25_000_000);
    await fund(SMALL, 100_000);
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("above the cap: the cap as the cap, the balance as the balance", async () => {
    const agent = ts.user(RICH);
    await agent.say("/cashin", /customer's phone number/);
    const asked = await agent.say("9800014832", /How much cash/);
    expect(asked.text).toBe(
      "How much cash did you take? From Rs 1 to Rs 1,00,000 (the most one cash-in may be; your balance is Rs 2,50,000).",
    );
    await agent.say("150000", /The largest amount is Rs 1,00,000/);
    await agent.say("/cancel");
  });

  it("in Nepali and Hindi too", async () => {
    const ne = ts.user(RICH_NE, { language_code: "ne" });
    await ne.say("/cashin", /फोन नम्बर/);
    const neAsked = await ne.say("9800014832", /नगद लिनुभयो/);
    expect(neAsked.text).toContain("एक पटकको नगद जम्माको सीमा");
    expect(neAsked.text).not.toMatch(/सम्म \(तपाईंको मौज्दात\)/);
    await ne.say("/cancel");
    const hi = ts.user(RICH_HI, { language_code: "hi" });
    await hi.say("/cashin", /फ़ोन नंबर/);
    const hiAsked = await hi.say("9800014832", /नकद लिया/);
    expect(hiAsked.text).toContain("एक नकद जमा की सीमा");
    expect(hiAsked.text).not.toMatch(/तक \(आपका बैलेंस\)/);
    await hi.say("/cancel");
  });

  it("below the cap the largest amount is the balance, as before", async () => {
    const agent = ts.user(SMALL);
    await agent.say("/cashin", /customer's phone number/);
    const asked = await agent.say("9800014832", /How much cash/);
    expect(asked.text).toBe("How much cash did you take? From Rs 1 to Rs 1,000 (your balance).");
    await agent.say("/cancel");
  });
});
