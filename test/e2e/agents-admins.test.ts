import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { formatMoney } from "../../src/money.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Agents and admins (issue 30), as the chats read: a reversed cash-in is explained to both the
 * agent whose cash-in it was and the customer, once, whether the admin reverses it with /reverse
 * or in the back office; the cash-in confirmation names the customer the number belongs to.
 */

/** An agent and an admin of these tests' own (the local mode's agent 2001 starts with a demo credit). */
const AGENT = 4790;
const ADMIN = 4791;

describe("agents and admins", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) },
  });

  /** The admin credits the agent through /credit. */
  async function adminCredits(rupees: string): Promise<void> {
    const admin = ts.user(ADMIN);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say(rupees, /Credit agent \d+ with/);
    await admin.tap("✅ Confirm", /credited with/);
  }

  /** The agent cashes in `rupees` for `phone`; resolves with the receipt id and the confirmation. */
  async function cashIn(phone: string, rupees: string) {
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone, /How much cash/);
    const confirm = await agent.say(rupees, /Add .* to the balance of/);
    const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
    await agent.tap("✅ Confirm", /Cash-in done/);
    return { id, confirm };
  }

  const toldOf = (userId: number, id: string) =>
    ts
      .user(userId)
      .botTexts()
      .filter((t) => t.includes(id) && /reversed/.test(t));

  it("/reverse of a cash-in tells the agent and the customer the amount and why, once", async () => {
    const customer = ts.user(4701);
    await customer.register("9779800004701");
    await adminCredits("500");
    const { id } = await cashIn("9800004701", "300");

    const admin = ts.user(ADMIN);
    await admin.say(`/reverse ${id}`, /Why is it reversed/);
    await admin.say("typed the wrong customer", /Reverse receipt/);
    await admin.tap("✅ Confirm", /Reversed: Rs 300 back/);

    const agentNotice = await ts.user(AGENT).waitFor(/Your cash-in cashin-\S+ of Rs 300/);
    expect(agentNotice.text).toContain(id);
    expect(agentNotice.text).toContain("to +977 9800004701");
    expect(agentNotice.text).toContain("typed the wrong customer");
    expect(agentNotice.text).toContain("Rs 300 is back in your agent balance: Rs 500");
    const customerNotice = await customer.waitFor(/The merchant reversed Rs 300 of receipt/);
    expect(customerNotice.text).toContain("typed the wrong customer");

    // Asked again: nothing moves and nobody is told twice.
    await admin.say(`/reverse ${id}`, /was already reversed/);
    expect(toldOf(AGENT, id)).toHaveLength(1);
    expect(toldOf(4701, id)).toHaveLength(1);
    await expectBooksBalanced(ts.system.ledger);
  });

  it("a cash-in reversed in the back office tells the agent and the customer, once", async () => {
    const customer = ts.user(4702);
    await customer.register("9779800004702");
    await adminCredits("200");
    const { id } = await cashIn("9800004702", "120");

    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text) ?? "http://x/").pathname)).status).toBe(303);
    const body = new URLSearchParams({ id, reason: "cash was counterfeit" }).toString();
    expect((await c.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(200);
    expect((await c.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(200);

    const agentNotice = await ts.user(AGENT).waitFor(new RegExp(`Your cash-in ${id} of Rs 120`));
    expect(agentNotice.text).toContain("cash was counterfeit");
    expect(agentNotice.text).toContain("to +977 9800004702");
    await waitUntil(() => toldOf(4702, id).length > 0, "the customer told of the reversal");
    expect(toldOf(4702, id)[0]).toContain("cash was counterfeit");
    expect(toldOf(AGENT, id)).toHaveLength(1);
    expect(toldOf(4702, id)).toHaveLength(1);
    await expectBooksBalanced(ts.system.ledger);
  });

  it("the cash-in confirmation names the customer the number is registered to", async () => {
    const customer = ts.user(4703, { first_name: "Sita" });
    await customer.register("9779800004703");
    await adminCredits("100");
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004703", /How much cash/);
    const confirm = await agent.say("50", /Add Rs 50 to the balance of/);
    expect(confirm.text).toContain("Add Rs 50 to the balance of +977 9800004703 (Sita)?");
    await agent.say("/cancel", /Cash-in cancelled/);
  });

  it("the confirm's balance after counts a cash-in booked from the agent's other chat meanwhile", async () => {
    await ts.user(4706).register("9779800004706");
    await ts.user(4707).register("9779800004707");
    await adminCredits("1000");
    const agent = ts.user(AGENT);
    const float = async () => (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004706", /How much cash/);
    // The agent's other chat (WhatsApp) books Rs 300 while this one asks for the amount.
    const other = await ts.system.deps.accounts.cashIn({
      id: "cashin-other-chat",
      agentUserId: AGENT,
      customerUserId: 4707,
      amountPaisa: 30_000,
    });
    expect(other.ok).toBe(true);
    const left = await float();
    const confirm = await agent.say("500", /Add Rs 500 to the balance of/);
    expect(confirm.text).toContain(`Your balance after: ${formatMoney(left - 50_000)}`);
    await agent.tap("✅ Confirm", /Cash-in done/);
    expect(await float()).toBe(left - 50_000);
  });

  it("a second cash-in of the same amount to the same customer today is flagged before the confirm", async () => {
    await ts.user(4708).register("9779800004708");
    await adminCredits("300");
    const first = await cashIn("9800004708", "100");
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004708", /How much cash/);
    const again = await agent.say("100", /Add Rs 100 to the balance of/);
    expect(again.text).toContain("This number already got a cash-in of Rs 100 from you today");
    expect(again.text).toContain(`receipt ${first.id}`);
    await agent.say("/cancel", /Cash-in cancelled/);
    // Another amount is not flagged.
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004708", /How much cash/);
    const other = await agent.say("50", /Add Rs 50 to the balance of/);
    expect(other.text).not.toContain("already got a cash-in");
    await agent.say("/cancel", /Cash-in cancelled/);
  });

  it("/help lists each staff role's commands: /books, /reverse and /status by phone for admins", async () => {
    const admin = await ts.user(ADMIN).say("/help", /What I can do/);
    for (const command of ["/books", "/credit", "/reverse", "/dashboard", "/status 9841234567"]) {
      expect([command, admin.text.includes(command)]).toEqual([command, true]);
    }
    const agent = await ts.user(AGENT).say("/help", /What I can do/);
    for (const command of ["/cashin", "/status", "/balance", "/dashboard"]) {
      expect([command, agent.text.includes(command)]).toEqual([command, true]);
    }
    expect(agent.text).not.toMatch(/\/books|\/reverse|\/credit/);
  });

  it("an admin finds a customer's orders by their phone number with /status", async () => {
    const customer = ts.user(4705);
    await customer.register("9779800004705");
    await customer.credit(50_000);
    await customer.mobileToConfirm("9841234705", "100");
    const { ref } = await customer.confirmUntil("succeeded");
    expect(ref).not.toBe("");

    const admin = ts.user(ADMIN);
    const found = await admin.say(
      "/status 9800004705",
      /Recent orders of the customer registered with \+977 9800004705/,
    );
    expect(found.text).toContain(ref);
    expect(found.text).toContain("9841234705");
    expect(found.text).toContain("Rs 100");
    // The reference it shows opens the order.
    await admin.say(`/status ${ref}`, new RegExp(`Order ${ref}`));
    await admin.say("/status 9800009998", /Nobody is registered with \+977 9800009998/);
    // A customer's /status of a phone number stays a reference lookup of their own orders.
    await customer.say("/status 9800004705", /I found no order with that number/);
  });
});

describe("an agent's /balance", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) },
  });

  it("lists credits, cash-ins and reversals with running balances; a reversed cash-in is not today's", async () => {
    for (const id of [4711, 4712]) await ts.user(id).register();
    const admin = ts.user(ADMIN);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("500", /Credit agent \d+ with/);
    await admin.tap("✅ Confirm", /credited with/);
    const agent = ts.user(AGENT);
    const ids: string[] = [];
    for (const [phone, rupees] of [
      ["9800004711", "300"],
      ["9800004712", "100"],
    ] as const) {
      await agent.say("/cashin", /customer's phone number/);
      await agent.say(phone, /How much cash/);
      const confirm = await agent.say(rupees, /Add .* to the balance of/);
      ids.push(/Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "");
      await agent.tap("✅ Confirm", /Cash-in done/);
    }
    await admin.say(`/reverse ${ids[0]}`, /Why is it reversed/);
    await admin.say("wrong customer", /Reverse receipt/);
    await admin.tap("✅ Confirm", /Reversed: Rs 300 back/);

    const shown = await agent.say("/balance", /Your agent balance: Rs 400/);
    expect(shown.text).toContain("Cash-ins today: 1, Rs 100 in all.");
    const lines = shown.text.split("\n");
    const at = (part: string) => lines.findIndex((l) => l.includes(part));
    const expected = [
      `+Rs 300 back: cash-in ${ids[0]} to +977 9800004711 reversed (wrong customer) · balance Rs 400`,
      "−Rs 100 cash-in to +977 9800004712 · balance Rs 100",
      "−Rs 300 cash-in to +977 9800004711 · balance Rs 200",
      "+Rs 500 credited by the merchant · balance Rs 500",
    ];
    const found = expected.map(at);
    expect(found.every((i) => i > 0)).toBe(true);
    // Newest first.
    expect([...found].sort((a, b) => a - b)).toEqual(found);
  });
});

describe("two admins reversing the same receipt with the same reason", () => {
  const ADMIN_B = 4792;
  const ts = useTestSystem({
    env: {
      ACCESS_MODE: "prepaid",
      AGENT_IDS: String(AGENT),
      ADMIN_IDS: `${ADMIN},${ADMIN_B}`,
    },
  });

  it("the one who did not book it hears it was already reversed", async () => {
    await ts.user(4721).register("9779800004721");
    const a = ts.user(ADMIN);
    await a.say("/credit", /Credit which agent/);
    await a.tap(String(AGENT), /How much did agent/);
    await a.say("500", /Credit agent \d+ with/);
    await a.tap("✅ Confirm", /credited with/);
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800004721", /How much cash/);
    const confirm = await agent.say("200", /Add .* to the balance of/);
    const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
    await agent.tap("✅ Confirm", /Cash-in done/);

    const b = ts.user(ADMIN_B);
    await b.say(`/reverse ${id}`, /Why is it reversed/);
    await b.say("counted twice", /Reverse receipt/);
    // Admin A's reversal with the same reason lands while B's confirm stands: booked, A told
    // "done", its receipt not yet read by B's run (the two runs interleave so at the same moment;
    // B's own run cannot be paused between its read and its booking, so the state is set here).
    const accounts = ts.system.deps.accounts;
    const booked = await ts.system.ledger.transfer({
      id: `rev-${id}`,
      kind: "reversal",
      debit: account.customer(4721),
      credit: account.agent(AGENT),
      amountPaisa: 20_000,
      reference: id,
      reason: "counted twice",
    });
    expect(booked.ok).toBe(true);
    expect(await accounts.firstNotice(`rev-${id}`, "by")).toBe(true);

    const answer = await b.tap("✅ Confirm", /was already reversed/);
    expect(answer.text).toContain(`rev-${id}`);
    expect(b.botTexts().filter((t) => /Reversed:/.test(t))).toEqual([]);
    // B did not book it: the receipt does not name B (who booked is not known: rebuilt).
    expect(await accounts.receipt(`rev-${id}`)).toMatchObject({ by: 0, rebuilt: true });
    const reversals = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.kind === "reversal" && e.reference === id,
    );
    expect(reversals).toHaveLength(1);
  });
});
