import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BooksView } from "../../dev/playground/web/views.ts";
import { deleteKeys, startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The playground in prepaid mode (the default of `npm start`): the demo users are registered, the
 * customers and the agent start with a demo credit (visible as such in the journal), so a newcomer
 * orders at once and the agent can cash in; the side panel's /books shows balances and journal.
 * On Redis, started twice on one prefix: the demo credit is booked once.
 */

const CUSTOMER = 1001;
const OTHER = 1002;
const AGENT = 2001;

describe("the playground's books (prepaid, Redis)", () => {
  const prefix = `test:${randomBytes(6).toString("hex")}:`;
  let ts: TestSystem;
  beforeAll(async () => {
    const first = await startTestSystem({ redis: true, prefix, env: { ACCESS_MODE: "prepaid" } });
    await first.stop();
    ts = await startTestSystem({ redis: true, prefix, env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts.stop();
    await deleteKeys(prefix);
  });

  const books = async (): Promise<BooksView> => {
    const res = await fetch(`${ts.system.url}/playground/api/books`);
    expect(res.status).toBe(200);
    return (await res.json()) as BooksView;
  };

  it("starts every demo customer and the agent with a demo credit, once", async () => {
    const view = await books();
    const byId = new Map(view.users.map((u) => [u.id, u]));
    expect(byId.get(CUSTOMER)).toMatchObject({ phone: "+9779800001001", available: "Rs 5,000" });
    expect(byId.get(OTHER)).toMatchObject({ phone: "+9779800001002", available: "Rs 5,000" });
    expect(byId.get(AGENT)).toMatchObject({ role: "agent", available: "Rs 20,000" });
    const demo = view.journal.filter((e) => e.kind === "demo credit");
    // The WhatsApp customers (Sita and Hari, their chats' ids) too.
    expect(demo.map((e) => e.credit).sort()).toEqual([
      "agent:2001",
      "customer:1001",
      "customer:1002",
      "customer:8009779841000001",
      "customer:8009779841000002",
    ]);
    expect(demo.every((e) => e.debit === "merchant:funding")).toBe(true);
  });

  it("a demo customer orders at once; the agent cashes in for the other", async () => {
    const u = ts.user(CUSTOMER);
    const confirm = await u.mobileToConfirm("9841231001", "100");
    expect(confirm.text).toContain("Balance after: Rs 4,900");
    await u.confirmUntil("succeeded");

    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800001002", /How much cash/);
    await agent.say("250", /Add Rs 250 to the balance of \+977 9800001002/);
    await agent.tap("✅ Confirm", /Cash-in done/);
    await ts.user(OTHER).waitFor(/Rs 250 was added to your balance/);

    const view = await books();
    const byId = new Map(view.users.map((u) => [u.id, u]));
    expect(byId.get(OTHER)?.available).toBe("Rs 5,250");
    expect(byId.get(AGENT)?.available).toBe("Rs 19,750");
    expect(view.journal[0]).toMatchObject({
      kind: "cash in",
      debit: "agent:2001",
      credit: "customer:1002",
      amount: "Rs 250",
    });
    expect((await ts.system.ledger.check()).ok).toBe(true);
  });

  it("registers a newcomer through the page's contact button (its own contact)", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${ts.system.url}/playground/api${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const u = ts.user(1500);
    const asked = await u.say("/register", /register with your own phone number/);
    const view = await fetch(`${ts.system.url}/playground/api/users/1500/messages`);
    const transcript = (await view.json()) as { contact_buttons: string[] };
    expect(transcript.contact_buttons).toEqual(["📱 Share my phone number"]);
    expect(asked.replyKeyboard).toEqual([["📱 Share my phone number"]]);
    expect((await post("/users/1500/contact", { phone_number: "12" })).status).toBe(400);
    expect((await post("/users/1500/contact", {})).status).toBe(200);
    await u.waitFor(/Registered with \+977 9800001500/);
    expect(await ts.system.deps.accounts?.phoneOf(1500)).toBe("9779800001500");
  });
});
