import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, JOURNAL_CSV_HEADER } from "../../src/ledger/index.ts";
import {
  ADMIN,
  AGENT,
  type DashboardHarness,
  loggedIn as logIn,
  startDashboard,
} from "../support/dashboard.ts";

/**
 * The first pages over the product's real stores: an order by reference (fields, timeline, the
 * books' transfers for admins), the books' report, the journal as CSV for a range, the audit log,
 * and an agent's own float. Bad input gets the page again with the reason, escaped.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});

const loggedIn = (userId: number) => logIn(h, userId, "pages-test/1");

describe("an order by its reference", () => {
  it("shows an admin its fields, its timeline (escaped) and the books' transfers", async () => {
    const order = await h.successfulOrder(7001);
    const c = await loggedIn(ADMIN);
    const res = await c.get(`/dashboard/orders?ref=${order.reference}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`Order ${order.reference}`);
    expect(text).toContain("NTC Prepaid");
    expect(text).toContain("9841234567");
    expect(text).toContain(`TX-${order.reference}`);
    expect(text).toContain("success");
    // The provider's note is shown as text, never as markup.
    expect(text).toContain("&lt;b&gt;operator said ok&lt;/b&gt;");
    expect(text).not.toContain("<b>operator said ok</b>");
    expect(text).toContain("The books' transfers");
    for (const id of [
      `order:${order.reference}`,
      `order:${order.reference}/post`,
      `order:${order.reference}:float`,
      `order:${order.reference}:fee`,
    ]) {
      expect(text).toContain(`<td>${id}</td>`);
    }
    expect(text).toContain("Rs 99.00");
  });

  it("shows an agent the order without the books", async () => {
    const order = await h.successfulOrder(7002);
    const c = await loggedIn(AGENT);
    const text = await (await c.get(`/dashboard/orders?ref=${order.reference}`)).text();
    expect(text).toContain(`Order ${order.reference}`);
    expect(text).toContain("Timeline");
    expect(text).not.toContain("transfers");
  });

  it("answers a bad reference with 400 and the form again, an unknown one with 404", async () => {
    const c = await loggedIn(ADMIN);
    const bad = await c.get(`/dashboard/orders?ref=${encodeURIComponent('"><script>x</script>')}`);
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain("A reference is 1 to 15 digits.");
    expect(text).not.toContain("<script>");
    expect(text).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/');
    // An empty reference is refused; no `ref` at all is the orders search (test/dashboard/search.test.ts).
    expect((await c.get("/dashboard/orders?ref=")).status).toBe(400);
    expect((await c.get("/dashboard/orders?ref=0123")).status).toBe(400);
    expect((await c.get("/dashboard/orders?ref=999999999999999")).status).toBe(404);
  });
});

describe("the books", () => {
  it("shows the trial balance and the float expected against the aggregator", async () => {
    await h.successfulOrder(7003);
    const c = await loggedIn(ADMIN);
    const res = await c.get("/dashboard/books");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Trial balance");
    expect(text).toMatch(/Balanced<\/th><td>yes/);
    expect(text).toContain("The aggregator reports</th><td>Rs 10000.00");
    expect(text).toContain("Expected");
  });

  it("exports the journal of a range as CSV that sums to zero, and audits it", async () => {
    const order = await h.successfulOrder(7004);
    const c = await loggedIn(ADMIN);
    const day = new Date(order.createdAt).toISOString().slice(0, 10);
    const next = new Date(order.createdAt + 86_400_000).toISOString().slice(0, 10);
    const res = await c.get(`/dashboard/books/journal.csv?from=${day}&to=${next}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="journal-${day}.csv"`,
    );
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(JOURNAL_CSV_HEADER.join(","));
    const rows = lines.slice(1).map((l) => l.split(","));
    expect(rows.some((r) => r[2] === `order:${order.reference}:float`)).toBe(true);
    // Each row moves its amount from debit to credit: per account, the posted rows sum to zero.
    const sums = new Map<string, number>();
    for (const r of rows) {
      if (r[3] === "hold" || r[3] === "post" || r[3] === "void") continue;
      const paisa = Math.round(Number(r[6]) * 100);
      sums.set(r[4]!, (sums.get(r[4]!) ?? 0) - paisa);
      sums.set(r[5]!, (sums.get(r[5]!) ?? 0) + paisa);
    }
    expect([...sums.values()].reduce((a, b) => a + b, 0)).toBe(0);

    const audit = await (await c.get("/dashboard/audit")).text();
    expect(audit).toContain(`journal ${day}..${next}`);
    expect(audit).toContain("export");
    expect(audit).toContain("127.0.0.1");
    expect(audit).toContain("pages-test/1");
  });

  it("answers a bad range with 400 and the form with the reason", async () => {
    const c = await loggedIn(ADMIN);
    for (const q of [
      "from=2026-13-01&to=2026-02-01",
      "from=2026-02-01&to=2026-01-01",
      "from=2020-01-01&to=2026-01-01",
      "from=<x>",
      "",
    ]) {
      const res = await c.get(`/dashboard/books/journal.csv?${q}`);
      expect(res.status, q).toBe(400);
      const text = await res.text();
      expect(text).toContain("Download CSV");
      expect(text).not.toContain("<x>");
    }
    expect((await c.get("/dashboard/books/journal")).status).toBe(200);
  });
});

describe("the audit log and the agent's float", () => {
  it("records who logged in and out, when and from where; admins read it", async () => {
    const agent = await loggedIn(AGENT);
    await agent.post("/dashboard/logout");
    const c = await loggedIn(ADMIN);
    const text = await (await c.get("/dashboard/audit")).text();
    expect(text).toContain(`agent ${AGENT}</td><td>logout`);
    expect(text).toContain(`agent ${AGENT}</td><td>login`);
    expect(text).toContain(`admin ${ADMIN}</td><td>login`);
  });

  it("shows an agent their own float", async () => {
    const r = await h.ledger.transfer({
      id: `dash-agent-float-${Date.now()}`,
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 250_000,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
    const balance = await h.ledger.balance(account.agent(AGENT));
    const c = await loggedIn(AGENT);
    const text = await (await c.get("/dashboard")).text();
    expect(text).toContain("Your float");
    expect(text).toContain(`Rs ${(balance.availablePaisa / 100).toFixed(2)}`);
  });
});
