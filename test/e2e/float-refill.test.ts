import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A refill of the aggregator wallet as `npm start` wires it (local mode with the embedded sandbox
 * aggregator, on memory and on Redis; ADMIN_IDS of two people): the merchant deposits at the
 * aggregator (the sandbox's balance raised), the books check sees the drift; one admin proposes the
 * refill on the back office's books page, the other approves it; one transfer is booked and the
 * next check against the sandbox's balance finds no drift.
 */

const ADMIN = 3001;
const ADMIN_B = 3002;
const REFILL = 1_234_567; // Rs 12,345.67

describe.each([
  ["memory", false],
  ["redis", true],
])("a refill of the aggregator wallet booked in the back office (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis, env: { ADMIN_IDS: `${ADMIN},${ADMIN_B}` } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  async function backOffice(userId: number) {
    const reply = await ts.user(userId).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text) ?? "").pathname)).status).toBe(303);
    return c;
  }

  it("proposed by one admin, approved by the other: the drift closes", async () => {
    await waitUntil(
      async () => (await ts.system.books.report()).lastCheck !== null,
      "the check at start",
    );
    const token = ts.system.config.sandbox.token;
    const sandbox = ts.system.sandbox!;
    // The merchant's bank deposit lands at the aggregator: the books do not know it yet.
    sandbox.setBalance(token, sandbox.balance(token) + REFILL);
    const drifted = await ts.system.books.check([ADMIN]);
    expect(drifted.float.driftPaisa).toBe(REFILL);
    expect(drifted.lastCheck?.verdict).toBe("beyond");

    const maker = await backOffice(ADMIN);
    const books = await (await maker.get("/dashboard/books")).text();
    const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(books)?.[1] ?? "";
    const fields = { key, direction: "refill", amount: "12,345.67", reason: "bank deposit" };
    const proposed = await maker.post(
      "/dashboard/books/float",
      {},
      new URLSearchParams({ ...fields, reference: "UTR0001" }).toString(),
    );
    expect(proposed.status).toBe(200);
    // The other admin is told in the chat that it waits (the notifier's outbox).
    await waitUntil(
      () =>
        ts
          .user(ADMIN_B)
          .botTexts()
          .some((t) => t.includes(`Admin ${ADMIN} proposes a refill of the aggregator wallet`)),
      "the other admin told of the proposal",
    );
    // The maker's own approval is refused: there is another admin.
    const body = new URLSearchParams({ id: key }).toString();
    expect((await maker.post("/dashboard/books/float/approve", {}, body)).status).toBe(409);

    const checker = await backOffice(ADMIN_B);
    expect((await checker.post("/dashboard/books/float/approve", {}, body)).status).toBe(200);
    const booked = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.id === `float-move:${key}`,
    );
    expect(booked).toMatchObject([
      { debit: account.merchant.float, credit: account.merchant.funding, amountPaisa: REFILL },
    ]);
    await expectBooksBalanced(ts.system.ledger);

    const r = await ts.system.books.check([ADMIN]);
    expect(r.lastCheck).toMatchObject({ verdict: "within", driftPaisa: 0 });
    const page = await (await checker.get("/dashboard/books")).text();
    expect(page).toContain(`booked as float-move:${key}`);
    await waitUntil(
      () =>
        ts
          .user(ADMIN)
          .botTexts()
          .some((t) => t.includes(`Admin ${ADMIN_B} approved your refill`)),
      "the proposer told of the approval",
    );
  });
});

describe("the only admin (ADMIN_IDS of one person)", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ env: { ADMIN_IDS: String(ADMIN) } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("approves their own proposal: nobody else could", async () => {
    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text) ?? "").pathname)).status).toBe(303);
    const books = await (await c.get("/dashboard/books")).text();
    const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(books)?.[1] ?? "";
    const fields = { key, direction: "down", amount: "5", reason: "bank charge" };
    expect(
      (await c.post("/dashboard/books/float", {}, new URLSearchParams(fields).toString())).status,
    ).toBe(200);
    const body = new URLSearchParams({ id: key }).toString();
    expect((await c.post("/dashboard/books/float/approve", {}, body)).status).toBe(200);
    const booked = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.id === `float-move:${key}`,
    );
    expect(booked).toMatchObject([{ debit: account.merchant.adjustments, amountPaisa: 500 }]);
  });
});
