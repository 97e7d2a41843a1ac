import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRupees } from "../../src/money.ts";
import { wireRequest } from "../support/execute-terms.ts";
import {
  sandboxLedger,
  startTestSystem,
  type TestSystem,
  type TestUser,
} from "../support/system.ts";

/** /status, forged repeat buttons and /balance, with an agent, an admin and two customers. */
const AGENT = 901;
const ADMIN = 902;
const NOT_FOUND = "I found no order with that number.";

describe("order status and wallet, end to end", () => {
  let ts: TestSystem;
  let ref = "";
  let transactionId = "";

  beforeAll(async () => {
    ts = await startTestSystem({ env: { AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) } });
    // Customer 911 places one mobile order; the tests below look at it from every side.
    ref = await ts.user(911).placeMobile("9841000111", "100");
    await ts.user(911).waitFor(new RegExp(`Order ${ref} succeeded`));
    transactionId = (await ts.system.orders.get(ref))?.transactionId ?? "";
    expect(transactionId).not.toBe("");
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("shows an agent a customer's order by reference and by transaction id", async () => {
    const agent = ts.user(AGENT);
    const byRef = await agent.say(`/status ${ref}`, new RegExp(`Order ${ref}`));
    expect(byRef.text).toContain("NTC Prepaid · 9841000111");
    expect(byRef.text).toContain("Amount: Rs 100");
    expect(byRef.text).toContain("Status: ✅ successful");
    expect(byRef.text).toContain(`Transaction id: ${transactionId}`);
    expect(byRef.text).toContain("Customer (Telegram id): 911");
    // An agent is not an admin: no wallet effects.
    expect(byRef.text).not.toContain("Wallet");

    await agent.say("/status", /Send the reference number/);
    const byTx = await agent.say(transactionId, new RegExp(`Order ${ref}`));
    expect(byTx.text).toContain("9841000111");
  });

  it("shows an admin the wallet effects of an order", async () => {
    const admin = ts.user(ADMIN);
    const shown = await admin.say(`/status ${ref}`, new RegExp(`Order ${ref}`));
    expect(shown.text).toMatch(
      /Wallet: Rs [\d,.]+ debited \(service charge Rs [\d,.]+\), balance after: Rs [\d,.]+/,
    );
  });

  it("shows a customer their own order, by reference and by transaction id, without staff details", async () => {
    const owner = ts.user(911);
    const byRef = await owner.say(`/status ${ref}`, new RegExp(`Order ${ref}\\n`));
    expect(byRef.text).toContain("Status: ✅ successful");
    expect(byRef.text).not.toContain("Customer (Telegram id)");
    expect(byRef.text).not.toContain("Wallet");
    await owner.say("/status", /Send the reference number/);
    // Not a number: the reason, then the question again.
    await owner.say("my order please", /A reference number has only digits/);
    const byTx = await owner.say(transactionId, new RegExp(`Order ${ref}\\n`));
    expect(byTx.text).toContain("9841000111");
  });

  it("answers another customer exactly as for an unknown number", async () => {
    const other = ts.user(912);
    const theirs = await other.say(`/status ${ref}`);
    const byTx = await other.say(`/status ${transactionId}`);
    const unknown = await other.say("/status 424242424242");
    expect(theirs.text).toBe(NOT_FOUND);
    expect(byTx.text).toBe(NOT_FOUND);
    expect(unknown.text).toBe(NOT_FOUND);
    expect(other.botTexts().join("\n")).not.toContain("9841000111");
  });

  it("ignores a forged repeat button for another customer's order", async () => {
    const other = ts.user(913);
    const welcome = await other.say("/start", /Namaste/);
    const before = ledgerOf("9841000111");
    forgePress(other, welcome.id, `rep:${ref}`);
    const answer = await other.waitFor(NOT_FOUND);
    expect(answer.text).toBe(NOT_FOUND);
    // No confirmation was offered and nothing was ordered or charged.
    expect(other.botTexts().some((t) => t.includes("Please check your order"))).toBe(false);
    expect(await ts.system.orders.listByUser(913, 10)).toEqual([]);
    expect(await ts.system.orders.listByUser(911, 10)).toHaveLength(1);
    expect(ledgerOf("9841000111")).toEqual(before);
    // The owner's order is as it was.
    expect((await ts.system.orders.get(ref))?.status).toBe("success");
  });

  it("lets an agent ask the aggregator about a reference the bot never stored", async () => {
    const catalog = ts.system.deps.catalog;
    const op = catalog.byCategory("mobile").find((o) => o.name === "NTC Prepaid")!;
    const executed = await ts.system.provider.execute(
      wireRequest({
        category: "mobile",
        operatorId: op.id,
        operatorTypeId: op.operatorTypeId,
        connectionNo: "9841777666",
        referenceNo: "880000123",
        amountPaisa: 7500,
      }),
    );
    expect(executed.kind).toBe("accepted");
    expect(await ts.system.orders.get("880000123")).toBeNull();

    const agent = ts.user(AGENT);
    const said = await agent.say("/status 880000123", /Provider says/);
    expect(said.text).toMatch(
      /Provider says: order 880000123, NTC Prepaid · 9841777666, Rs 75, status: .+/,
    );
    // A customer is never sent to the aggregator: the same answer as for any unknown number.
    const customer = ts.user(914);
    expect((await customer.say("/status 880000123")).text).toBe(NOT_FOUND);
    // Nothing under that number anywhere.
    expect((await agent.say("/status 777000777777")).text).toBe(NOT_FOUND);
  });

  it("shows the admin the wallet balance, and everyone else only their own balance", async () => {
    const token = ts.system.config.sandbox.token;
    const admin = ts.user(ADMIN);
    const shown = await admin.say("/balance", /Wallet balance/);
    expect(shown.text).toBe(
      `Wallet balance: ${formatRupees(ts.system.sandbox!.balance(token))}\n\nThe merchant's books: /books`,
    );

    const wallet = formatRupees(ts.system.sandbox!.balance(token));
    // Staff mode (the test systems'): a listed customer is told the merchant pays.
    expect((await ts.user(911).say("/balance")).text).toBe(
      "Your orders are paid from the merchant's wallet: you have no balance of your own here.",
    );
    expect((await ts.user(AGENT).say("/balance")).text).toMatch(/^🏪 Your agent balance: Rs 0\n/);
    // Customers never see the merchant's wallet, not in receipts, pushes or status answers.
    expect(ts.user(911).botTexts().join("\n")).not.toMatch(/Wallet balance/i);
    expect(ts.user(911).botTexts().join("\n")).not.toContain(wallet);
  });

  const ledgerOf = (connectionNo: string) =>
    sandboxLedger(ts).filter((r) => r.connectionNo === connectionNo);
});

/** A forged (or stale) callback: data the bot never put on that message. */
function forgePress(u: TestUser, messageId: number, data: string): void {
  u.emu.pressButton(u.id, messageId, data, { force: true });
}
