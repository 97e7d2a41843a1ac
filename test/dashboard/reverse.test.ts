import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import {
  type ActionsHarness,
  ADMIN,
  AGENT,
  balancesOf,
  client,
  expectBooksBalanced,
  form,
  startActions,
} from "../support/dashboard-actions.ts";

/**
 * Cash-in reversals from the browser, over real Redis and HTTP: the confirm page, the POST that
 * reverses through the accounts service the chat's /reverse uses (a new transfer with a reason),
 * once however often it is posted, audited with both balances before and after; both statements
 * change and the books still sum to zero. Agents, strangers and other origins are refused.
 */

let h: ActionsHarness;
beforeAll(async () => {
  h = await startActions();
});
afterAll(async () => {
  await h?.close();
});

const AGENT_B = 2002;

/** What the reversal of `id` told (its receipt id, whole, in the text). */
const toldOf = (id: string) => h.told.filter((t) => new RegExp(` ${id}\\b`).test(t.text));

const reversalsOf = async (id: string) =>
  (await h.ledger.journal()).entries.filter((e) => e.id === `rev-${id}`);

describe("reversing a cash-in", () => {
  it("lists the cash-in and shows a confirm page with its people, amount and a required reason", async () => {
    const id = await h.cashIn(AGENT, 5101, 25_000);
    const c = await h.login(ADMIN);
    const list = await c.get("/dashboard/cash-ins");
    expect(list.status).toBe(200);
    const listed = await list.text();
    expect(listed).toContain(id);
    expect(listed).toContain(`/dashboard/cash-ins/reverse?id=${id}`);
    const res = await c.get(`/dashboard/cash-ins/reverse?id=${id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("customer 5101");
    expect(text).toContain(`agent ${AGENT}`);
    expect(text).toContain("Rs 250.00");
    expect(text).toContain(`rev-${id}`);
    expect(text).toMatch(/<textarea name="reason"[^>]*required/);
    expect(text).toContain('method="post" action="/dashboard/cash-ins/reverse"');
    // Showing the page moved nothing.
    expect(await reversalsOf(id)).toHaveLength(0);
  });

  it("reverses once with a reason: both balances change by a new transfer, audited before and after", async () => {
    const id = await h.cashIn(AGENT_B, 5102, 40_000);
    const before = await balancesOf(h.ledger, 5102, AGENT_B);
    expect(before).toEqual({ customer: 40_000, agent: 0 });
    const c = await h.login(ADMIN);
    const body = form({ id, reason: "cash  was counterfeit" });
    // A double submit: both POSTs at once, then a third.
    const [a, b] = await Promise.all([
      c.post("/dashboard/cash-ins/reverse", {}, body),
      c.post("/dashboard/cash-ins/reverse", {}, body),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const again = await c.post("/dashboard/cash-ins/reverse", {}, body);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("this confirm booked nothing more");

    expect(await balancesOf(h.ledger, 5102, AGENT_B)).toEqual({ customer: 0, agent: 40_000 });
    const revs = await reversalsOf(id);
    expect(revs).toHaveLength(1);
    expect(revs[0]).toMatchObject({
      kind: "reversal",
      debit: account.customer(5102),
      credit: account.agent(AGENT_B),
      amountPaisa: 40_000,
      reason: "cash was counterfeit",
      reference: id,
    });
    expect(await h.accounts.receipt(`rev-${id}`)).toMatchObject({ by: ADMIN, reverses: id });
    // The customer and the agent are told once each, in /reverse's words, with their balances after.
    expect(toldOf(id)).toEqual([
      {
        chatId: 5102,
        text: `↩️ The merchant reversed Rs 400 of receipt ${id}: cash was counterfeit\nYour balance: Rs 0`,
      },
      {
        chatId: AGENT_B,
        text: `↩️ Your cash-in ${id} of Rs 400 to 5102 was reversed by the merchant: cash was counterfeit\nRs 400 is back in your agent balance: Rs 400`,
      },
    ]);

    const entries = (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 100))
      .map((l) => JSON.parse(l))
      .filter((e) => e.action === "reverse" && e.detail.includes(id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      userId: ADMIN,
      role: "admin",
      ip: "127.0.0.1",
      before: { "customer:5102": 40_000, [`agent:${AGENT_B}`]: 0 },
      after: { "customer:5102": 0, [`agent:${AGENT_B}`]: 40_000 },
    });
    const audit = await (await c.get("/dashboard/audit")).text();
    expect(audit).toContain(`rev-${id}`);

    const listed = await (await c.get("/dashboard/cash-ins")).text();
    expect(listed).toMatch(/reversed .* by admin 3001/);
    await expectBooksBalanced(h.ledger);
  });

  it("a reversal whose POST failed after booking is audited on the retry, which says it is reversed", async () => {
    const id = await h.cashIn(AGENT, 5107, 12_000);
    // The state a POST leaves when the books took the reversal and its receipt write (or a balance
    // read) then failed: booked, no receipt, no audit row, a 500 (s21 review, finding 7).
    const booked = await h.ledger.transfer({
      id: `rev-${id}`,
      kind: "reversal",
      debit: account.customer(5107),
      credit: account.agent(AGENT),
      amountPaisa: 12_000,
      reference: id,
      reason: "typed the wrong number",
    });
    expect(booked.ok).toBe(true);
    const c = await h.login(ADMIN);
    const retry = await c.post(
      "/dashboard/cash-ins/reverse",
      {},
      form({ id, reason: "typed the wrong number" }),
    );
    expect(retry.status).toBe(200);
    const text = await retry.text();
    expect(text).toContain("Reversed: it is in the books once");
    expect(text).not.toContain("Already reversed");
    const rows = (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 100))
      .map((l) => JSON.parse(l))
      .filter((e) => typeof e.detail === "string" && e.detail.includes(`rev-${id}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "reverse_found", userId: ADMIN });
    expect(rows[0].detail).toContain("this POST booked nothing");
    expect(await reversalsOf(id)).toHaveLength(1);
  });

  it("tells the agent even when the customer blocked the bot", async () => {
    const id = await h.cashIn(AGENT, 5106, 30_000);
    h.unreachable.add(5106);
    const c = await h.login(ADMIN);
    const res = await c.post(
      "/dashboard/cash-ins/reverse",
      {},
      form({ id, reason: "wrong customer" }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Reversed.");
    expect(toldOf(id).map((t) => t.chatId)).toEqual([AGENT]);
    expect(toldOf(id)[0]?.text).toContain(`Your cash-in ${id} of Rs 300 to 5106 was reversed`);
  });

  it("does not tell the agent again when the chat's /reverse already told them", async () => {
    const id = await h.cashIn(AGENT, 5107, 20_000);
    // The chat's /reverse claims the agent's notice the same way before it sends.
    expect(await h.accounts.firstNotice(`rev-${id}`, "agent")).toBe(true);
    const c = await h.login(ADMIN);
    const res = await c.post("/dashboard/cash-ins/reverse", {}, form({ id, reason: "chat told" }));
    expect(res.status).toBe(200);
    expect(toldOf(id).map((t) => t.chatId)).toEqual([5107]);
  });

  it("asks again for a missing reason, escaped, and moves nothing", async () => {
    const id = await h.cashIn(AGENT, 5103, 10_000);
    const c = await h.login(ADMIN);
    const res = await c.post("/dashboard/cash-ins/reverse", {}, form({ id, reason: " <b" }));
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("the reason takes 3 to 200 characters");
    expect(text).toContain("&lt;b</textarea>");
    expect(await reversalsOf(id)).toHaveLength(0);
    const bad = await c.get(`/dashboard/cash-ins/reverse?id=${encodeURIComponent("<x>")}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain("<x>");
    expect((await c.get("/dashboard/cash-ins/reverse?id=nope-123")).status).toBe(404);
    expect((await c.get("/dashboard/cash-ins?days=99")).status).toBe(400);
  });

  it("refuses when the customer has spent the money, booking nothing", async () => {
    const id = await h.cashIn(AGENT, 5104, 10_000);
    const spent = await h.ledger.transfer({
      id: "spend-5104",
      debit: account.customer(5104),
      credit: account.merchant.sales,
      amountPaisa: 9_000,
      kind: "adjustment",
      reason: "test spend",
    });
    expect(spent.ok).toBe(true);
    const c = await h.login(ADMIN);
    const res = await c.post(
      "/dashboard/cash-ins/reverse",
      {},
      form({ id, reason: "wrong customer" }),
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Rs 10.00");
    expect(await reversalsOf(id)).toHaveLength(0);
    await expectBooksBalanced(h.ledger);
  });

  it("shows what the customer may spend and what is held, as the reversal is judged (s21, 7)", async () => {
    const id = await h.cashIn(AGENT, 5118, 50_000);
    // The whole Rs 500 held for an order under way: posted Rs 500, available Rs 0.
    const held = await h.ledger.hold({
      id: "order-5118",
      debit: account.customer(5118),
      credit: account.merchant.sales,
      amountPaisa: 50_000,
    });
    expect(held.ok).toBe(true);
    const c = await h.login(ADMIN);
    const page = await (await c.get(`/dashboard/cash-ins/reverse?id=${id}`)).text();
    expect(page).toContain(
      "customer 5118, available now Rs 0.00, Rs 500.00 more held for orders under way",
    );
    expect(page).not.toContain("balance now Rs 500.00");
    const res = await c.post(
      "/dashboard/cash-ins/reverse",
      {},
      form({ id, reason: "wrong customer" }),
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("the credited side has Rs 0.00");
    expect(await reversalsOf(id)).toHaveLength(0);
  });

  it("refuses an agent (403), no session (401) and another origin (403)", async () => {
    const id = await h.cashIn(AGENT, 5105, 10_000);
    const body = form({ id, reason: "not allowed" });
    const agent = await h.login(AGENT);
    expect((await agent.get("/dashboard/cash-ins")).status).toBe(403);
    expect((await agent.get(`/dashboard/cash-ins/reverse?id=${id}`)).status).toBe(403);
    expect((await agent.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(403);
    const stranger = client(h.url);
    expect((await stranger.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(401);
    const admin = await h.login(ADMIN);
    const foreign = await admin.post(
      "/dashboard/cash-ins/reverse",
      { origin: "https://evil.example" },
      body,
    );
    expect(foreign.status).toBe(403);
    expect(await reversalsOf(id)).toHaveLength(0);
    expect(await balancesOf(h.ledger, 5105, AGENT)).toMatchObject({ customer: 10_000 });
  });
});
