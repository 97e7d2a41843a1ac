import { afterAll, describe, expect, it } from "vitest";
import { createAccounts, createMemoryAccounts } from "../../src/accounts/index.ts";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Review s24-b, 2: an agent's day (the cash-in's "same cash-in earlier today" warning, the agent's
 * /balance) and a customer's movements are read through the account's own index, so a busy shop
 * (more than 5,000 journal entries since the Nepal day began, none of them this agent's) hides
 * neither the agent's latest cash-in nor the customer's. Before, the whole journal's first 5,000
 * entries of the day were read and the rest given up: the repeat went through without a warning.
 */

const redis = testRedis("busy-day");
afterAll(() => redis.cleanup());

async function busyDay(ledger: LedgerStore) {
  const accounts = createAccounts({ ledger, store: createMemoryAccounts() });
  await accounts.creditAgent({
    id: "credit-1",
    adminUserId: 1,
    agentUserId: 2001,
    amountPaisa: 1_000_000,
  });
  // The shop's other business of the day: 5,001 entries touching neither the agent nor 5555.
  for (let i = 0; i < 5_001; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, 5_001 - i) }, (_, j) =>
        ledger.transfer({
          id: `x${i + j}`,
          debit: account.merchant.funding,
          credit: account.customer(9_000 + ((i + j) % 50)),
          amountPaisa: 100,
          kind: "credit",
        }),
      ),
    );
  }
  const r = await accounts.cashIn({
    id: "cashin-last",
    agentUserId: 2001,
    customerUserId: 5555,
    amountPaisa: 50_000,
  });
  expect(r.ok).toBe(true);
  const day = await accounts.agentSummary(2001);
  expect(day.complete).toBe(true);
  // What beforeConfirm (conversations/cash/cash-in.ts) looks for to warn of a repeat.
  expect(day.cashIns.map((e) => e.id)).toEqual(["cashin-last"]);
  expect(day.balance.availablePaisa).toBe(950_000);
  const customer = await accounts.customerSummary(5555);
  expect(customer).toMatchObject({ complete: true, movements: [{ id: "cashin-last" }] });
}

describe("a busy day's cash-ins (more than 5,000 journal entries of others)", () => {
  it("memory ledger", async () => {
    await busyDay(createMemoryLedger());
  });
  it("Redis ledger", async () => {
    await busyDay(createRedisLedger({ redis: redis.redis, prefix: redis.prefix }));
  });
});
