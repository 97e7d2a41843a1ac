import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { useTestSystem } from "../support/system.ts";
import {
  availableOf,
  confirmUntil,
  creditPerson,
  openCategory,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * Telegram id of an agent who registered the phone they also use on WhatsApp: AGENT_IDS names
 * both chats (a role is a channel's own, never found through a number), each with its own float.
 */
const AGENT = 13_001;
const AGENT_PHONE = "9779800013001";
/** An admin who uses only WhatsApp: ADMIN_IDS names their number (wa:<digits>). */
const ADMIN_PHONE = "9779800013002";
const CUSTOMER_PHONE = "9779800013003";

describe("WhatsApp: agents and admins work on WhatsApp too", () => {
  const ts = useTestSystem({
    env: {
      ACCESS_MODE: "prepaid",
      AGENT_IDS: `${AGENT},wa:${AGENT_PHONE}`,
      ADMIN_IDS: `wa:${ADMIN_PHONE}`,
    },
  });

  it("an agent checks an order by reference and cashes in for a WhatsApp customer", async () => {
    // The customer, born on WhatsApp, buys something: the agent will look it up.
    const customer = waCustomer(ts, CUSTOMER_PHONE, "Gita");
    const person = waPerson(CUSTOMER_PHONE);
    await creditPerson(ts, person, 50_000);
    await openCategory(customer, /Mobile top-up/, /Which mobile number/);
    await customer.say("9841234567", /How much\?/);
    await customer.say("100", /Please check your order/);
    const { ref } = await confirmUntil(customer, "succeeded");

    await ts.user(AGENT).register(AGENT_PHONE);
    const agent = waCustomer(ts, AGENT_PHONE, "Shop");
    const shown = await agent.say(`status ${ref}`, new RegExp(`Order ${ref}`));
    expect(shown.text).toContain("NTC Prepaid");

    await ts.system.ledger.transfer({
      id: "wa-test-agent-float-13001",
      debit: account.merchant.funding,
      credit: account.agent(waPerson(AGENT_PHONE)),
      amountPaisa: 100_000,
      kind: "credit",
    });
    await agent.say("cashin", /customer's phone number/);
    await agent.say(CUSTOMER_PHONE.slice(3), /How much cash/);
    await agent.say("250", /Add Rs 250 to the balance of \+977 9800013003/);
    await agent.tap("✅ Confirm", /Cash-in done: Rs 250 to \+977 9800013003/);
    await customer.waitFor(/Rs 250 was added to your balance/);
    expect(await availableOf(ts, person)).toBe(50_000 - 10_000 + 25_000);
    expect(await availableOf(ts, AGENT)).toBe(0);
    const float = await ts.system.ledger.balance(account.agent(waPerson(AGENT_PHONE)));
    expect(float.availablePaisa).toBe(75_000);
    // The Telegram agent's own float is apart and untouched.
    expect((await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa).toBe(0);
  });

  it("an admin named by their WhatsApp number reads the books", async () => {
    const admin = waCustomer(ts, ADMIN_PHONE, "Owner");
    const books = await admin.say("books", /Books at/);
    expect(books.text).toContain("✅ The books balance");
    expect(books.text).toContain("Difference: Rs 0");
    // A customer asking the same is told it is for admins.
    const nosy = waCustomer(ts, "9779800013004");
    const refused = await nosy.say("books");
    expect(refused.text).toBe("This command is for admins.");
  });
});
