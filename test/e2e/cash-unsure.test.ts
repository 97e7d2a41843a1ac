import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { REDIS_URL, useTestSystem } from "../support/system.ts";

/**
 * A cash-in or a credit booked, then a failure before the flow could say so (s21 review, finding
 * 3): here the receipt write fails in Redis itself (the receipts hash is made a string, so HSETNX
 * answers WRONGTYPE, as a write to a failed-over or timed-out {accounts} would fail). The
 * conversation used to be dropped with "Something went wrong… /history", the agent sent /cashin
 * again under a new id, the customer was credited twice, and the first booking had no receipt,
 * so neither /reverse nor the back office could reverse it ("unknown").
 */

const AGENT = 4890;
const ADMIN = 4891;
/** Admins of their own chats: one admin's many messages in a row would meet the flood limit. */
const ADMIN_B = 4892;
const ADMIN_C = 4893;

describe("a booking followed by a failure", () => {
  const ts = useTestSystem({
    redis: true,
    env: {
      ACCESS_MODE: "prepaid",
      AGENT_IDS: String(AGENT),
      ADMIN_IDS: [ADMIN, ADMIN_B, ADMIN_C].join(","),
    },
  });
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(() => redis.disconnect());
  const receipts = () => keyspace(ts.prefix).accountReceipts;
  /** The receipt write fails from now on (WRONGTYPE), until `heal`. */
  const breakReceipts = () => redis.set(receipts(), "not a hash");
  /** The fault is gone, and so is what was written before it: the lost write stays lost. */
  const heal = () => redis.del(receipts());

  async function adminCredits(rupees: string, by = ADMIN) {
    const admin = ts.user(by);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say(rupees, /Credit agent \d+ with/);
    await admin.tap("✅ Confirm", /credited with/);
  }

  /** The agent's cash-in up to its confirm step; the receipt id it shows. */
  async function cashInToConfirm(phone: string, rupees: string) {
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone, /How much cash/);
    const confirm = await agent.say(rupees, /Add .* to the balance of/);
    return /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
  }

  const cashInsOf = async (customer: number) =>
    (await ts.system.ledger.journal()).entries.filter(
      (e) => e.kind === "cash_in" && e.credit === account.customer(customer),
    );

  it("says it is not known whether it was booked, and Check books nothing more", async () => {
    const customer = ts.user(4801);
    await customer.register("9779800004801");
    await adminCredits("1000");
    const id = await cashInToConfirm("9800004801", "500");
    await breakReceipts();
    const agent = ts.user(AGENT);
    const unsure = await agent.tap("✅ Confirm", /Not known whether receipt/);
    expect(unsure.text).toContain(id);
    expect(unsure.text).toContain("Do not send /cashin again for the same money");
    // Check books when nothing was booked: the words say so, not merely "ask again".
    expect(unsure.text).toContain("books it now if it was not booked (never twice)");
    expect(agent.botTexts().filter((t) => /went wrong/i.test(t))).toEqual([]);

    await heal();
    const done = await agent.tap("🔁 Check", /Cash-in done: Rs 500/);
    expect(done.text).toContain("Your balance: Rs 500");
    expect(done.text).toContain(id);
    await customer.waitFor(/Rs 500 was added to your balance/);
    expect(await cashInsOf(4801)).toHaveLength(1);
    const balance = await ts.system.ledger.balance(account.customer(4801));
    expect(balance.availablePaisa).toBe(50_000);
    // Its receipt is kept now: the reversal names the agent who booked it.
    expect(await ts.system.deps.accounts.receipt(id)).toMatchObject({ by: AGENT, kind: "cash_in" });
    await expectBooksBalanced(ts.system.ledger);
  });

  it("a booking left unsure is reversed once from the chat, its receipt rebuilt from the books", async () => {
    const customer = ts.user(4802);
    await customer.register("9779800004802");
    await adminCredits("300");
    const id = await cashInToConfirm("9800004802", "200");
    await breakReceipts();
    const agent = ts.user(AGENT);
    await agent.tap("✅ Confirm", /Not known whether receipt/);
    await heal();
    // The agent stops there: nothing says "nothing was moved".
    const left = await agent.say("/cancel", /may have been booked already/);
    expect(left.text).not.toMatch(/Nothing was moved/);

    const admin = ts.user(ADMIN);
    await admin.say(`/reverse ${id}`, /Why is it reversed/);
    await admin.say("booked while redis failed", /Reverse receipt/);
    await admin.tap("✅ Confirm", /Reversed: Rs 200 back/);
    const agentNotice = await agent.waitFor(new RegExp(`Your cash-in ${id} of Rs 200`));
    expect(agentNotice.text).toContain("to +977 9800004802");
    await customer.waitFor(/The merchant reversed Rs 200 of receipt/);
    expect((await ts.system.ledger.balance(account.customer(4802))).availablePaisa).toBe(0);
    await admin.say(`/reverse ${id}`, /was already reversed/);
    const reversals = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.kind === "reversal" && e.reference === id,
    );
    expect(reversals).toHaveLength(1);
    await expectBooksBalanced(ts.system.ledger);
  });

  it("the back office's Reverse… of a booking whose receipt was lost works", async () => {
    const customer = ts.user(4803);
    await customer.register("9779800004803");
    await adminCredits("300");
    const id = await cashInToConfirm("9800004803", "150");
    await breakReceipts();
    await ts.user(AGENT).tap("✅ Confirm", /Not known whether receipt/);
    await heal();
    await ts.user(AGENT).say("/cancel", /may have been booked already/);

    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text) ?? "http://x/").pathname)).status).toBe(303);
    expect(await (await c.get("/dashboard/cash-ins")).text()).toContain(id);
    const form = await c.get(`/dashboard/cash-ins/reverse?id=${id}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Rs 150");
    const body = new URLSearchParams({ id, reason: "receipt lost" }).toString();
    const posted = await c.post("/dashboard/cash-ins/reverse", {}, body);
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Reversed.");
    expect((await ts.system.ledger.balance(account.customer(4803))).availablePaisa).toBe(0);
    await expectBooksBalanced(ts.system.ledger);
  });

  it("leaving a booking left unsure says it may have been booked, not that nothing was charged", async () => {
    const customer = ts.user(4804);
    await customer.register("9779800004804");
    await adminCredits("100");
    await cashInToConfirm("9800004804", "50");
    await breakReceipts();
    const agent = ts.user(AGENT);
    await agent.tap("✅ Confirm", /Not known whether receipt/);
    await heal();
    await agent.say("/cashin", /Leave\? The receipt above may have been booked already/);
    await agent.tap("🚪 Leave", /customer's phone number/);
    const texts = agent.botTexts();
    expect(texts.some((t) => /^Stopped\. The receipt above may have been booked/.test(t))).toBe(
      true,
    );
    expect(texts.filter((t) => /Nothing was (charged|moved)/.test(t))).toEqual([]);
    await agent.say("/cancel", /Cash-in cancelled/);
  });

  it("a cash-in whose notice mark cannot be written tells the agent, and never pushes the customer a second 'added'", async () => {
    const customer = ts.user(4806);
    await customer.register("9779800004806");
    await adminCredits("100", ADMIN_B);
    await cashInToConfirm("9800004806", "60");
    // The told-once marks fail (WRONGTYPE): whether the customer was told cannot be known, and a
    // push now could be the second "Rs 60 was added", which reads as Rs 120.
    const notices = keyspace(ts.prefix).accountNotices;
    await redis.set(notices, "not a hash");
    const agent = ts.user(AGENT);
    try {
      await agent.tap("✅ Confirm", /Cash-in done: Rs 60/);
      // The agent's chat is handled in order: this reply comes after the Confirm's push, if any.
      await agent.say("/balance", /balance/i);
    } finally {
      await redis.del(notices);
    }
    expect(customer.botTexts().filter((t) => /was added to your balance/.test(t))).toEqual([]);
    expect((await ts.system.ledger.balance(account.customer(4806))).availablePaisa).toBe(6_000);
  });

  it("an admin's credit followed by a failure is checked under the same id: credited once", async () => {
    const admin = ts.user(ADMIN);
    const before = (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("700", /Credit agent \d+ with/);
    await breakReceipts();
    const unsure = await admin.tap("✅ Confirm", /Not known whether receipt credit-/);
    expect(unsure.text).toContain("Do not send /credit again");
    await heal();
    await admin.tap("🔁 Check", /credited with Rs 700/);
    const after = (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    expect(after - before).toBe(70_000);
  });

  it("an admin's Cancel of an unsure credit sends them to the back office, not to an agent's /balance", async () => {
    const admin = ts.user(ADMIN_B);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("20", /Credit agent \d+ with/);
    await breakReceipts();
    try {
      await admin.tap("✅ Confirm", /Not known whether receipt credit-/);
    } finally {
      await heal();
    }
    const stopped = await admin.say("/cancel", /may have been booked already/);
    expect(stopped.text).toContain("look it up in the back office");
    expect(stopped.text).not.toContain("/balance");
  });
  it("Check is not offered forever: after five tries without an answer it stops with the truth", async () => {
    const admin = ts.user(ADMIN_C);
    const before = (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("40", /Credit agent \d+ with/);
    await breakReceipts();
    try {
      await admin.tap("✅ Confirm", /Not known whether receipt credit-/);
      for (let i = 0; i < 3; i++) await admin.tap("🔁 Check", /Not known whether receipt credit-/);
      const last = await admin.tap("🔁 Check", /Still not known whether receipt credit-/);
      expect(last.text).toContain("in 5 tries");
      expect(last.text).toContain("Do not send /credit again");
      // Both outcomes are worded: booked (nothing more) and not booked (send it again then).
      expect(last.text).toContain("if it was not, send /credit again then");
    } finally {
      await heal();
    }
    // The flow ended: /credit starts afresh, with no "Leave?" of a flow still waiting.
    await admin.say("/credit", /Credit which agent/);
    await admin.say("/cancel", /cancelled/i);
    const after = (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    expect(after - before).toBe(4_000);
  });
});

describe("a booking left unsure until the idle time", () => {
  const ts = useTestSystem({
    redis: true,
    env: {
      ACCESS_MODE: "prepaid",
      AGENT_IDS: String(AGENT),
      ADMIN_IDS: String(ADMIN),
      CONVERSATION_IDLE_MS: "5000",
    },
  });

  it("the idle notice says it may have been booked, not that nothing was charged", async () => {
    const redis = new Redis(REDIS_URL);
    try {
      await ts.user(4805).register("9779800004805");
      const admin = ts.user(ADMIN);
      await admin.say("/credit", /Credit which agent/);
      await admin.tap(String(AGENT), /How much did agent/);
      await admin.say("100", /Credit agent \d+ with/);
      await admin.tap("✅ Confirm", /credited with/);
      const agent = ts.user(AGENT);
      await agent.say("/cashin", /customer's phone number/);
      await agent.say("9800004805", /How much cash/);
      await agent.say("50", /Add .* to the balance of/);
      await redis.set(keyspace(ts.prefix).accountReceipts, "not a hash");
      await agent.tap("✅ Confirm", /Not known whether receipt/);
      await redis.del(keyspace(ts.prefix).accountReceipts);
      // Nothing tapped: the notice comes by itself.
      const notice = await agent.waitFor(
        /^Stopped\. The receipt above may have been booked/,
        20_000,
      );
      expect(notice.text).not.toMatch(/Nothing was charged|start again/);
    } finally {
      redis.disconnect();
    }
  });
});

describe("a cash-in whose receipt write keeps failing", () => {
  // Its own system and agent: the tries below are many messages in a row (the flood limit).
  const AGENT_D = 4894;
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT_D), ADMIN_IDS: String(ADMIN) },
  });

  // The service answers such a booking as not known (test/accounts/receipt-lost.test.ts), never
  // NotBookedError: here the words the agent reads for it. Never "❌ Not booked" (that says
  // nothing was moved, and the customer was credited), and the last try words both outcomes.
  it("is never said to be not booked: the last try says what to do if it was, and if it was not", async () => {
    const redis = new Redis(REDIS_URL);
    const receipts = keyspace(ts.prefix).accountReceipts;
    try {
      await ts.user(4807).register("9779800004807");
      const admin = ts.user(ADMIN);
      await admin.say("/credit", /Credit which agent/);
      await admin.tap(String(AGENT_D), /How much did agent/);
      await admin.say("100", /Credit agent \d+ with/);
      await admin.tap("✅ Confirm", /credited with/);
      const agent = ts.user(AGENT_D);
      await agent.say("/cashin", /customer's phone number/);
      await agent.say("9800004807", /How much cash/);
      const confirm = await agent.say("30", /Add .* to the balance of/);
      const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirm.text)?.[1] ?? "";
      await redis.set(receipts, "not a hash");
      await agent.tap("✅ Confirm", /Not known whether receipt cashin-/);
      for (let i = 0; i < 3; i++) await agent.tap("🔁 Check", /Not known whether receipt cashin-/);
      const last = await agent.tap("🔁 Check", /Still not known whether receipt cashin-/);
      expect(last.text).toBe(
        `⚠️ Still not known whether receipt ${id} was booked: the books did not answer in 5 tries, ` +
          "so this stops here. Do not send /cashin again for the same money yet: once the books " +
          `answer, an admin looks up ${id} in the back office. If it was booked, the money is ` +
          "there and nothing more is needed; if it was not, send /cashin again then.",
      );
      expect(agent.botTexts().filter((t) => /^❌ Not booked|nothing was moved/.test(t))).toEqual(
        [],
      );
      // It was booked, once: the words above are the truth, "not booked" would not be.
      expect((await ts.system.ledger.balance(account.customer(4807))).availablePaisa).toBe(3_000);
    } finally {
      await redis.del(receipts);
      redis.disconnect();
    }
  });
});
