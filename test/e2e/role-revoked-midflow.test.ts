import { afterAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { deleteKeys, startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Review s33-rvagent, 1: a flow read its user's role once, at its start, and replayed it from its
 * log: an agent removed from AGENT_IDS (or an admin from ADMIN_IDS) whose /cashin (/credit,
 * /reverse, /settle) was waiting when the bot restarted with the new settings still booked at
 * Confirm. Now the role is read again from the Confirm's own update; nothing moves.
 */

const AGENT = 4931;
const CUSTOMER = 14_932;
const ADMIN = 4933;
const OTHER_ADMIN = 4934;
/** An agent who stays: the revoked admin's /credit is for them. */
const KEPT_AGENT = 4935;
/** An admin removed while their /reverse waits. */
const REV_ADMIN = 4938;

describe("a role removed from the settings while its flow waits at Confirm", () => {
  const started: TestSystem[] = [];
  let prefix = "";
  afterAll(async () => {
    for (const ts of started) await ts.stop();
    if (prefix) await deleteKeys(prefix);
  });
  const start = async (agents: string, admins: string) => {
    const ts = await startTestSystem({
      redis: true,
      ...(prefix ? { prefix } : {}),
      env: { ACCESS_MODE: "prepaid", AGENT_IDS: agents, ADMIN_IDS: admins },
    });
    started.push(ts);
    prefix = ts.prefix;
    return ts;
  };

  it("/cashin by a revoked agent, /credit and /reverse by revoked admins book nothing", async () => {
    const first = await start(`${AGENT},${KEPT_AGENT}`, `${ADMIN},${OTHER_ADMIN},${REV_ADMIN}`);
    await first.user(CUSTOMER).register("9779800014932");
    await first.system.ledger.transfer({
      id: "fund-4931",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const agent = first.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800014932", /How much cash/);
    await agent.say("100", /Add Rs 100 to the balance of/);
    const admin = first.user(ADMIN);
    await admin.say("/credit", /which agent/);
    await admin.say(String(KEPT_AGENT), /.+/);
    await admin.say("500", /Rs 500/);
    const reverser = first.user(REV_ADMIN);
    await reverser.say("/reverse fund-4931", /Why is it reversed/);
    await reverser.say("agent left the shop", /Reverse receipt fund-4931/);
    await first.stop();

    // The agent and one admin are removed from the settings; the bot restarts with them.
    const second = await start(String(KEPT_AGENT), String(OTHER_ADMIN));
    // A new emulator: the chat starts empty; a word typed at the Confirm brings its buttons back.
    const agentAfter = second.user(AGENT);
    await agentAfter.say("ok", /choose one of the buttons/);
    const told = await agentAfter.tap("✅ Confirm", /Not done|Cash-in done/);
    expect(told.text).toBe(
      "Not done: /cashin is no longer yours to use (the shop changed who may). Nothing was moved: no balance changed.",
    );
    const adminAfter = second.user(ADMIN);
    await adminAfter.say("ok", /choose one of the buttons/);
    const credit = await adminAfter.tap("✅ Confirm", /Not done|credited|Credit done/i);
    expect(credit.text).toMatch(/^Not done: \/credit is no longer yours to use/);
    const reverserAfter = second.user(REV_ADMIN);
    await reverserAfter.say("ok", /choose one of the buttons/);
    const reversal = await reverserAfter.tap("✅ Confirm", /Not done|Reversed/);
    expect(reversal.text).toMatch(/^Not done: \/reverse is no longer yours to use/);
    const ledger = second.system.ledger;
    expect((await ledger.balance(account.customer(CUSTOMER))).postedPaisa).toBe(0);
    expect((await ledger.balance(account.agent(AGENT))).availablePaisa).toBe(100_000);
    expect((await ledger.balance(account.agent(KEPT_AGENT))).postedPaisa).toBe(0);
  });

  it("a shop's QR code scanned before the agent was removed: the registration records no shop, tells them nothing", async () => {
    // Review s33-rvagent, 3: the shop waited in the chat's session and, at registration, the
    // removed agent was told the new customer's name and phone number ("/cashin them").
    const SHOP = 4936;
    const SCANNER = 14_937;
    const first = await start(`${SHOP},${KEPT_AGENT}`, String(OTHER_ADMIN));
    await first.user(SCANNER).say(`/start shop-${SHOP}`, /scanned a shop's QR code/);
    await first.stop();

    const second = await start(String(KEPT_AGENT), String(OTHER_ADMIN));
    const registered = await second.user(SCANNER, { first_name: "Sita" }).register();
    expect(registered.text).toMatch(/^✅ Registered with/);
    // The registration's own replies are all sent by now: one more message marks the turn done.
    await second.user(SCANNER).say("/balance", /balance/i);
    expect(await second.system.deps.accounts.shopOf(SCANNER)).toBeNull();
    expect(second.user(SHOP).botTexts()).toEqual([]);
    expect(second.user(SCANNER).botTexts().join("\n")).not.toContain("customer of this shop");
  });
});
