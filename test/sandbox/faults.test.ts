import { createDecipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ProviderRateLimitedError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from "../../src/provider/index.ts";
import { createProviderClient } from "../support/execute-terms.ts";
import {
  call,
  closedAfterEach,
  eventually,
  type Receiver,
  SECRET,
  seeded,
  TOKEN,
} from "../support/sandbox.ts";

/** Faults on demand: 5xx and 429 shares, latency, and webhook duplicates, reorders, delays, drops. */

const started = closedAfterEach();

const mobile = (connectionNo: string, ref: number) => ({
  operator_id: 5,
  operator_type_id: 1,
  connection_no: connectionNo,
  reference_no: ref,
  amount: 100,
});

function statuses(r: Receiver): string[] {
  return r.received.map((x) => {
    const bytes = Buffer.from(JSON.parse(x.body).data, "base64");
    const key = Buffer.alloc(32);
    Buffer.from(SECRET).copy(key);
    const d = createDecipheriv("aes-256-cbc", key, bytes.subarray(0, 16));
    const plain = Buffer.concat([d.update(bytes.subarray(16)), d.final()]).toString("utf8");
    return JSON.parse(plain).status as string;
  });
}

describe("HTTP faults", () => {
  it("answers a share of requests with 5xx before applying anything", async () => {
    const run = await started.sandbox({
      faults: { [TOKEN]: { errorRate5xx: 0.5 } },
      random: seeded(7),
      rateLimitPerSecond: 0,
    });
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) {
      codes.push(
        (await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", i))).status,
      );
    }
    const failed = codes.filter((c) => c >= 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThan(0);
    expect(failed.every((c) => [500, 502, 503, 504].includes(c))).toBe(true);
    // Only the answered executes were applied.
    expect(run.sandbox.ledger(TOKEN)).toHaveLength(40 - failed.length);
  });

  it("answers every request 5xx at share 1, in the endpoint's error shape", async () => {
    const run = await started.sandbox({ faults: { [TOKEN]: { errorRate5xx: 1 } } });
    const lookup = await call(run.base, "GET", "/in/circle");
    expect(lookup.status).toBeGreaterThanOrEqual(500);
    expect(lookup.json).toEqual({ error: true, message: "Service temporarily unavailable" });
    const balance = await call(run.base, "GET", "/wallet/balance");
    expect(balance.json).toEqual({
      status: false,
      message: "Service temporarily unavailable",
      data: [],
    });
    const client = createProviderClient({
      baseUrl: run.base,
      token: TOKEN,
      maxRetries: 1,
      backoffBaseMs: 1,
    });
    try {
      await expect(client.circles()).rejects.toBeInstanceOf(ProviderUnavailableError);
      const r = await client.execute({
        category: "mobile",
        operatorId: 5,
        operatorTypeId: 1,
        connectionNo: "9841234567",
        referenceNo: "1",
        amountPaisa: 10_000,
      });
      expect(r).toMatchObject({ kind: "unknown", reason: "server_error" });
    } finally {
      await client.close();
    }
    expect(run.sandbox.ledger(TOKEN)).toEqual([]);
  });

  it("answers a share of requests with 429 and Retry-After", async () => {
    const run = await started.sandbox({
      faults: { [TOKEN]: { rate429: 0.5 } },
      random: seeded(3),
      rateLimitPerSecond: 0,
    });
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await call(run.base, "GET", "/np/operator-types"));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of limited) {
      expect(a.headers.get("retry-after")).toBe("1");
      expect(a.json).toEqual({ error: true, message: "Too many requests; retry later" });
    }
    run.sandbox.setFaults(TOKEN, { rate429: 1 });
    const exec = await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", 1));
    expect(exec.status).toBe(429);
    expect(exec.json).toMatchObject({ status: "failed", data: [] });
    expect(run.sandbox.ledger(TOKEN)).toEqual([]);
  });

  it("adds latency: a client with a shorter timeout sees a timeout, the execute still applies", async () => {
    const run = await started.sandbox({ faults: { [TOKEN]: { latencyMs: 400 } } });
    const client = createProviderClient({
      baseUrl: run.base,
      token: TOKEN,
      lookupTimeoutMs: 50,
      executeTimeoutMs: 50,
      maxRetries: 0,
    });
    try {
      await expect(client.walletBalance()).rejects.toBeInstanceOf(ProviderTimeoutError);
      const r = await client.execute({
        category: "mobile",
        operatorId: 5,
        operatorTypeId: 1,
        connectionNo: "9841234567",
        referenceNo: "31",
        amountPaisa: 10_000,
      });
      expect(r).toMatchObject({ kind: "unknown", reason: "timeout" });
    } finally {
      await client.close();
    }
    // The sandbox finishes the request after the client gave up: the order exists.
    const sandbox = run.sandbox;
    await eventually(() => expect(sandbox.ledger(TOKEN)).toHaveLength(1));
    sandbox.setFaults(TOKEN, { latencyMs: 0 });
    const status = await call(run.base, "POST", "/np/order/status", { order_id: 31 });
    expect(status.json).toMatchObject({ error: false, data: { order_id: 31 } });
  });
});

describe("webhook faults", () => {
  async function setup(faults: Record<string, unknown>) {
    const receiver = await started.receiver();
    const run = await started.sandbox({
      accounts: [{ token: TOKEN, webhook: { url: receiver.url, secret: SECRET } }],
      faults: { [TOKEN]: faults },
    });
    return { run, receiver };
  }

  it("delivers every event twice with duplicateWebhooks", async () => {
    const { run, receiver } = await setup({ duplicateWebhooks: true });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 41));
    await run.sandbox.settle();
    expect(statuses(receiver)).toEqual(["success", "success"]);
    expect(run.sandbox.deliveries(TOKEN).map((d) => d.duplicate)).toEqual([false, true]);
  });

  it("sends pending after success with outOfOrderWebhooks", async () => {
    const { run, receiver } = await setup({ outOfOrderWebhooks: true });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", 42));
    await run.sandbox.settle();
    expect(statuses(receiver)).toEqual(["success", "pending"]);
  });

  it("sends nothing with dropWebhooks and records the drops", async () => {
    const { run, receiver } = await setup({ dropWebhooks: true });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", 43));
    await run.sandbox.settle();
    expect(receiver.received).toEqual([]);
    expect(run.sandbox.deliveries(TOKEN).map((d) => [d.eventStatus, d.state])).toEqual([
      ["pending", "dropped"],
      ["success", "dropped"],
    ]);
  });

  it("holds deliveries back by webhookDelayMs", async () => {
    const { run, receiver } = await setup({ webhookDelayMs: 60_000 });
    const exec = await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 44));
    expect(exec.json).toMatchObject({ data: { status: "success" } });
    // The transaction is final, its event still waits.
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toEqual([]);
    expect(run.sandbox.deliveries(TOKEN).map((d) => d.state)).toEqual(["scheduled"]);
    await run.sandbox.settle();
    expect(statuses(receiver)).toEqual(["success"]);
  });
});

describe("rate limit", () => {
  it("answers requests beyond the per-token limit with 429, per token and per second", async () => {
    let now = Date.UTC(2025, 0, 1, 0, 0, 0);
    const run = await started.sandbox({
      accounts: [{ token: TOKEN }, { token: "other-token" }],
      rateLimitPerSecond: 3,
      rateLimitClock: () => now,
    });
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await call(run.base, "GET", "/wallet/balance")).status);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await call(run.base, "GET", "/in/circle");
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.json).toEqual({ error: true, message: "Too many requests; retry later" });
    const other = await call(run.base, "GET", "/wallet/balance", undefined, {
      "x-auth-token": "other-token",
    });
    expect(other.status).toBe(200);
    now += 1000;
    expect((await call(run.base, "GET", "/wallet/balance")).status).toBe(200);

    const client = createProviderClient({ baseUrl: run.base, token: TOKEN, maxRetries: 0 });
    try {
      for (let i = 0; i < 2; i++) await client.walletBalance();
      await expect(client.walletBalance()).rejects.toBeInstanceOf(ProviderRateLimitedError);
    } finally {
      await client.close();
    }
  });
});
