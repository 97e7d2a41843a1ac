import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  isProviderError,
  ProviderAuthError,
  type ProviderClientOptions,
  type ProviderError,
  ProviderMalformedResponseError,
  ProviderNetworkError,
  ProviderRateLimitedError,
  ProviderRejectedError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  parseRetryAfter,
} from "../../src/provider/index.ts";
import { createProviderClient } from "../support/execute-terms.ts";
import {
  captureLogger,
  type FakeProvider,
  type Reply,
  recordingSleep,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";

/** Spec section 7 status codes and error shapes -> typed errors; the retry policy, by counting. */

const WALLET = "/wallet/balance";
const wallet = { json: { error: false, message: "ok", data: { credits_available: "10" } } };

let provider: FakeProvider;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  provider = await startFakeProvider();
});
afterEach(async () => {
  provider.requests.length = 0;
  await Promise.all(opened.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await provider.close();
});

function makeClient(extra: Partial<ProviderClientOptions> = {}) {
  const sleeper = recordingSleep();
  const logger = captureLogger();
  const client = createProviderClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    sleep: sleeper.sleep,
    logger,
    ...extra,
  });
  opened.push(client);
  return { client, waits: sleeper.waits, logger };
}

/** Serves the replies in order, repeating the last one. */
function sequence(...replies: Reply[]) {
  return (_req: unknown, n: number) => replies[Math.min(n, replies.length) - 1]!;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(isProviderError(error)).toBe(true);
  return error as ProviderError;
}

describe("status codes of spec section 7 on a lookup", () => {
  const cases: Array<{
    status: number;
    reply: Reply;
    type: abstract new (...args: never[]) => ProviderError;
    kind: string;
    message?: string;
  }> = [
    {
      status: 400,
      reply: { status: 400, json: { error: true, message: "Bad request: operator_id" } },
      type: ProviderRejectedError,
      kind: "rejected",
      message: "Bad request: operator_id",
    },
    {
      status: 400,
      reply: { status: 400, json: { status: "failed", message: "Invalid order", data: [] } },
      type: ProviderRejectedError,
      kind: "rejected",
      message: "Invalid order",
    },
    {
      status: 401,
      reply: { status: 401, json: { error: true, message: "Unauthenticated." } },
      type: ProviderAuthError,
      kind: "auth",
      message: "Unauthenticated.",
    },
    {
      status: 404,
      reply: { status: 404, text: "<html>Not Found</html>" },
      type: ProviderRejectedError,
      kind: "rejected",
    },
    {
      status: 422,
      reply: { status: 422, json: { status: false, message: "Validation failed", data: [] } },
      type: ProviderRejectedError,
      kind: "rejected",
      message: "Validation failed",
    },
  ];

  for (const c of cases) {
    it(`${c.status} -> ${c.type.name}, not retried`, async () => {
      const { client } = makeClient();
      provider.on("GET", WALLET, c.reply);
      const error = await failure(client.walletBalance());
      expect(error).toBeInstanceOf(c.type);
      expect(error.kind).toBe(c.kind);
      expect(error.httpStatus).toBe(c.status);
      expect(error.endpoint).toBe("GET /wallet/balance");
      expect(error.providerMessage).toBe(c.message);
      expect(provider.received("GET", WALLET)).toHaveLength(1);
    });
  }

  for (const status of [500, 502, 503, 504]) {
    it(`${status} -> ProviderUnavailableError after 1 + maxRetries requests`, async () => {
      const { client, waits } = makeClient({ maxRetries: 3 });
      provider.on("GET", WALLET, { status, json: { error: true, message: "Server Error" } });
      const error = await failure(client.walletBalance());
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error.httpStatus).toBe(status);
      expect(error.providerMessage).toBe("Server Error");
      expect(provider.received("GET", WALLET)).toHaveLength(4);
      expect(waits).toHaveLength(3);
    });
  }

  it("201 and 202 are successes", async () => {
    const { client } = makeClient();
    for (const status of [201, 202]) {
      provider.on("GET", WALLET, { ...wallet, status });
      expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: 1000 });
    }
  });

  it("malformed bodies -> ProviderMalformedResponseError, not retried", async () => {
    const bodies: Array<[Reply, string]> = [
      [{ text: "<html><body>502 Bad Gateway</body></html>" }, "HTML instead of JSON"],
      [{ text: "", contentType: "application/json" }, "empty body"],
      [{ text: "ok", contentType: "text/plain" }, "body is not JSON"],
      [{ json: { hello: "world" } }, "neither a success nor an error envelope"],
      [
        { json: { error: false, message: "ok", data: { credits_available: "lots" } } },
        "credits_available",
      ],
      [{ status: 302, text: "", headers: { location: "/elsewhere" } }, "unexpected HTTP status"],
    ];
    const { client } = makeClient();
    for (const [reply, detail] of bodies) {
      provider.requests.length = 0;
      provider.on("GET", WALLET, reply);
      const error = await failure(client.walletBalance());
      expect(error).toBeInstanceOf(ProviderMalformedResponseError);
      expect((error as ProviderMalformedResponseError).detail).toContain(detail);
      expect(provider.received("GET", WALLET)).toHaveLength(1);
    }
  });
});

describe("retry policy of non-execute calls", () => {
  it("429 with Retry-After in seconds: waits exactly that long, then succeeds", async () => {
    const { client, waits } = makeClient();
    provider.on(
      "GET",
      WALLET,
      sequence(
        {
          status: 429,
          json: { error: true, message: "Slow down" },
          headers: { "retry-after": "2" },
        },
        wallet,
      ),
    );
    expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: 1000 });
    expect(provider.received("GET", WALLET)).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it("429 with Retry-After as an HTTP-date: waits until then", async () => {
    const { client, waits } = makeClient();
    provider.on("POST", "/np/order/status", (_req, n) =>
      n === 1
        ? {
            status: 429,
            json: { error: true, message: "Slow down" },
            headers: { "retry-after": new Date(Date.now() + 5_000).toUTCString() },
          }
        : {
            json: {
              error: false,
              message: "ok",
              data: {
                status: "success",
                transaction_id: 1,
                order_id: 2,
                amount: 50,
                timestamp: "December 21,2024 9:03pm",
                details: { connection_no: "9841234567", operator: "NTC" },
                package_name: null,
              },
            },
          },
    );
    expect((await client.statusByReference("np", "2")).status).toBe("success");
    expect(provider.received("POST", "/np/order/status")).toHaveLength(2);
    expect(waits).toHaveLength(1);
    // The date has one-second resolution: the wait lies between 3 and 5 seconds.
    expect(waits[0]).toBeGreaterThan(3_000);
    expect(waits[0]).toBeLessThanOrEqual(5_000);
  });

  it("429 whose Retry-After exceeds maxRetryAfterMs is thrown at once with retryAfterMs", async () => {
    const { client, waits } = makeClient({ maxRetryAfterMs: 10_000 });
    provider.on("GET", WALLET, {
      status: 429,
      json: { error: true, message: "Quota exceeded" },
      headers: { "retry-after": "3600" },
    });
    const error = await failure(client.walletBalance());
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(error.providerMessage).toBe("Quota exceeded");
    expect(provider.received("GET", WALLET)).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("429 without Retry-After: exponential backoff, then ProviderRateLimitedError", async () => {
    const { client, waits } = makeClient({ maxRetries: 2, random: () => 0.5 });
    provider.on("GET", WALLET, { status: 429, json: { error: true, message: "Throttled" } });
    const error = await failure(client.walletBalance());
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterMs).toBeNull();
    expect(provider.received("GET", WALLET)).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it("5xx then success: retried once", async () => {
    const { client, waits } = makeClient();
    provider.on("GET", WALLET, sequence({ status: 503, text: "<html>Maintenance</html>" }, wallet));
    expect(await client.walletBalance()).toEqual({ creditAvailablePaisa: 1000 });
    expect(provider.received("GET", WALLET)).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it("backoff is full jitter under an exponential, capped ceiling", async () => {
    const high = makeClient({ maxRetries: 4, backoffBaseMs: 200, random: () => 0.999 });
    provider.on("GET", WALLET, { status: 500, json: { error: true, message: "x" } });
    await failure(high.client.walletBalance());
    expect(high.waits).toEqual([199, 399, 799, 1598]);

    const capped = makeClient({
      maxRetries: 3,
      backoffBaseMs: 2_000,
      maxBackoffMs: 5_000,
      random: () => 0.999,
    });
    await failure(capped.client.walletBalance());
    expect(capped.waits).toEqual([1998, 3996, 4995]);

    const low = makeClient({ maxRetries: 2, random: () => 0 });
    await failure(low.client.walletBalance());
    expect(low.waits).toEqual([0, 0]);
    expect(provider.received("GET", WALLET)).toHaveLength(5 + 4 + 3);
  });

  it("timeouts are retried, then ProviderTimeoutError", async () => {
    const { client, waits } = makeClient({ lookupTimeoutMs: 150, maxRetries: 1 });
    provider.on("GET", "/in/circle", { hold: true });
    const error = await failure(client.circles());
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).timeoutMs).toBe(150);
    expect(provider.received("GET", "/in/circle")).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it("connection resets are retried, then ProviderNetworkError", async () => {
    const { client } = makeClient({ maxRetries: 2 });
    provider.on("POST", "/utility/office-codes", { destroy: true });
    const error = await failure(client.officeCodes(46));
    expect(error).toBeInstanceOf(ProviderNetworkError);
    expect(provider.received("POST", "/utility/office-codes")).toHaveLength(3);
  });

  it("a reset followed by an answer recovers", async () => {
    const { client } = makeClient();
    provider.on(
      "POST",
      "/utility/office-codes",
      sequence({ destroy: true }, { json: { error: false, message: "ok", data: [] } }),
    );
    expect(await client.officeCodes(46)).toEqual([]);
    expect(provider.received("POST", "/utility/office-codes")).toHaveLength(2);
  });

  it("maxRetries 0: exactly one attempt", async () => {
    const { client } = makeClient({ maxRetries: 0 });
    provider.on("GET", WALLET, { status: 502, text: "Bad Gateway" });
    await failure(client.walletBalance());
    expect(provider.received("GET", WALLET)).toHaveLength(1);
  });

  it("a 2xx error envelope is not retried", async () => {
    const { client } = makeClient();
    provider.on("GET", WALLET, { json: { status: false, message: "Wallet locked", data: [] } });
    const error = await failure(client.walletBalance());
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(provider.received("GET", WALLET)).toHaveLength(1);
  });

  it("execute is never retried, even on 429 or 5xx", async () => {
    const { client, waits } = makeClient();
    const mobile = {
      category: "mobile",
      operatorId: 5,
      operatorTypeId: 1,
      connectionNo: "9841234567",
      referenceNo: "1",
      amountPaisa: 5000,
    } as const;
    provider.on("POST", "/np/recharge/execute", {
      status: 429,
      json: { error: true, message: "x" },
    });
    expect((await client.execute(mobile)).kind).toBe("rejected");
    provider.on("POST", "/np/recharge/execute", { status: 503, text: "" });
    expect((await client.execute(mobile)).kind).toBe("unknown");
    expect(provider.received("POST", "/np/recharge/execute")).toHaveLength(2);
    expect(waits).toEqual([]);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP-dates", () => {
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("1.5", now)).toBe(1_500);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(["7", "9"], now)).toBe(7_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });
});

describe("the token never leaks", () => {
  /** A provider that echoes the token back in every message it can. */
  const echo = `token ${TOKEN} is not bound to this IP`;

  function assertClean(value: unknown) {
    const texts = [
      JSON.stringify(value, (_k, v: unknown) =>
        v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v,
      ),
      inspect(value, { depth: 10 }),
    ];
    if (value instanceof Error) texts.push(value.message, String(value.stack));
    for (const text of texts) expect(text).not.toContain(TOKEN);
  }

  it("in every typed error, its message, stack and fields, and in every log call", async () => {
    const { client, logger } = makeClient({ maxRetries: 1, lookupTimeoutMs: 150 });
    const replies: Array<[string, Reply]> = [
      ["auth", { status: 401, json: { error: true, message: echo } }],
      ["rejected", { status: 400, json: { status: "failed", message: echo, data: [] } }],
      ["rejected", { json: { error: true, message: echo } }],
      ["rate_limited", { status: 429, json: { error: true, message: echo } }],
      ["unavailable", { status: 500, json: { error: true, message: echo } }],
      ["malformed", { json: { error: false, message: echo, data: { nope: echo } } }],
      ["timeout", { hold: true }],
      ["network", { destroy: true }],
    ];
    for (const [kind, reply] of replies) {
      provider.on("GET", WALLET, reply);
      const error = await failure(client.walletBalance());
      expect(error.kind).toBe(kind);
      assertClean(error);
      if (error.providerMessage !== undefined) {
        expect(error.providerMessage).toBe("token [redacted] is not bound to this IP");
      }
    }
    expect(logger.calls.length).toBeGreaterThan(0);
    assertClean(logger.calls);
  });

  it("in execute results and their log calls", async () => {
    const { client, logger } = makeClient({ executeTimeoutMs: 150 });
    const req = {
      category: "dth",
      operatorId: 36,
      operatorTypeId: 2,
      connectionNo: "CAS-1",
      packageId: "P1",
      referenceNo: "R-1",
    } as const;
    const replies: Reply[] = [
      { status: 401, json: { error: true, message: echo } },
      { json: { status: false, message: echo, data: [] } },
      { status: 502, json: { error: true, message: echo } },
      { json: { error: false, message: echo, data: { amount: echo } } },
      { hold: true },
      { destroy: true },
    ];
    const results = [];
    for (const reply of replies) {
      provider.on("POST", "/np/recharge/execute", reply);
      results.push(await client.execute(req));
    }
    expect(results.map((r) => r.kind)).toEqual([
      "rejected",
      "rejected",
      "unknown",
      "unknown",
      "unknown",
      "unknown",
    ]);
    expect(results[0]).toMatchObject({ message: "token [redacted] is not bound to this IP" });
    assertClean(results);
    expect(logger.calls.length).toBeGreaterThan(0);
    assertClean(logger.calls);
  });
});
