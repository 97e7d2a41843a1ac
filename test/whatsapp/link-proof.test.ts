import { describe, expect, it, vi } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { account } from "../../src/ledger/index.ts";
import { useTestSystem } from "../support/system.ts";
import {
  availableOf,
  creditPerson,
  linkCodeIn,
  linkWhatsAppTo,
  shareContact,
  standInOf,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * s21 findings 1, 2, 4 and 5: a phone number proves a person on one channel at one time only
 * (Telegram never re-checks the number an account carries; WhatsApp proves its holder now), so
 * neither a role nor a balance follows a number from one channel to the other. Two channels are
 * one account only after a code sent to the chat that registered the number is typed in the
 * other; a role is the channel's own (ADMIN_IDS, AGENT_IDS), whatever it acts as.
 */

const ADMIN = 21_001;
const AGENT = 21_002;
/** A number a WhatsApp-only admin writes from (ADMIN_IDS names it). */
const WA_ADMIN = "9779800021900";

const ts = useTestSystem({
  redis: true,
  env: {
    ACCESS_MODE: "prepaid",
    ADMIN_IDS: `${ADMIN},wa:${WA_ADMIN}`,
    AGENT_IDS: String(AGENT),
  },
});

const agentFloat = async (id: number) =>
  (await ts.system.ledger.balance(account.agent(id))).availablePaisa;

const codesTo = (waId: string) =>
  standInOf(ts)
    .messagesTo(waId)
    .filter((m) => /Your code/.test(m.text));

describe("finding 1: a staff role does not follow a number to the other channel", () => {
  it("the WhatsApp holder of the admin's Telegram-registered number is not the admin", async () => {
    // The admin registered on Telegram long ago; the SIM was given up and the number recycled.
    const stale = "9779800021001";
    const admin = ts.user(ADMIN);
    await admin.register(stale);
    const stranger = waCustomer(ts, stale, "New SIM holder");
    // Not the admin's account, and nothing of it: only the choice between a code and a new account.
    await stranger.say("credit", /registered with us on Telegram/);
    // A code would go to the admin's Telegram chat: refused outright (staff chats are never joined),
    // without saying whose the account is.
    const adminSaw = admin.lastId();
    await stranger.say("link", /^The account of \+977 9800021001 cannot be joined to this chat/);
    await stranger.say("new yes", /now has its own account here/);
    await stranger.say("credit", /^"credit" is for admins\.$/);
    await stranger.say("books", /^This command is for admins\.$/);
    expect(await agentFloat(AGENT)).toBe(0);
    expect(admin.chat().filter((m) => m.id > adminSaw && /Your code/.test(m.text))).toEqual([]);
    // The admin keeps the role on Telegram.
    await admin.say("/credit", /Credit which agent/);
    await admin.tap("✖ Cancel", /Credit cancelled/);
  });

  it("the WhatsApp holder of an agent's Telegram-registered number cannot spend the float", async () => {
    const stale = "9779800021002";
    await ts.user(AGENT).register(stale);
    await ts.system.ledger.transfer({
      id: "s21-agent-float",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const stranger = waCustomer(ts, stale, "Another");
    await stranger.say("cashin", /registered with us on Telegram/);
    await stranger.say("new yes", /now has its own account here/);
    await stranger.say("cashin", /^"cashin" is for agents\.$/);
    expect(await agentFloat(AGENT)).toBe(100_000);
  });

  it("a Telegram account carrying a WhatsApp admin's number is not joined to it, nor made admin", async () => {
    await waCustomer(ts, WA_ADMIN, "WhatsApp admin").say("hi", /Namaste/);
    const tg = ts.user(21_199);
    await shareContact(tg, WA_ADMIN, /cannot be joined to this chat/);
    await tg.say("/credit", /^\/credit is for admins\.$/);
    expect(codesTo(WA_ADMIN)).toEqual([]);
    expect(await ts.system.deps.accounts.links.linkOf(21_199)).toBeNull();
  });
});

describe("finding 2: a balance does not follow a recycled number", () => {
  it("a stale Telegram holder is not joined to the WhatsApp account of the number's holder", async () => {
    const phone = "9779800021101";
    const holder = waCustomer(ts, phone, "Holder");
    await holder.say("hi", /Namaste Holder/);
    const person = waPerson(phone);
    await creditPerson(ts, person, 150_000);
    // The old holder's Telegram account still carries the number and shares it.
    const old = ts.user(21_101);
    await shareContact(old, phone, /sent a 6-digit code to that WhatsApp chat/);
    // The code went to the WhatsApp chat, which the old holder does not have: guesses fail.
    const code = linkCodeIn((await holder.waitFor(/Your code/)).text);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (const left of [4, 3, 2, 1]) {
      await old.say(`/link ${wrong}`, new RegExp(`not right\\. Tries left: ${left}\\.`));
    }
    await old.say(`/link ${wrong}`, /Too many wrong codes/);
    // Even the right code no longer works once the tries are spent.
    await old.say(`/link ${code}`, /No code is waiting to be typed in this chat/);
    expect(await ts.system.deps.accounts.links.linkOf(21_101)).toBeNull();
    await old.say("/balance", /Your balance: Rs 0/);
    expect(await availableOf(ts, person)).toBe(150_000);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(person);
  });

  it("a number's new WhatsApp holder does not see the Telegram customer's balance", async () => {
    const phone = "9779800021102";
    const customer = ts.user(21_102);
    await customer.register(phone);
    await customer.credit(200_000);
    const next = waCustomer(ts, phone, "Next holder");
    await next.say("balance", /registered with us on Telegram/);
    // A code goes to the Telegram chat; the new holder cannot read it.
    const saw = customer.lastId();
    await next.say("link", /sent a 6-digit code to that Telegram chat/);
    const sent = await customer.emu.waitForBotMessage(customer.id, /Your code/, { afterId: saw });
    const wrong = String((Number(linkCodeIn(sent.text)) + 1) % 1_000_000).padStart(6, "0");
    await next.say(`link ${wrong}`, /not right/);
    await next.say("balance", /registered with us on Telegram/);
    // The number for an account of its own: empty; the Telegram customer keeps every paisa.
    await next.say("new yes", /now has its own account here/);
    await next.say("balance", /Your balance: Rs 0/);
    expect(await availableOf(ts, 21_102)).toBe(200_000);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(waPerson(phone));
  });

  it("the same person joins both chats with the code, and unlinks", async () => {
    const phone = "9779800021103";
    const tg = ts.user(21_103);
    await tg.register(phone);
    await tg.credit(50_000);
    const wa = waCustomer(ts, phone, "Same person");
    await linkWhatsAppTo(wa, tg);
    await wa.say("balance", /Your balance: Rs 500/);
    await wa.say("unlink", /no longer uses the other account/);
    await wa.say("balance", /registered with us on Telegram/);
    expect(await availableOf(ts, 21_103)).toBe(50_000);
  });
});

describe("a join holds only while the account keeps the number", () => {
  it("a joined WhatsApp chat is not the Telegram account once that account took another number", async () => {
    const phone = "9779800021501";
    const tg = ts.user(21_501);
    await tg.register(phone);
    await tg.credit(30_000);
    const wa = waCustomer(ts, phone, "Joined");
    await linkWhatsAppTo(wa, tg);
    await wa.say("balance", /Your balance: Rs 300/);
    // The Telegram customer moves to a new number: the old one (and its WhatsApp chat) is not theirs.
    await tg.register("9779800021502");
    // Past the 30 s this process trusts what it read of a link (bot/person.ts KNOWN_MS): a link
    // read before the move, cached, must not be what keeps the chat from the account.
    const realNow = Date.now;
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + 31_000);
    try {
      await wa.say("balance", /Your balance: Rs 0/);
    } finally {
      vi.mocked(Date.now).mockRestore();
    }
    expect(await availableOf(ts, 21_501)).toBe(30_000);
  });
});

describe("a code that cannot be delivered", () => {
  it("says so (the Telegram chat blocked the bot), and joins nothing", async () => {
    const phone = "9779800021401";
    const tg = ts.user(21_401);
    await tg.register(phone);
    tg.emu.users.upsert(tg.id, { first_name: "User", blocked: true });
    const wa = waCustomer(ts, phone, "Holder");
    await wa.say("link", /could not be sent to that Telegram chat/);
    expect(await ts.system.deps.accounts.links.linkOf(waPerson(phone))).toBeNull();
  });
});

describe("findings 4 and 5: who may be joined", () => {
  it("an agent sharing a WhatsApp-owned number stays an agent (told it was not joined)", async () => {
    const phone = "9779800021201";
    await waCustomer(ts, phone, "Agent as customer").say("hi", /Namaste/);
    const agent = ts.user(AGENT);
    await shareContact(agent, phone, /An agent's or an admin's chat is not joined/);
    await agent.say("/cashin", /customer's phone number/);
    expect(codesTo(phone)).toEqual([]);
  });

  it("money held for an order under way blocks the join", async () => {
    const phone = "9779800021301";
    await waCustomer(ts, phone, "Owner").say("hi", /Namaste/);
    const id = 21_301;
    await ts.system.ledger.transfer({
      id: "s21-held-credit",
      debit: account.merchant.funding,
      credit: account.customer(id),
      amountPaisa: 50_000,
      kind: "credit",
    });
    const held = await ts.system.ledger.hold({
      id: "order:s21-held",
      debit: account.customer(id),
      credit: account.merchant.sales,
      amountPaisa: 50_000,
      reference: "s21-held",
    });
    expect(held.ok).toBe(true);
    expect(await availableOf(ts, id)).toBe(0);
    await shareContact(ts.user(id), phone, /has an account of its own/);
    expect(codesTo(phone)).toEqual([]);
  });
});
