import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOAT_OPENING_ID } from "../../src/books/index.ts";
import { account } from "../../src/ledger/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { mobileInput } from "../support/orders.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Who pays (issue 15), end to end as chats: registration by one's own contact, the prepaid and
 * staff gates (nobody unregistered or unlisted spends anything), an agent's cash-in by phone
 * number from the agent's balance (once, however often Confirm is pressed), an admin's credit of
 * an agent, and an admin's reversal (a new transfer, once; refused when the money is spent).
 * On the memory stores and on Redis.
 */

const AGENT = 4501;
const ADMIN = 4502;
/** Another agent and admin (each user's flood limit counts only their own messages). */
const AGENT2 = 4503;
const ADMIN2 = 4504;

describe.each([
  ["memory", false],
  ["redis", true],
])("prepaid accounts, end to end (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis,
      env: {
        ACCESS_MODE: "prepaid",
        AGENT_IDS: `${AGENT},${AGENT2}`,
        ADMIN_IDS: `${ADMIN},${ADMIN2}`,
      },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const ledger = () => ts.system.ledger;
  const available = async (acc: Parameters<ReturnType<typeof ledger>["balance"]>[0]) =>
    (await ledger().balance(acc)).availablePaisa;
  const touching = async (acc: string) =>
    (await ledger().journal()).entries.filter((e) => e.debit === acc || e.credit === acc);

  /** The admin credits the agent through /credit; resolves with the receipt id. */
  async function adminCredits(rupees: string, agent = AGENT, by = ADMIN): Promise<string> {
    const admin = ts.user(by);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(agent), /How much did agent/);
    await admin.say(rupees, /Credit agent \d+ with/);
    const done = await admin.tap("✅ Confirm", /credited with/);
    return /Receipt: (credit-[0-9a-f]+)/.exec(done.text)?.[1] ?? "";
  }

  /** The agent cashes in `rupees` for `phone` up to the confirmation. */
  async function agentToConfirm(phone: string, rupees: string, agentId = AGENT) {
    const agent = ts.user(agentId);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone, /How much cash/);
    const confirm = await agent.say(rupees, /Add .* to the balance of/);
    const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
    return { agent, confirm, id };
  }

  it("an unregistered user is asked to register and cannot spend anything", async () => {
    const u = ts.user(4511);
    const start = await u.say("/start", /register with your own phone number/);
    expect(start.replyKeyboard).toEqual([["📱 Share my phone number"]]);
    await u.say("/recharge", /Please register first/);
    // A menu button pressed anyway (an old message, a forged press) is refused the same way.
    u.emu.pressButton(4511, start.id, "m:mobile", { force: true });
    await waitUntil(
      () => u.botTexts().filter((t) => t.includes("Please register first")).length >= 2,
      "the menu button refused",
    );
    expect(u.botTexts().some((t) => t.includes("Which mobile number"))).toBe(false);
    expect(await ts.system.orders.listByUser(4511, 10)).toEqual([]);
    expect(await touching("customer:4511")).toEqual([]);
  });

  it("a number that moved to another account mid-flow leaves this account its own balance to spend", async () => {
    const u = ts.user(4518);
    await u.register("9779800004518");
    await u.credit(50_000);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841234518", /How much/);
    // The number is recycled: its new owner shares it. This account stays registered (registered
    // once: accounts/access-flags.ts) and goes on with its own money; the number is the other's.
    await ts.user(4519).register("9779800004518");
    await u.say("100", /Please check your order/);
    expect(await ts.system.deps.accounts?.userByPhone("9779800004518" as never)).toBe(4519);
    expect(await available(account.customer(4518))).toBe(50_000);
    expect(await available(account.customer(4519))).toBe(0);
  });

  it("registration takes only the sender's own contact", async () => {
    const u = ts.user(4512);
    // Someone else's card, and a card without a Telegram account: both refused.
    let sent = u.emu.sendContact(4512, { phoneNumber: "+9779800004599", userId: 4599 });
    await u.emu.waitForBotMessage(4512, /not your own contact/, { afterId: sent.message_id });
    sent = u.emu.sendContact(4512, { phoneNumber: "+9779800004599", userId: null });
    await u.emu.waitForBotMessage(4512, /not your own contact/, { afterId: sent.message_id });
    expect(await ts.system.deps.accounts?.userByPhone("9779800004599" as never)).toBeNull();
    await u.say("/recharge", /Please register first/);
    // Their own: registered, and the keyboard goes.
    const done = await u.register("9779800004512");
    expect(done.text).toContain("Registered with +977 9800004512");
    expect(await ts.system.deps.accounts?.userByPhone("9779800004512" as never)).toBe(4512);
    await u.say("/recharge", /What would you like to pay/);
    // In prepaid mode /help tells a customer about /balance and /register.
    const help = await u.say("/help", /What I can do/);
    expect(help.text).toContain("/register – register with your own phone number");
  });

  it("an admin credits an agent; the agent cashes in for a customer by phone, once", async () => {
    const customer = ts.user(4513);
    await customer.register("9779800004513");
    const credit = await adminCredits("1000");
    expect(credit).toMatch(/^credit-/);
    await ts.user(AGENT).waitFor(/The merchant credited your agent balance with Rs 1,000/);
    expect(await available(account.agent(AGENT))).toBe(100_000);

    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    // Every step re-asks with a reason.
    await agent.say("98-not-a-number", /That is not a phone number/);
    await agent.say("9800009999", /Nobody is registered with \+977 9800009999/);
    await agent.say("9800004513", /How much cash/);
    await agent.say("1500", /at most Rs 1,000|Rs 1,000/);
    const confirm = await agent.say("400", /Add Rs 400 to the balance of \+977 9800004513/);
    expect(confirm.text).toContain("Your balance after: Rs 600");
    const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
    expect(id).toMatch(/^cashin-/);
    // A double tap (the second press forced: the button may already be gone).
    const data = confirm.inlineKeyboard?.flat().find((b) => b.text === "✅ Confirm")?.callback_data;
    expect(data).toBeDefined();
    agent.emu.pressButton(AGENT, confirm.id, data ?? "");
    agent.emu.pressButton(AGENT, confirm.id, data ?? "", { force: true });
    const done = await agent.waitFor(/Cash-in done: Rs 400 to \+977 9800004513/);
    expect(done.text).toContain("Your balance: Rs 600");
    expect(done.text).toContain(`Receipt: ${id}`);
    const push = await customer.waitFor(/Rs 400 was added to your balance/);
    expect(push.text).toContain("Your balance: Rs 400");
    expect(push.text).toContain(id);

    const cashIns = (await touching("customer:4513")).filter((e) => e.kind === "cash_in");
    expect(cashIns).toHaveLength(1);
    expect(cashIns[0]).toMatchObject({ id, debit: "agent:4501", amountPaisa: 40_000 });
    expect(await available(account.customer(4513))).toBe(40_000);
    expect(await available(account.agent(AGENT))).toBe(60_000);

    // Both sides see it in /balance.
    const mine = await customer.say("/balance", /Your balance: Rs 400/);
    expect(mine.text).toContain("Rs 400 cash paid at a shop");
    expect(mine.text).toContain("+977 9800004513");
    const shop = await agent.say("/balance", /Your agent balance: Rs 600/);
    expect(shop.text).toContain("Cash-ins today: 1, Rs 400 in all.");
    expect(shop.text).toContain("Rs 400 to +977 9800004513");
    await expectBooksBalanced(ledger());
  });

  it("pushes to the customer (and an agent) go in their own language, not the sender's", async () => {
    // A customer whose Telegram is in Nepali registers (their language is kept with the account);
    // another registers in English and then chooses Hindi with /language.
    const nepali = ts.user(4521, { language_code: "ne" });
    const shared = nepali.emu.sendContact(4521, { phoneNumber: "+9779800004521" });
    await nepali.emu.waitForBotMessage(4521, /बाट दर्ता भयो/, { afterId: shared.message_id });
    const hindi = ts.user(4522);
    await hindi.register("9779800004522");
    await hindi.say("/language", /Choose your language/);
    hindi.press("हिन्दी");
    await hindi.waitFor(/भाषा हिंदी कर दी गई/);

    // An English-speaking agent cashes in for both; the agent's own texts stay in English.
    await adminCredits("500", AGENT2, ADMIN2);
    const ids: string[] = [];
    for (const [phone, rupees] of [
      ["9800004521", "100"],
      ["9800004522", "50"],
    ] as const) {
      const { agent, id } = await agentToConfirm(phone, rupees, AGENT2);
      await agent.tap("✅ Confirm", /Cash-in done/);
      ids.push(id);
    }
    const ne = await nepali.waitFor(/तपाईंको मौज्दातमा रु 100 थपियो/);
    expect(ne.text).toContain("तपाईंको मौज्दात: रु 100");
    expect(ne.text).toContain(`रसिद: ${ids[0]}`);
    const hi = await hindi.waitFor(/आपके बैलेंस में रु 50 जोड़े गए/);
    expect(hi.text).toContain("आपका बैलेंस: रु 50");

    // An English admin reverses the Nepali customer's cash-in: the notice is in Nepali.
    const admin = ts.user(ADMIN2);
    await admin.say(`/reverse ${ids[0]}`, /Why is it reversed/);
    await admin.say("wrong customer", /Reverse receipt/);
    await admin.tap("✅ Confirm", /Reversed: Rs 100 back/);
    const notice = await nepali.waitFor(/व्यापारीले रसिद .* को रु 100 फिर्ता लिनुभयो: wrong customer/);
    expect(notice.text).toContain("तपाईंको मौज्दात: रु 0");

    // The agent chooses Hindi: the admin's next credit receipt comes in Hindi.
    const agent2 = ts.user(AGENT2);
    await agent2.say("/language", /Choose your language/);
    agent2.press("हिन्दी");
    await agent2.waitFor(/भाषा हिंदी कर दी गई/);
    await adminCredits("200", AGENT2, ADMIN2);
    const credited = await agent2.waitFor(/व्यापारी ने आपके एजेंट बैलेंस में रु 200 जोड़े/);
    expect(credited.text).toContain("आपका बैलेंस: रु 650");
    await expectBooksBalanced(ledger());
  });

  it("an admin reverses a cash-in once, with a reason; a second reversal changes nothing", async () => {
    const customer = ts.user(4514);
    await customer.register("9779800004514");
    await adminCredits("500");
    const { agent, id } = await agentToConfirm("9800004514", "300");
    await agent.tap("✅ Confirm", /Cash-in done/);
    const agentBefore = await available(account.agent(AGENT));

    const admin = ts.user(ADMIN);
    await admin.say(`/reverse ${id}`, /Receipt cashin-.*Rs 300 from agent 4501 to customer/);
    await admin.waitFor(/Why is it reversed/);
    await admin.say("x", /reason of 3 to 200 characters/);
    await admin.say("typed the wrong customer", /Reverse receipt cashin-/);
    const done = await admin.tap("✅ Confirm", /Reversed: Rs 300 back/);
    expect(done.text).toContain(`rev-${id}`);
    const notice = await customer.waitFor(/The merchant reversed Rs 300 of receipt/);
    expect(notice.text).toContain("typed the wrong customer");
    expect(notice.text).toContain("Your balance: Rs 0");
    expect(await available(account.customer(4514))).toBe(0);
    expect(await available(account.agent(AGENT))).toBe(agentBefore + 30_000);

    // Again, by id: told it was reversed; nothing moves.
    await admin.say(`/reverse ${id}`, /was already reversed/);
    // A reversal cannot be reversed; an unknown receipt is asked again.
    await admin.say(`/reverse rev-${id}`, /is itself a reversal/);
    await admin.say("cashin-000000000000", /There is no cash-in or credit with receipt/);
    // A reversal says what was cancelled (issue 30: its own words, like /cashin).
    await admin.say("/cancel", /Reversal cancelled/);
    const reversals = (await ledger().journal()).entries.filter((e) => e.kind === "reversal");
    expect(reversals.filter((e) => e.reference === id)).toHaveLength(1);
    expect(reversals.find((e) => e.reference === id)).toMatchObject({
      debit: "customer:4514",
      credit: "agent:4501",
      amountPaisa: 30_000,
      reason: "typed the wrong customer",
    });
    // The original entry is untouched: a reversal is a new transfer, never an edit.
    expect((await touching("customer:4514")).find((e) => e.id === id)?.amountPaisa).toBe(30_000);
    await expectBooksBalanced(ledger());
  });

  it("refuses a reversal the customer's balance no longer covers, and says so", async () => {
    const customer = ts.user(4515);
    await customer.register("9779800004515");
    await adminCredits("500");
    const { agent, id } = await agentToConfirm("9800004515", "200");
    await agent.tap("✅ Confirm", /Cash-in done/);
    // The customer spends most of it (Rs 150 of a mobile top-up, held then paid).
    await customer.mobileToConfirm("9841234515", "150");
    const { ref } = await customer.confirmUntil("succeeded");
    expect(ref).not.toBe("");
    expect(await available(account.customer(4515))).toBe(5_000);

    const admin = ts.user(ADMIN);
    await admin.say(`/reverse ${id}`, /Why is it reversed/);
    await admin.say("cash was counterfeit", /Reverse receipt/);
    const refused = await admin.tap("✅ Confirm", /Refused/);
    expect(refused.text).toContain("has Rs 50 left, Rs 150 short of the Rs 200 to reverse");
    expect(refused.text).toContain("Nothing was moved");
    expect((await ledger().journal()).entries.filter((e) => e.reference === id)).toEqual([]);
    expect(await available(account.customer(4515))).toBe(5_000);
    await expectBooksBalanced(ledger());
  });

  it("two concurrent orders of a customer whose balance covers one: exactly one is placed", async () => {
    const u = ts.user(4516);
    await u.register("9779800004516");
    await u.credit(20_000);
    // The chat reaches Confirm with Rs 200 that covers Rs 150 ...
    const confirm = await u.mobileToConfirm("9841234516", "150");
    expect(confirm.text).toContain("Balance after: Rs 50");
    // ... while another order of the same customer (another device, another instance) is placed.
    const other = await ts.system.orders.place(
      mobileInput({ userId: 4516, chatId: 4516, connectionNo: "9841234517", amountPaisa: 10_000 }),
    );
    expect(other.holdId).toBeDefined();
    const short = await u.tap("✅ Confirm", /short/);
    expect(short.text).toContain("Your balance is Rs 100 and this order costs Rs 150: Rs 50 short");
    expect(await ts.system.orders.listByUser(4516, 10)).toHaveLength(1);
    const holds = (await touching("customer:4516")).filter((e) => e.kind === "hold");
    expect(holds).toHaveLength(1);

    // And two places at the same instant: one order, the other refused with its shortfall.
    const twin = ts.user(4517);
    await twin.register("9779800004517");
    await twin.credit(15_000);
    const draft = (key: string) =>
      ts.system.orders.place(
        mobileInput({ idempotencyKey: key, userId: 4517, chatId: 4517, amountPaisa: 10_000 }),
      );
    const both = await Promise.allSettled([draft("twin-a"), draft("twin-b")]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ name: "InsufficientFundsError", shortfallPaisa: 5_000 });
    expect(await ts.system.orders.listByUser(4517, 10)).toHaveLength(1);
    await expectBooksBalanced(ledger());
  });
});

describe("staff mode, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ env: { ACCESS_MODE: "staff", STAFF_IDS: "4601" } });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("an unlisted user is told the bot is private and cannot spend anything", async () => {
    const u: TestUser = ts.user(24_602);
    const start = await u.say("/start", /This bot is private/);
    expect(u.buttons(start)).toEqual([]);
    await u.say("/recharge", /This bot is private/);
    u.emu.pressButton(24_602, start.id, "m:mobile", { force: true });
    await waitUntil(
      () => u.botTexts().filter((t) => t.includes("This bot is private")).length >= 3,
      "the menu button refused",
    );
    expect(await ts.system.orders.listByUser(24_602, 10)).toEqual([]);
    await u.say("/balance", /This bot is private/);
  });

  it("a listed user orders from the merchant's wallet, without a hold", async () => {
    const u = ts.user(4601);
    const confirm = await u.mobileToConfirm("9841234601", "100");
    expect(confirm.text).not.toContain("Balance after");
    const { ref } = await u.confirmUntil("succeeded");
    const order = await ts.system.orders.get(ref);
    expect(order?.holdId).toBeUndefined();
    // No customer's money moves: the books record only the aggregator's debit of the merchant's
    // wallet, paid from the merchant's own funds (besides the opening float the books check at
    // start booked from the aggregator's wallet).
    const entries = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.id !== FLOAT_OPENING_ID,
    );
    expect(entries.map((e) => [e.kind, e.debit, e.credit, e.amountPaisa, e.reference])).toEqual([
      ["float_debit", "merchant:funding", "merchant:float", 10_000, ref],
    ]);
    await u.say("/balance", /Your orders are paid from the merchant's wallet/);
  });
});
