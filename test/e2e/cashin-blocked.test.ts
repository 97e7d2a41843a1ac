import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisBlocked } from "../../src/accounts/index.ts";
import { account } from "../../src/ledger/index.ts";
import { REDIS_URL, startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Review s24-b, 4: an agent's /cashin to a customer the merchant blocked is refused at the phone
 * number, with the reason and "take no cash": the customer could neither spend nor see it. Before,
 * the confirm screen showed the name and the cash-in was booked.
 */

const AGENT = 4701;
const CUSTOMER = 4702;

describe("/cashin to a blocked customer", () => {
  let ts: TestSystem;
  let other: Redis;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT), ADMIN_IDS: "4703" },
    });
    other = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    other?.disconnect();
    await ts.cleanup();
  });

  it("is refused with the reason; unblocked, it goes on", async () => {
    await ts.user(CUSTOMER).register("9779800004702");
    await ts.system.ledger.transfer({
      id: "fund-4701",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const blocked = createRedisBlocked({ redis: other, prefix: ts.prefix });
    await blocked.block({ userId: CUSTOMER, reason: "abuse", by: 4703, at: Date.now() });
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    const refused = await agent.say("9800004702", /blocked by the shop/);
    expect(refused.text).toContain("+977 9800004702's account is blocked by the shop");
    expect(refused.text).toContain("Take no cash for it.");
    expect(refused.text).toMatch(/customer's phone number/);
    await blocked.unblock(CUSTOMER);
    await agent.say("9800004702", /How much cash/);
    await agent.say("/cancel");
    expect((await ts.system.ledger.balance(account.customer(CUSTOMER))).postedPaisa).toBe(0);
  });

  it("blocked between the number and Confirm: refused at Confirm, nothing booked (review s24-h, 6)", async () => {
    // Before: the block was read only when the number was typed; the Confirm booked the cash.
    const agent = ts.user(AGENT);
    const blocked = createRedisBlocked({ redis: other, prefix: ts.prefix });
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004702", /How much cash/);
    await agent.say("100", /to the balance of/);
    await blocked.block({ userId: CUSTOMER, reason: "abuse", by: 4703, at: Date.now() });
    const refused = await agent.tap("✅ Confirm", /blocked by the shop/);
    expect(refused.text).toContain("+977 9800004702's account is blocked by the shop");
    expect(refused.text).toContain("Take no cash for it.");
    expect((await ts.system.ledger.balance(account.customer(CUSTOMER))).postedPaisa).toBe(0);
    await blocked.unblock(CUSTOMER);
  });
});
