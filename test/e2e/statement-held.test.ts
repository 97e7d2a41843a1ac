import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthLabel, recentMonths } from "../../src/bot/statement-document.ts";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { pdfText } from "../support/pdf-text.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * A statement never counts held money as money to spend (review item: the chat's statement said
 * "Closing balance" over the posted balance, which still holds an order in flight). Over Redis,
 * prepaid: a customer credited Rs 20,000 confirms Rs 150 that the aggregator does not answer (the
 * sandbox's answer is an hour away), so Rs 150 is held. The chat's /statement and the back
 * office's customer statement both say Rs 19,850 available and Rs 150 held, never Rs 20,000 as a
 * balance.
 */

const ADMIN = 3001;
const CUSTOMER = 3311;
const HOUR = 3_600_000;

describe("a statement with money held for an order in flight", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", LOW_FLOAT_ALERT: "0" },
      sandbox: { delays: { toPendingMs: 20, toFinalMs: HOUR } },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  let ref = "";
  it("the chat's statement says what is available and what is held", async () => {
    const u = ts.user(CUSTOMER);
    await u.register();
    await u.credit(2_000_000);
    ref = await u.placeMobile("9841234567", "150");
    const books = await ts.system.ledger.balance(account.customer(CUSTOMER));
    expect(books).toMatchObject({ postedPaisa: 2_000_000, heldPaisa: 15_000 });
    const month = monthLabel("en", recentMonths(Date.now(), 1)[0]!);
    await u.say("/statement", /Which month's statement\?/);
    const doc = await u.tap(month, (e) => e.kind === "document");
    const pdf = pdfText(doc.document!.bytes).text;
    expect(pdf).toContain("Available to spend at the start: Rs 0");
    expect(pdf).toContain("Available to spend at the close: Rs 19,850");
    expect(pdf).toContain("Held at the close for orders then with the operator: Rs 150");
    // The order is a line when its money was held, with what was left to spend after it.
    expect(pdf).toMatch(new RegExp(`Order ${ref} −Rs 150 Rs 19,850`));
    expect(pdf).toContain("Money in: Rs 20,000 · Money out: Rs 150");
    expect(pdf).not.toContain("Closing balance");
  });

  it("the back office's statement says available and held apart, and the posted sum as posted", async () => {
    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    const res = await c.get(`/dashboard/customers/${CUSTOMER}`);
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toMatch(
      /At the close<\/th><td>available Rs 19850\.00, held for orders Rs 150\.00 \(posted Rs 20000\.00\)/,
    );
    expect(page).toMatch(/At the start<\/th><td>available Rs 0\.00, held for orders Rs 0\.00/);
    expect(page).not.toContain("Closing balance");
    // The hold's line: posted still Rs 20000, Rs 150 held, Rs 19850 available.
    const row = page.split("<tr>").find((r) => r.includes(`<td>order:${ref}</td>`));
    expect(row).toBeDefined();
    expect(row).toMatch(/Rs 20000\.00.*\+Rs 150\.00.*Rs 150\.00.*Rs 19850\.00/s);
  });
});
