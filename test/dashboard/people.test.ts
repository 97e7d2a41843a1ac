import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Phone, STATEMENT_CSV_HEADER } from "../../src/accounts/index.ts";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { account } from "../../src/ledger/index.ts";
import { holdIdOf } from "../../src/orders/index.ts";
import {
  ADMIN,
  AGENT,
  type DashboardHarness,
  loggedIn as logIn,
  startDashboard,
} from "../support/dashboard.ts";
import { placedOrder } from "../support/orders.ts";
import { paisaOfDecimal } from "../support/statement.ts";

/**
 * Customers and agents in the back office (issue 29), over real Redis and HTTP: a customer's page
 * (registration, balance, open holds, statement), the statement as CSV that sums from opening to
 * closing, the lookup by phone or id, blocking and unblocking with a reason (confirm page, POST,
 * audit entry with before and after), an agent's own day; agents get 403 on the customers pages.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});

const loggedIn = (userId: number) => logIn(h, userId, "people-test/1");

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

// Both lists (money and access actions; logins and exports), newest first, parsed by the log.
async function auditEntries() {
  return createAuditLog(h.deps.kv, dashboardKeys(h.deps.prefix)).list(50);
}

let orders = 50;
/** A registered customer with a successful order and an order still held. */
async function customer(userId: number, phone: string) {
  await h.accounts.register(userId, phone as Phone);
  await h.accounts.putProfile(
    userId,
    { name: "Sita <Sharma>", username: "sita_np", channel: "telegram" },
    Date.now(),
  );
  const done = await h.successfulOrder(userId);
  const reference = `${Date.now()}${String(++orders).padStart(2, "0")}`.slice(0, 15);
  const credit = await h.ledger.transfer({
    id: `people-credit-${userId}`,
    debit: account.merchant.funding,
    credit: account.customer(userId),
    amountPaisa: 5_000,
    kind: "credit",
  });
  expect(credit.ok).toBe(true);
  const at = Date.now();
  await h.store.create(
    placedOrder({
      reference,
      idempotencyKey: `people-${reference}`,
      userId,
      chatId: userId,
      amountPaisa: 2_000,
      price: { amountPaisa: 2_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 2_000 },
      holdId: holdIdOf(reference),
      history: [{ source: "system", status: "placed", at }],
      createdAt: at,
      updatedAt: at,
    }),
  );
  return { done, held: reference };
}

describe("a customer's page", () => {
  it("shows the registration, the balance, the open hold and the statement", async () => {
    const { done, held } = await customer(7101, "9779800007101");
    const c = await loggedIn(ADMIN);
    const res = await c.get("/dashboard/customers/7101");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Customer 7101");
    expect(text).toContain("+977 9800007101");
    expect(text).toContain("Sita &lt;Sharma&gt;");
    expect(text).not.toContain("Sita <Sharma>");
    expect(text).toContain("@sita_np");
    expect(text).toContain("Telegram");
    expect(text).toContain("not blocked");
    // Rs 103 credited and spent on the first order, Rs 50 credited, Rs 20 held by the second.
    expect(text).toMatch(/Available<\/th><td>Rs 30.00/);
    expect(text).toMatch(/Held for orders in flight<\/th><td>Rs 20.00/);
    expect(text).toMatch(/Posted \(incl\. held\)<\/th><td>Rs 50.00/);
    expect(text).toContain(`/dashboard/orders?ref=${held}`);
    expect(text).toContain(`order:${done.reference}/post`);
    expect(text).toContain("Download the statement as CSV");
    expect(text).toContain("Block…");
  });

  it("gives the statement as CSV whose changes sum from the opening to the closing balance", async () => {
    await customer(7102, "9779800007102");
    const c = await loggedIn(ADMIN);
    const res = await c.get(
      `/dashboard/customers/7102/statement.csv?from=${today()}&to=${tomorrow()}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain("statement-customer-7102-");
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(STATEMENT_CSV_HEADER.join(","));
    const col = (n: (typeof STATEMENT_CSV_HEADER)[number]) => STATEMENT_CSV_HEADER.indexOf(n);
    const rows = lines.slice(1).map((l) => l.split(","));
    const opening = paisaOfDecimal(rows[0]![col("balance_rs")]!);
    const closing = paisaOfDecimal(rows.at(-1)![col("balance_rs")]!);
    const body = rows.slice(1, -1);
    const sum = body.reduce((t, r) => t + paisaOfDecimal(r[col("change_rs")]!), 0);
    expect(opening).toBe(0);
    expect(closing).toBe(5_000);
    expect(opening + sum).toBe(closing);
    const heldSum = body.reduce((t, r) => t + paisaOfDecimal(r[col("held_change_rs")]!), 0);
    expect(paisaOfDecimal(rows.at(-1)![col("held_rs")]!)).toBe(heldSum);
    expect(heldSum).toBe(2_000);
    // What was available to spend at the close: the posted balance less what is held.
    expect(paisaOfDecimal(rows.at(-1)![col("available_rs")]!)).toBe(3_000);
    expect(body.map((r) => r[col("kind")])).toEqual(["credit", "hold", "post", "credit", "hold"]);
    const exported = (await auditEntries()).find((e) => e.detail?.includes("customer:7102"));
    expect(exported).toMatchObject({ action: "export", userId: ADMIN, role: "admin" });
  });

  it("answers bad ids and ranges with 400 and the reason, escaped", async () => {
    const c = await loggedIn(ADMIN);
    expect((await c.get("/dashboard/customers/0")).status).toBe(400);
    expect((await c.get("/dashboard/customers/abc")).status).toBe(400);
    expect((await c.get("/dashboard/customers/99999999999999999")).status).toBe(400);
    const bad = await c.get("/dashboard/customers/7101?from=%3Cx%3E&to=2026-01-01");
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain("an ISO date");
    expect(text).not.toContain("<x>");
    expect((await c.get("/dashboard/customers/7101/statement.csv")).status).toBe(400);
    const long = "/dashboard/customers/7101/statement.csv?from=2020-01-01&to=2026-01-01";
    expect((await c.get(long)).status).toBe(400);
  });

  it("finds a person by phone or Telegram id", async () => {
    await customer(7103, "9779800007103");
    const c = await loggedIn(ADMIN);
    const byPhone = await c.get("/dashboard/customers?by=phone&q=9800007103");
    expect(byPhone.status).toBe(303);
    expect(byPhone.headers.get("location")).toBe("/dashboard/customers/7103");
    const byId = await c.get("/dashboard/customers?by=id&q=7103");
    expect(byId.headers.get("location")).toBe("/dashboard/customers/7103");
    const nobody = await c.get("/dashboard/customers?by=phone&q=9800000000");
    expect(nobody.status).toBe(404);
    expect(await nobody.text()).toContain("Nobody registered with +977 9800000000");
    expect((await c.get("/dashboard/customers?by=phone&q=%3Cscript%3E")).status).toBe(400);
    expect((await c.get("/dashboard/customers?by=id&q=-1")).status).toBe(400);
    expect((await c.get("/dashboard/customers?by=nope&q=1")).status).toBe(400);
    expect((await c.get("/dashboard/customers")).status).toBe(200);
  });
});

describe("blocking a customer", () => {
  it("a reason of the full 300 characters blocks and is audited (the log clips what it keeps)", async () => {
    await customer(7115, "9779800007115");
    const c = await loggedIn(ADMIN);
    const reason = "x".repeat(300);
    const done = await c.post("/dashboard/customers/7115/block", {}, `reason=${reason}`);
    expect(done.status).toBe(303);
    expect(await h.blocked.isBlocked(7115)).toBe(true);
    const entry = (await auditEntries()).find((e) => e.detail?.startsWith("customer 7115:"));
    expect(entry?.action).toBe("block");
    expect(String(entry?.after?.block)).toHaveLength(300);
  });

  it("a malformed multipart body is refused with a reason, not a 500", async () => {
    await customer(7116, "9779800007116");
    const c = await loggedIn(ADMIN);
    const bad = await c.post(
      "/dashboard/customers/7116/block",
      { "content-type": "multipart/form-data; boundary=zzz" },
      "--zzz\r\nnot a part",
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Give a reason.");
    expect(await h.blocked.isBlocked(7116)).toBe(false);
  });

  it("confirms, blocks with a reason, audits before and after; unblocks the same way", async () => {
    await customer(7104, "9779800007104");
    const c = await loggedIn(ADMIN);
    const confirm = await c.get("/dashboard/customers/7104/block");
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Orders they placed before go on as usual");
    expect(await h.blocked.isBlocked(7104)).toBe(false);

    const empty = await c.post("/dashboard/customers/7104/block", {}, "reason=+++");
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Give a reason.");
    expect(await h.blocked.isBlocked(7104)).toBe(false);

    const done = await c.post(
      "/dashboard/customers/7104/block",
      {},
      "reason=abusive+%3Cb%3Emessages%3C%2Fb%3E",
    );
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/dashboard/customers/7104");
    expect(await h.blocked.get(7104)).toMatchObject({
      by: ADMIN,
      reason: "abusive <b>messages</b>",
    });
    const page = await (await c.get("/dashboard/customers/7104")).text();
    expect(page).toContain("Unblock…");
    expect(page).toContain("abusive &lt;b&gt;messages&lt;/b&gt;");
    expect(await (await c.get("/dashboard/customers")).text()).toContain(">7104</a>");

    const blocked = (await auditEntries()).find((e) => e.action === "block");
    expect(blocked).toMatchObject({
      userId: ADMIN,
      role: "admin",
      ip: "127.0.0.1",
      detail: "customer 7104: abusive <b>messages</b>",
      before: { block: "not blocked" },
    });
    expect(blocked?.after?.block).toContain("abusive <b>messages</b>");
    expect(await (await c.get("/dashboard/audit")).text()).toContain(
      "customer 7104: abusive &lt;b&gt;",
    );

    expect((await c.get("/dashboard/customers/7104/unblock")).status).toBe(200);
    const un = await c.post("/dashboard/customers/7104/unblock", {}, "reason=apologised");
    expect(un.status).toBe(303);
    expect(await h.blocked.isBlocked(7104)).toBe(false);
    const unblocked = (await auditEntries()).find((e) => e.action === "unblock");
    expect(unblocked).toMatchObject({
      detail: "customer 7104: apologised",
      after: { block: "not blocked" },
    });
    expect(unblocked?.before?.block).toContain("abusive");
    expect((await c.get("/dashboard/customers/7104/unblock")).status).toBe(409);
    expect((await c.post("/dashboard/customers/7104/unblock", {}, "reason=again")).status).toBe(
      409,
    );
  });

  it("does not block an agent or an admin (their access is their role)", async () => {
    const c = await loggedIn(ADMIN);
    for (const id of [AGENT, ADMIN]) {
      expect((await c.get(`/dashboard/customers/${id}/block`)).status).toBe(400);
      expect((await c.post(`/dashboard/customers/${id}/block`, {}, "reason=x")).status).toBe(400);
      expect(await h.blocked.isBlocked(id)).toBe(false);
    }
  });

  it("refuses a block POSTed from another origin", async () => {
    const c = await loggedIn(ADMIN);
    const res = await c.post(
      "/dashboard/customers/7105/block",
      { origin: "https://evil.example" },
      "reason=x",
    );
    expect(res.status).toBe(403);
    expect(await h.blocked.isBlocked(7105)).toBe(false);
  });
});

describe("roles", () => {
  it("an agent gets 403 on every customers page and action", async () => {
    const c = await loggedIn(AGENT);
    for (const p of [
      "/dashboard/customers",
      "/dashboard/customers?by=id&q=7101",
      "/dashboard/customers/7101",
      `/dashboard/customers/7101/statement.csv?from=${today()}&to=${tomorrow()}`,
      "/dashboard/customers/7101/block",
      "/dashboard/customers/7101/unblock",
    ]) {
      expect((await c.get(p)).status, p).toBe(403);
    }
    expect((await c.post("/dashboard/customers/7101/block", {}, "reason=x")).status).toBe(403);
    expect(await h.blocked.isBlocked(7101)).toBe(false);
    expect(await (await c.get("/dashboard")).text()).not.toContain("Customers</a>");
  });

  it("an admin gets 403 on an agent's own day", async () => {
    const c = await loggedIn(ADMIN);
    expect((await c.get("/dashboard/me")).status).toBe(403);
  });
});

describe("an agent's own day", () => {
  it("shows the float, the day's cash-ins with the customer, credits and reversals", async () => {
    await h.accounts.register(7116, "9779800007116" as Phone);
    const stamp = Date.now();
    const move = async (id: string, debit: string, credit: string, paisa: number, kind: string) => {
      const r = await h.ledger.transfer({
        id: `${id}-${stamp}`,
        debit: debit as never,
        credit: credit as never,
        amountPaisa: paisa,
        kind: kind as never,
        ...(kind === "reversal" ? { reason: "wrong customer" } : {}),
      });
      expect(r.ok).toBe(true);
    };
    const agent = account.agent(AGENT);
    await move("float", account.merchant.funding, agent, 100_000, "credit");
    await move("cash1", agent, account.customer(7116), 20_000, "cash_in");
    await move("cash2", agent, account.customer(7107), 5_000, "cash_in");
    await move("rev2", account.customer(7107), agent, 5_000, "reversal");
    const c = await loggedIn(AGENT);
    const res = await c.get("/dashboard/me");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Your float now");
    expect(text).toContain("Today, ");
    expect(text).toMatch(/Cash-ins you made<\/th><td>\d+, Rs/);
    expect(text).toContain("+977 9800007116");
    expect(text).toContain("customer:7107");
    expect(text).toMatch(/Reversals given back to you<\/th><td>[1-9]/);
    expect(text).toContain(`cash1-${stamp}`);
    expect(text).toContain("NPT");

    const past = await c.get("/dashboard/me?day=2001-01-01");
    expect(past.status).toBe(200);
    expect(await past.text()).toContain("Cash-ins you made</th><td>0, Rs 0.00");
    for (const bad of ["2026-02-30", "yesterday", "%3Cx%3E", "1999-12-31"]) {
      const r = await c.get(`/dashboard/me?day=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(await r.text()).not.toContain("<x>");
    }
  });
});
