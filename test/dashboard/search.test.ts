import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_PAGE_SIZE } from "../../src/dashboard/pages/order-search.ts";
import type { Order } from "../../src/orders/index.ts";
import {
  ADMIN,
  AGENT,
  client,
  type DashboardHarness,
  loggedIn as logIn,
  startDashboard,
} from "../support/dashboard.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The orders page (admins) over the real Redis order store and HTTP on loopback: orders placed in
 * the test are found by number and by reference and link to their page; every field is checked
 * (a bad one: 400, the form again with the reason, escaped); "Next" pages on; agents get 403.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});

const loggedIn = (userId: number) => logIn(h, userId);

let seq = 0;
async function place(over: Partial<Order>): Promise<Order> {
  const at = Date.now();
  const r = await h.store.create(
    placedOrder({
      reference: "1",
      idempotencyKey: `search-page-${++seq}`,
      history: [{ source: "system", status: "placed", at }],
      createdAt: at,
      updatedAt: at,
      ...over,
    }),
    { numbered: true },
  );
  return r.order;
}

const refsIn = (text: string) =>
  [...text.matchAll(/href="\/dashboard\/orders\?ref=(\d+)"/g)].map((m) => m[1]);

describe("the orders page", () => {
  it("finds an order placed in the test by its number and by its reference, linking to its page", async () => {
    const order = await place({ connectionNo: "9812000001", receiptMessageId: 4242 });
    const other = await place({ connectionNo: "9812000002" });
    const c = await loggedIn(ADMIN);

    const byNumber = await c.get("/dashboard/orders?number=9812000001");
    expect(byNumber.status).toBe(200);
    const text = await byNumber.text();
    expect(refsIn(text)).toEqual([order.reference]);
    expect(text).toContain('value="9812000001"');
    expect(text).toContain("Orders found: 1");

    const byRef = await c.get(`/dashboard/orders?reference=${other.reference}`);
    expect(refsIn(await byRef.text())).toEqual([other.reference]);

    const page = await c.get(`/dashboard/orders?ref=${order.reference}`);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain(`Order ${order.reference}`);
    expect(body).toContain("Timeline");
    expect(body).toContain(`message 4242 in chat ${order.chatId}`);
  });

  it("finds by provider transaction, customer, status and a range of days", async () => {
    const done = await h.successfulOrder(7301);
    const c = await loggedIn(ADMIN);
    const day = new Date(done.createdAt).toISOString().slice(0, 10);
    for (const q of [
      `tx=TX-${done.reference}`,
      "customer=7301",
      `customer=7301&status=success&from=${day}&to=${day}`,
      `customer=7301&category=mobile&operator=${done.operatorId}`,
    ]) {
      const res = await c.get(`/dashboard/orders?${q}`);
      expect(res.status, q).toBe(200);
      expect(refsIn(await res.text()), q).toEqual([done.reference]);
    }
    const failed = await (await c.get("/dashboard/orders?customer=7301&status=failed")).text();
    expect(refsIn(failed)).toEqual([]);
    expect(failed).toContain('<option value="failed" selected>');
    const before = await c.get("/dashboard/orders?customer=7301&to=2020-01-01");
    expect(refsIn(await before.text())).toEqual([]);
  });

  it("shows the newest orders with no criteria, and pages on with Next", async () => {
    const number = "9812000077";
    const made: string[] = [];
    for (let i = 0; i < SEARCH_PAGE_SIZE + 3; i++)
      made.push((await place({ connectionNo: number })).reference);
    const c = await loggedIn(ADMIN);
    const bare = await (await c.get("/dashboard/orders")).text();
    expect(refsIn(bare).length).toBe(SEARCH_PAGE_SIZE);
    expect(refsIn(bare)[0]).toBe(made.at(-1));

    const first = await (await c.get(`/dashboard/orders?number=${number}`)).text();
    expect(refsIn(first)).toEqual([...made].reverse().slice(0, SEARCH_PAGE_SIZE));
    const next = /href="(\/dashboard\/orders\?[^"]+)" rel="next"/.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = await (await c.get(next!.replaceAll("&amp;", "&"))).text();
    expect(refsIn(second)).toEqual([...made].reverse().slice(SEARCH_PAGE_SIZE));
    expect(second).not.toContain('rel="next"');
  });

  // Review s24-e, 8: a WhatsApp account's id (16 digits) is found, and named as WhatsApp's.
  it("finds a WhatsApp customer's orders by their id, and the order's page names them WhatsApp's", async () => {
    const wa = 8_000_000_000_000_000 + 9_779_841_600_002;
    const order = await place({ userId: wa, chatId: wa });
    const tg = await place({ userId: 7302, chatId: 7302 });
    const c = await loggedIn(ADMIN);
    const found = await c.get(`/dashboard/orders?customer=${wa}`);
    expect(found.status).toBe(200);
    const text = await found.text();
    expect(refsIn(text)).toEqual([order.reference]);
    expect(text).toContain("Customer (Telegram or WhatsApp id)");
    const shown = await (await c.get(`/dashboard/orders?ref=${order.reference}`)).text();
    expect(shown).toContain(`Customer</th><td>WhatsApp account ${wa}</td>`);
    expect(shown).not.toContain("Telegram");
    const other = await (await c.get(`/dashboard/orders?ref=${tg.reference}`)).text();
    expect(other).toContain("Customer</th><td>Telegram user 7302</td>");
  });

  it("answers a bad field with 400, the form again and the reason, escaped", async () => {
    const c = await loggedIn(ADMIN);
    const cases: Array<[string, string]> = [
      ["from=2026-02-30", "From (UTC day): not a real date"],
      ["from=yesterday", "From (UTC day): a date such as 2026-04-01"],
      ["from=2026-03-02&to=2026-03-01", "To (UTC day, included): must not be before From"],
      ["reference=0123", "Reference: reference must be 1-15 digits"],
      [
        "customer=abc",
        "Customer (Telegram or WhatsApp id): a Telegram or WhatsApp account id (digits)",
      ],
      ["customer=9007199254740993", "Customer (Telegram or WhatsApp id): too large"],
      ["status=lost", "Status: one of placed"],
      ["operator=-1", "Operator id: an operator id (digits)"],
      ["category=Mobile!", "Category: a category id"],
      ["after=xyz", "Page: not a cursor from a previous page"],
      [`tx=${"x".repeat(70)}`, "Provider transaction: at most 64 characters"],
    ];
    for (const [q, why] of cases) {
      const res = await c.get(`/dashboard/orders?${q}`);
      expect(res.status, q).toBe(400);
      expect(await res.text(), q).toContain(why);
    }
    const xss = await c.get(`/dashboard/orders?from=${encodeURIComponent('"><script>x</script>')}`);
    expect(xss.status).toBe(400);
    const text = await xss.text();
    expect(text).not.toContain("<script>");
    expect(text).toContain("&quot;&gt;&lt;script&gt;");
  });

  it("is for admins: an agent gets 403 (and still opens an order by reference)", async () => {
    const order = await place({ connectionNo: "9812000099" });
    const c = await loggedIn(AGENT);
    expect((await c.get("/dashboard/orders")).status).toBe(403);
    expect((await c.get("/dashboard/orders?number=9812000099")).status).toBe(403);
    expect((await c.get(`/dashboard/orders?ref=${order.reference}`)).status).toBe(200);
    const signedOut = client(h.url);
    expect((await signedOut.get("/dashboard/orders?number=9812000099")).status).toBe(303);
  });
});
