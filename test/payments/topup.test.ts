import { describe, expect, it } from "vitest";
import { STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import { account } from "../../src/ledger/index.ts";
import type { TopUp } from "../../src/payments/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { useTopUpSystem } from "../support/topup-system.ts";
import { sleep, waitUntil } from "../support/wait.ts";

/**
 * Adding money through Khalti (issue 17), against the local stand-in over loopback, the whole
 * product running (memory stores and Redis): only a lookup's Completed credits, once per pidx,
 * with the amount Khalti reports; forged, repeated and missing redirects; cancel, expiry, pending
 * then completed, lookup failures, a refund that reverses the credit and alerts the admin.
 */

describe.each([
  ["memory", false],
  ["redis", true],
])("top-ups through Khalti (%s)", (_name, redis) => {
  const sys = useTopUpSystem(redis, { TOPUP_REFUND_CHECK_MS: "150" });
  const { topUps, khalti, ledger, balance, entries: topUpEntries, pushes, start, open } = sys;

  /** The payer's browser on the stand-in's page: the redirect it gets, if any. */
  async function act(t: TopUp, action: "pay" | "cancel" | "pending"): Promise<string | null> {
    const res = await fetch(`${sys.ts().system.url}/khalti/pay/${t.paymentId}/${action}`, {
      method: "POST",
      redirect: "manual",
    });
    await res.text();
    return res.status === 302 ? res.headers.get("location") : null;
  }

  it("pays, redirects, confirms by lookup and credits what Khalti reports, with the push", async () => {
    const t = await start(801, 500);
    expect(t.paymentUrl).toBe(`${sys.ts().system.url}/khalti/pay?pidx=${t.paymentId}`);
    const page = await open(t.paymentUrl);
    expect(page.html).toContain("Rs 500.00");
    const back = await act(t, "pay");
    expect(back).toMatch(
      new RegExp(
        `^${sys.ts().system.url}/pay/khalti/return\\?pidx=${t.paymentId}&status=Completed`,
      ),
    );
    const ret = await open(back!);
    expect(ret.status).toBe(200);
    expect(ret.html).toContain("Payment received");
    const stored = await topUps().get(t.paymentId);
    expect(stored).toMatchObject({
      status: "completed",
      creditedPaisa: 50_000,
      feePaisa: khalti().payment(t.paymentId)!.fee,
      transactionId: khalti().payment(t.paymentId)!.transactionId,
    });
    expect(await balance(801)).toBe(50_000);
    const entries = await topUpEntries(t.paymentId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "topup",
      debit: account.merchant.gateway("khalti"),
      credit: account.customer(801),
      amountPaisa: 50_000,
      reference: `khalti pidx=${t.paymentId} txn=${stored?.transactionId} fee=${stored?.feePaisa}`,
    });
    expect(stored?.feePaisa).toBe(1_500);
    await waitUntil(
      () => pushes(801).find((p) => p.includes("Rs 500 added to your balance. Balance: Rs 500")),
      "the credit push",
    );
    // The return page reveals nothing a forged redirect could use: no amount, no ids, no name.
    expect(ret.html).not.toContain(t.paymentId);
    expect(ret.html).not.toContain("500");
    await expectBooksBalanced(ledger());
  });

  it("a forged redirect (status=Completed, any pidx) credits nothing", async () => {
    const t = await start(802, 300);
    const forgedReal = await open(
      `${sys.ts().system.url}/pay/khalti/return?pidx=${t.paymentId}&status=Completed&amount=30000&transaction_id=FAKE`,
    );
    expect(forgedReal.html).toContain("Confirming payment");
    const forgedUnknown = await open(
      `${sys.ts().system.url}/pay/khalti/return?pidx=AAAAAAAAAAAAAAAAAAAAAA&status=Completed&total_amount=99900`,
    );
    expect(forgedUnknown.status).toBe(200);
    expect(forgedUnknown.html).toContain("Payment not completed");
    const malformed = await open(`${sys.ts().system.url}/pay/khalti/return?status=Completed`);
    expect(malformed.status).toBe(400);
    await sleep(400); // reconciler passes too
    expect(await balance(802)).toBe(0);
    expect((await topUps().get(t.paymentId))?.status).toBe("initiated");
    expect(await topUpEntries(t.paymentId)).toHaveLength(0);
  });

  it("a redirect twice and ten lookups credit once", async () => {
    const t = await start(803, 250);
    const back = (await act(t, "pay"))!;
    await Promise.all([
      open(back),
      open(back),
      ...Array.from({ length: 10 }, () => topUps().confirm("khalti", t.paymentId)),
    ]);
    await open(back);
    expect(await balance(803)).toBe(25_000);
    expect(await topUpEntries(t.paymentId)).toHaveLength(1);
    await waitUntil(() => pushes(803).some((p) => p.includes("Rs 250 added")), "the push");
    await sleep(300);
    expect(pushes(803).filter((p) => p.includes("Rs 250 added"))).toHaveLength(1);
    await expectBooksBalanced(ledger());
  });

  it("a redirect that never comes is settled by the reconciler", async () => {
    khalti().setFaults({ noRedirect: true });
    try {
      const t = await start(804, 120);
      expect(await act(t, "pay")).toBeNull();
      await waitUntil(
        async () => (await topUps().get(t.paymentId))?.status === "completed",
        "the reconciler's credit",
      );
      expect(await balance(804)).toBe(12_000);
      await waitUntil(() => pushes(804).some((p) => p.includes("Rs 120 added")), "the push");
    } finally {
      khalti().setFaults({ noRedirect: false });
    }
  });

  it("pending, then completed later: the reconciler credits when Khalti completes it", async () => {
    khalti().setFaults({ pendingThenCompletedMs: 600 });
    try {
      const t = await start(805, 200);
      const back = (await act(t, "pay"))!;
      expect(back).toContain("status=Pending");
      expect((await open(back)).html).toContain("Confirming payment");
      expect((await topUps().get(t.paymentId))?.status).toBe("pending");
      expect(await balance(805)).toBe(0);
      await waitUntil(
        async () => (await topUps().get(t.paymentId))?.status === "completed",
        "completed later",
        { timeoutMs: 5000 },
      );
      expect(await balance(805)).toBe(20_000);
    } finally {
      khalti().setFaults({ pendingThenCompletedMs: null });
    }
  });

  it("lookups answering 5xx: the return page says confirming, the reconciler credits later", async () => {
    const t = await start(806, 150);
    const back = (await act(t, "pay"))!;
    khalti().setFaults({ lookup5xx: 3 });
    const ret = await open(back);
    expect(ret.html).toContain("Confirming payment");
    await waitUntil(
      async () => (await topUps().get(t.paymentId))?.status === "completed",
      "the credit after the 5xx",
    );
    expect(await balance(806)).toBe(15_000);
  });

  it("cancelled: a message, nothing credited", async () => {
    const t = await start(807, 100);
    const back = (await act(t, "cancel"))!;
    expect(back).toContain("status=User+canceled");
    const ret = await open(back);
    expect(ret.html).toContain("Payment not completed");
    expect((await topUps().get(t.paymentId))?.status).toBe("cancelled");
    await waitUntil(
      () => pushes(807).some((p) => p.includes("Rs 100 was cancelled. Nothing was added")),
      "the cancel push",
    );
    expect(await balance(807)).toBe(0);
    expect(await topUpEntries(t.paymentId)).toHaveLength(0);
  });

  it("a refund reported later reverses the credit and alerts the admin", async () => {
    const t = await start(808, 400);
    await open((await act(t, "pay"))!);
    expect(await balance(808)).toBe(40_000);
    khalti().refund(t.paymentId);
    await waitUntil(
      async () => (await topUps().get(t.paymentId))?.status === "refunded",
      "the refund",
    );
    expect(await balance(808)).toBe(0);
    const entries = await topUpEntries(t.paymentId);
    expect(entries.map((e) => [e.kind, e.amountPaisa])).toEqual([
      ["topup", 40_000],
      ["reversal", 40_000],
    ]);
    await waitUntil(
      () => pushes(808).some((p) => p.includes("Khalti refunded your payment of Rs 400")),
      "the refund push",
    );
    const admin = sys.ts().user(3001);
    await waitUntil(
      () => admin.botTexts().some((p) => p.includes(`top-up ${t.paymentId} refunded`)),
      "the admin alert",
    );
    await expectBooksBalanced(ledger());
  });

  it("a refund after the balance was spent takes back what is there and tells the admin the shortfall", async () => {
    const t = await start(809, 300);
    await open((await act(t, "pay"))!);
    // The customer spends Rs 200 of it (as an order's captured hold would).
    const spent = await ledger().transfer({
      id: "spend-809",
      debit: account.customer(809),
      credit: account.merchant.sales,
      amountPaisa: 20_000,
      kind: "adjustment",
      reason: "test spend",
    });
    expect(spent.ok).toBe(true);
    // A full refund (a partial one waits for an admin's figure: partial-refund.test.ts).
    khalti().refund(t.paymentId);
    await waitUntil(
      async () => (await topUps().get(t.paymentId))?.status === "refunded",
      "the refund",
    );
    expect((await topUps().get(t.paymentId))?.reversedPaisa).toBe(10_000);
    expect(await balance(809)).toBe(0);
    await waitUntil(
      () =>
        sys
          .ts()
          .user(3001)
          .botTexts()
          .some((p) => p.includes("short by Rs 200")),
      "the shortfall alert",
    );
    await expectBooksBalanced(ledger());
  });

  it("a refund whose customer blocked the bot still tells the admin the shortfall; the push is given up", async () => {
    const t = await start(812, 300);
    await open((await act(t, "pay"))!);
    await waitUntil(
      async () => (await topUps().get(t.paymentId))?.notified === "completed",
      "the credit's push",
    );
    const spent = await ledger().transfer({
      id: "spend-812",
      debit: account.customer(812),
      credit: account.merchant.sales,
      amountPaisa: 30_000,
      kind: "adjustment",
      reason: "test spend",
    });
    expect(spent.ok).toBe(true);
    sys.ts().system.emulator!.users.block(812, true);
    khalti().refund(t.paymentId);
    await waitUntil(
      () =>
        sys
          .ts()
          .user(3001)
          .botTexts()
          .some((p) => p.includes(t.paymentId) && p.includes("short by Rs 300")),
      "the shortfall alert",
    );
    // Telegram's 403 is for good (as the notifier reads it): tried once, recorded, not again.
    await waitUntil(
      async () => (await topUps().get(t.paymentId))?.pushFailed?.gaveUp === true,
      "the push given up",
    );
    expect(await topUps().get(t.paymentId)).toMatchObject({
      status: "refunded",
      reversedPaisa: 0,
      notified: "completed",
      pushFailed: { status: "refunded", tries: 1, gaveUp: true },
      refundAlert: { done: true },
    });
    await expectBooksBalanced(ledger());
  });

  it("refuses amounts below Rs 10, above the maximum and over the daily cap", async () => {
    const s = (userId: number, paisa: number) =>
      topUps().start({ userId, chatId: userId, locale: "en", amountPaisa: paisa });
    expect(await s(810, 999)).toMatchObject({ ok: false, reason: "below", limitPaisa: 1000 });
    expect(await s(810, 500_100)).toMatchObject({
      ok: false,
      reason: "above",
      limitPaisa: 500_000,
    });
    expect((await s(810, 500_000)).ok).toBe(true);
    expect(await s(810, 300_100)).toMatchObject({
      ok: false,
      reason: "daily_cap",
      remainingPaisa: 300_000,
    });
    expect((await s(810, 300_000)).ok).toBe(true);
  });

  it("never writes the secret key to a log line or a page", async () => {
    const t = await start(811, 50);
    const pages = [
      await open(t.paymentUrl),
      await open(`${sys.ts().system.url}/pay/khalti/return?pidx=${t.paymentId}`),
    ];
    for (const p of pages) expect(p.html).not.toContain(STANDIN_SECRET_KEY);
    expect(sys.ts().logs.join("")).not.toContain(STANDIN_SECRET_KEY);
    // Nor any chat message: the customers' pushes and the admin's alerts.
    const chats = [801, 802, 803, 804, 805, 806, 807, 808, 809, 3001].flatMap((id) =>
      sys.ts().user(id).botTexts(),
    );
    expect(chats.length).toBeGreaterThan(8);
    for (const text of chats) expect(text).not.toContain(STANDIN_SECRET_KEY);
    expect(sys.ts().logs.length).toBeGreaterThan(10);
  });
});
