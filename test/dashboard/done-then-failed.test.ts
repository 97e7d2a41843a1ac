import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardKv } from "../../src/dashboard/index.ts";
import { account, type LedgerStore } from "../../src/ledger/index.ts";
import { holdIdOf } from "../../src/orders/index.ts";
import { creditTransferId } from "../../src/payments/index.ts";
import { raisedComplaint } from "../support/complaints.ts";
import { type ActionsHarness, ADMIN, form, startActions } from "../support/dashboard-actions.ts";
import { loggedLines } from "../support/log-lines.ts";
import { creditCustomer } from "../support/order-rig.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * An action from the back office that is done stays said done, and audited, when what follows it
 * fails (review s32-backoffice, 1 and 2). Before: a complaint refund or a top-up credit whose
 * balances could not be read after the booking answered 500 "Please try again" and never wrote its
 * audit line (the retry finds it done and writes none either); an unblock whose audit write failed
 * answered 500 and its retry "not blocked: nothing changed", with no line naming who unblocked.
 * Real Redis, HTTP and the Khalti stand-in; the fault is at the back office's own ledger handle
 * (the balance reads after the first `passing`) or its kv client's list write.
 */

let h: ActionsHarness;
beforeAll(async () => {
  h = await startActions();
});
afterAll(async () => {
  await h?.close();
});

type Line = { action: string; detail?: string; before?: object; after?: object };
const auditOf = async (needle: string): Promise<Line[]> =>
  (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 500))
    .map((l) => JSON.parse(l) as Line)
    .filter((e) => String(e.detail).includes(needle));

/** Runs `act` with the back office's balance reads failing after the first `passing`. */
async function withBalanceFailing<T>(passing: number, act: () => Promise<T>) {
  const [real, realLogger] = [h.deps.ledger, h.deps.logger];
  const log = loggedLines({ secrets: [] });
  let reads = 0;
  const failing: LedgerStore = {
    ...real,
    balance: async (a) => {
      if (++reads > passing) throw new Error("balance read failed");
      return real.balance(a);
    },
  };
  h.deps.ledger = failing;
  h.deps.logger = log.logger;
  try {
    return { result: await act(), lines: log.lines };
  } finally {
    h.deps.ledger = real;
    h.deps.logger = realLogger;
  }
}

const notRead = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === "an action was done but the balances after it were not read");

describe("a money action whose balances cannot be read after it", () => {
  it("a complaint refund: 200 saying it was refunded, audited with the figures not read", async () => {
    const [userId, reference] = [6931, "880000000006931"];
    await creditCustomer(h.ledger, userId, 10_300, `dtf-fund-${reference}`);
    await h.store.create(
      placedOrder({
        reference,
        idempotencyKey: `dtf-${reference}`,
        userId,
        chatId: userId,
        status: "success",
        amountPaisa: 10_000,
        price: { amountPaisa: 10_000, feePaisa: 300, discountPaisa: 0, totalPaisa: 10_300 },
        holdId: holdIdOf(reference),
      }),
    );
    const cref = await raisedComplaint(h.complaints, userId, reference);
    const c = await h.login(ADMIN);
    const body = form({ ref: cref, a: "refund", text: "sorry for that" });
    // The two "before" reads pass; the ones after the refund fail.
    const { result: res, lines } = await withBalanceFailing(2, () =>
      c.post("/dashboard/complaints/act", {}, body),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Resolved with a refund of Rs 103.00");
    expect(text.match(/→ not read/g)).toHaveLength(2); // the customer's and sales' rows
    expect(await h.ledger.entriesOf(cref)).toHaveLength(1);
    const audited = await auditOf(cref);
    expect(audited.map((e) => e.action)).toEqual(["complaint_resolve"]);
    expect(audited[0]?.after).toMatchObject({
      [account.customer(userId)]: "not read",
      status: "resolved",
    });
    expect(notRead(lines)).toHaveLength(1);
    expect(notRead(lines)[0]).toMatchObject({ level: 50 });
  });

  it("a held top-up's credit: 200 saying it was credited, audited with the figures not read", async () => {
    const t = await h.heldTopUp(6932, 20_000, 25_000);
    const c = await h.login(ADMIN);
    const body = form({ id: t.paymentId, d: "credit_paid", shown: "25000" });
    const { result: res, lines } = await withBalanceFailing(2, () =>
      c.post("/dashboard/topups/decide", {}, body),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Credited Rs 250.00");
    const credit = await h.ledger.entryOf(creditTransferId("khalti", t.paymentId));
    expect(credit?.amountPaisa).toBe(25_000);
    const audited = await auditOf(t.paymentId);
    expect(audited.map((e) => e.action)).toEqual(["topup_credit"]);
    expect(audited[0]?.after).toMatchObject({ [account.customer(6932)]: "not read" });
    expect(notRead(lines)).toHaveLength(1);
  });
});

describe("an unblock whose audit write fails", () => {
  it("goes back to the customer's page (it is done), and the failure is logged", async () => {
    const c = await h.login(ADMIN);
    const blocked = await c.post("/dashboard/customers/6933/block", {}, form({ reason: "fraud" }));
    expect(blocked.status).toBe(303);
    const kv = h.deps.kv as DashboardKv;
    const [realPush, realLogger] = [kv.lpush, h.deps.logger];
    const log = loggedLines({ secrets: [] });
    kv.lpush = async () => {
      throw new Error("audit write failed");
    };
    h.deps.logger = log.logger;
    let status: number;
    try {
      status = (await c.post("/dashboard/customers/6933/unblock", {}, form({ reason: "cleared" })))
        .status;
    } finally {
      kv.lpush = realPush;
      h.deps.logger = realLogger;
    }
    expect(status).toBe(303);
    expect(await h.deps.people.blocked.isBlocked(6933)).toBe(false);
    const logged = log.lines.filter(
      (l) => l.msg === "an action was done but its audit entry was not written",
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, action: "unblock", userId: ADMIN });
  });
});
