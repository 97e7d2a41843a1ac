import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The back office's money actions as `npm start` wires them (local mode, on memory and on Redis):
 * the playground's admin credits the playground's agent with /credit in the chat, then reverses
 * that credit in the browser; the reversal is the chat's own (the receipt `rev-<id>` that /reverse
 * would find), the agent's balance is back, the books balance. The alerts, held top-ups and price
 * pages answer over the system's own stores.
 */

const ADMIN = 3001;
const AGENT = 2001;

describe.each([
  ["memory", false],
  ["redis", true],
])("the back office's actions wired (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("a credit made in the chat is reversed in the back office, once", async () => {
    const admin = ts.user(ADMIN);
    const agentBefore = (await ts.system.ledger.balance(account.agent(AGENT))).postedPaisa;
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("150", /Credit agent \d+ with/);
    const done = await admin.tap("✅ Confirm", /credited with/);
    const id = /Receipt: (credit-[0-9a-f]+)/.exec(done.text)?.[1];
    expect(id).toBeDefined();
    expect((await ts.system.ledger.balance(account.agent(AGENT))).postedPaisa).toBe(
      agentBefore + 15_000,
    );

    const reply = await admin.say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    expect(await (await c.get("/dashboard/cash-ins")).text()).toContain(id!);
    expect((await c.get(`/dashboard/cash-ins/reverse?id=${id}`)).status).toBe(200);
    const body = new URLSearchParams({ id: id!, reason: "credited the wrong agent" }).toString();
    expect((await c.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(200);
    expect((await c.post("/dashboard/cash-ins/reverse", {}, body)).status).toBe(200);
    expect((await ts.system.ledger.balance(account.agent(AGENT))).postedPaisa).toBe(agentBefore);
    const revs = (await ts.system.ledger.journal()).entries.filter((e) => e.id === `rev-${id}`);
    expect(revs).toHaveLength(1);
    await expectBooksBalanced(ts.system.ledger);
    // The agent is told once in the chat, with /reverse's own words.
    await waitUntil(
      () =>
        ts
          .user(AGENT)
          .botTexts()
          .some((t) => t.includes(`receipt ${id}: credited the wrong agent`)),
      "the agent told of the reversal",
    );
    expect(
      ts
        .user(AGENT)
        .botTexts()
        .filter((t) => t.includes(`receipt ${id}`)),
    ).toHaveLength(1);

    for (const page of [
      "/dashboard/alerts",
      "/dashboard/topups",
      "/dashboard/prices",
      "/dashboard/books/chart",
    ]) {
      expect([page, (await c.get(page)).status]).toEqual([page, 200]);
    }
  });
});
