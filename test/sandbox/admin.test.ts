import { describe, expect, it } from "vitest";
import { call, closedAfterEach, SECRET, TOKEN } from "../support/sandbox.ts";

/** The admin API under /_sandbox: webhook, faults, ledger, balance, transactions, forced status. */

const started = closedAfterEach();

const ADMIN = "admin-secret-token";
const admin = { "x-admin-token": ADMIN };

async function start() {
  return started.sandbox({
    accounts: [{ token: TOKEN }, { token: "second-token", balancePaisa: 5_000 }],
    adminToken: ADMIN,
    // Long enough that a transaction stays queued until the test forces its status.
    delays: { toPendingMs: 60_000, toFinalMs: 60_000 },
  });
}

describe("admin API", () => {
  it("requires the admin token", async () => {
    const run = await start();
    const attempts: Array<Record<string, string>> = [
      {},
      { "x-auth-token": TOKEN },
      { "x-admin-token": "wrong" },
    ];
    for (const headers of attempts) {
      const r = await call(run.base, "GET", "/_sandbox/ledger", undefined, headers);
      expect(r.status).toBe(401);
    }
    const ok = await call(run.base, "GET", "/_sandbox/ledger", undefined, {
      "x-auth-token": ADMIN,
    });
    expect(ok.status).toBe(200);
  });

  it("defaults the admin token to the first account's token", async () => {
    const run = await started.sandbox();
    expect(run.sandbox.adminToken).toBe(TOKEN);
    const r = await call(run.base, "GET", "/_sandbox/accounts", undefined, {
      "x-admin-token": TOKEN,
    });
    expect(r.json).toMatchObject({ data: [{ token: TOKEN, balance_paisa: 100_000_00 }] });
  });

  it("reads and sets balances per account, and rejects an unknown account", async () => {
    const run = await start();
    const second = await call(
      run.base,
      "GET",
      "/_sandbox/ledger?account=second-token",
      undefined,
      admin,
    );
    expect(second.json).toEqual({ error: false, data: { balance_paisa: 5_000, entries: [] } });
    const set = await call(run.base, "PUT", "/_sandbox/balance", { balance_paisa: 123_45 }, admin);
    expect(set.json).toEqual({ error: false, data: { balance_paisa: 123_45 } });
    const wallet = await call(run.base, "GET", "/wallet/balance");
    expect(wallet.json).toEqual({
      error: false,
      message: "Wallet balance",
      data: { credits_available: "123.45" },
    });
    const bad = await call(run.base, "PUT", "/_sandbox/balance", { balance_paisa: -1 }, admin);
    expect(bad.status).toBe(400);
    const unknown = await call(
      run.base,
      "GET",
      "/_sandbox/ledger?account=nobody",
      undefined,
      admin,
    );
    expect(unknown.status).toBe(404);
  });

  it("sets, reads and clears faults, refusing values out of range", async () => {
    const run = await start();
    const set = await call(
      run.base,
      "PUT",
      "/_sandbox/faults",
      { errorRate5xx: 1, dropWebhooks: true },
      admin,
    );
    expect(set.json).toMatchObject({ data: { errorRate5xx: 1, dropWebhooks: true, rate429: 0 } });
    expect((await call(run.base, "GET", "/in/circle")).status).toBeGreaterThanOrEqual(500);
    const bad = await call(run.base, "PUT", "/_sandbox/faults", { errorRate5xx: 2 }, admin);
    expect(bad.status).toBe(400);
    const unknownField = await call(run.base, "PUT", "/_sandbox/faults", { chaos: true }, admin);
    expect(unknownField.status).toBe(400);
    const cleared = await call(run.base, "DELETE", "/_sandbox/faults", undefined, admin);
    expect(cleared.json).toMatchObject({ data: { errorRate5xx: 0, dropWebhooks: false } });
    expect((await call(run.base, "GET", "/in/circle")).status).toBe(200);
  });

  it("lists transactions and the ledger, forces statuses, refunds a forced failure", async () => {
    const receiver = await started.receiver();
    const run = await start();
    await call(run.base, "PUT", "/_sandbox/webhook", { url: receiver.url, secret: SECRET }, admin);
    const exec = await call(run.base, "POST", "/np/recharge/execute", {
      operator_id: 5,
      operator_type_id: 1,
      connection_no: "9841239999",
      reference_no: 501,
      amount: 200,
    });
    const txId = String((exec.json.data as { transaction_id: number }).transaction_id);
    const txs = await call(run.base, "GET", "/_sandbox/transactions", undefined, admin);
    expect(txs.json).toMatchObject({
      data: [{ transactionId: txId, referenceNo: "501", status: "queued", outcome: "hold" }],
    });

    const forced = await call(
      run.base,
      "POST",
      `/_sandbox/transactions/${txId}/status`,
      { status: "failed" },
      admin,
    );
    expect(forced.json).toMatchObject({ data: { status: "failed", refundPaisa: 20_000 } });
    expect(run.sandbox.balance(TOKEN)).toBe(100_000_00);
    const revive = await call(
      run.base,
      "POST",
      `/_sandbox/transactions/${txId}/status`,
      { status: "success" },
      admin,
    );
    expect(revive.status).toBe(409);
    const missing = await call(
      run.base,
      "POST",
      "/_sandbox/transactions/1/status",
      { status: "success" },
      admin,
    );
    expect(missing.status).toBe(404);

    const ledger = await call(run.base, "GET", "/_sandbox/ledger", undefined, admin);
    expect(ledger.json).toMatchObject({
      data: {
        balance_paisa: 100_000_00,
        entries: [
          { referenceNo: "501", debitPaisa: 20_000, refundPaisa: 20_000, status: "failed" },
        ],
      },
    });
    await call(run.base, "POST", "/_sandbox/settle", undefined, admin);
    const deliveries = await call(run.base, "GET", "/_sandbox/deliveries", undefined, admin);
    const list = deliveries.json.data as Array<{
      eventStatus: string;
      state: string;
      attempts: Array<{ at: string; statusCode: number | null; error: string | null }>;
    }>;
    expect(list).toEqual([
      expect.objectContaining({
        eventStatus: "failed",
        state: "delivered",
        attempts: [expect.objectContaining({ statusCode: 200, error: null })],
      }),
    ]);
    // The forced failure stopped the lifecycle: no later pending or success event.
    expect(run.sandbox.transactions(TOKEN)[0]!.history.map((h) => h.status)).toEqual([
      "queued",
      "failed",
    ]);
  });

  it("validates the webhook settings", async () => {
    const run = await start();
    const bad = await call(
      run.base,
      "PUT",
      "/_sandbox/webhook",
      { url: "ftp://x", secret: "" },
      admin,
    );
    expect(bad.status).toBe(400);
    const connect = await call(run.base, "POST", "/_sandbox/webhook/connect", undefined, admin);
    expect(connect.status).toBe(409);
  });
});
