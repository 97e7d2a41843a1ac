import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { client, linkIn } from "../support/dashboard.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * No page calls the posted balance "Balance": it still counts money held for an order in flight,
 * which is not the customer's to spend (the back office's customers list, the complaints page and
 * the customer's page showed it so, as the statements did before 3139b0b). Over Redis, prepaid: a
 * customer credited Rs 20,000 has a Rs 100 order that succeeded (and a complaint on it), then
 * confirms Rs 150 that the aggregator does not answer (the sandbox's answer is an hour away), so
 * Rs 150 is held: posted Rs 19,900, available Rs 19,750. Every page shows Rs 19,750 available and
 * Rs 150 held apart; where the posted sum is shown (the books, the customer's page), it is named
 * "posted, incl. held".
 */

const ADMIN = 3001;
const CUSTOMER = 3321;
const HOUR = 3_600_000;

describe("money held for an order in flight, wherever a balance is shown", () => {
  let ts: TestSystem;
  let c: ReturnType<typeof client>;
  let held = "";
  let cref = "";
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", LOW_FLOAT_ALERT: "0" },
      sandbox: { delays: { toPendingMs: 20, toFinalMs: HOUR } },
    });
    const u = ts.user(CUSTOMER);
    await u.register();
    await u.credit(2_000_000);
    const paid = await u.placeMobile("9841234567", "100");
    // The aggregator answers this one at once (an admin's word in the sandbox): it succeeds.
    await waitUntil(
      async () => (await ts.system.orders.get(paid))?.transactionId !== undefined,
      "the order's submission",
    );
    const { transactionId } = (await ts.system.orders.get(paid))!;
    const forced = ts.system.sandbox!.forceStatus(
      ts.system.config.sandbox.token,
      transactionId!,
      "success",
    );
    expect(forced.ok).toBe(true);
    await u.outcome(paid, "succeeded");
    await u.say(`/complain ${paid}`, /What went wrong/);
    const raised = await u.tap("Paid but not received", /Complaint C\d+ is registered/);
    cref = /Complaint (C\d+)/.exec(raised.text)![1]!;
    held = await u.placeMobile("9841234567", "150");
    const books = await ts.system.ledger.balance(account.customer(CUSTOMER));
    expect(books).toMatchObject({ postedPaisa: 1_990_000, heldPaisa: 15_000 });

    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  const get = async (path: string) => {
    const res = await c.get(path);
    expect(res.status).toBe(200);
    return res.text();
  };
  const AVAILABLE = "available Rs 19750.00, held Rs 150.00 for orders in flight";

  it("the customers list: what is available, and what is held apart", async () => {
    const page = await get("/dashboard/customers");
    expect(page).not.toContain("<th>Balance</th>");
    const row = page.split("<tr>").find((r) => r.includes(`>${CUSTOMER}</a>`));
    expect(row).toBeDefined();
    expect(row).toContain(AVAILABLE);
    expect(row).not.toContain("Rs 19900.00");
  });

  it("the customer's page: available first, held apart, the posted sum named so", async () => {
    const page = await get(`/dashboard/customers/${CUSTOMER}`);
    expect(page).toMatch(
      /Available<\/th><td>Rs 19750\.00<\/td><\/tr><tr><th scope="row">Held for orders in flight<\/th><td>Rs 150\.00<\/td><\/tr><tr><th scope="row">Posted \(incl\. held\)<\/th><td>Rs 19900\.00/,
    );
    expect(page).not.toMatch(/<th scope="row">Posted<\/th>/);
  });

  it("the complaint's page: the customer's money now, available and held", async () => {
    const page = await get(`/dashboard/complaints/act?ref=${cref}&a=take`);
    expect(page).toContain(`user ${CUSTOMER}, ${AVAILABLE} now`);
    expect(page).not.toContain("balance now");
  });

  it("the order's page: the balance it recorded is what was available after", async () => {
    const page = await get(`/dashboard/orders?ref=${held}`);
    expect(page).toContain("Customer&#39;s available after</th><td>Rs 19750.00");
  });

  it("the books, in the back office and in the chat: the posted sum named as such", async () => {
    // Other customers of the test system are in the sums too: only the held part is this one's.
    const page = await get("/dashboard/books");
    expect(page).toMatch(
      /Customers owed \(posted, incl\. held\)<\/th><td>Rs [\d.]+ over \d+, of which held for orders in flight Rs 150\.00/,
    );
    const shown = await ts.user(ADMIN).say("/books", /Books at/);
    expect(shown.text).toMatch(
      /Customers' balances, posted \(incl\. held\): Rs [\d,]+ \(of which held for orders in flight: Rs 150;/,
    );
  });
});
