import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeLabel } from "../../src/http/latency.ts";
import { account } from "../../src/ledger/index.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { mobileInput, placeAndSubmit } from "../support/orders.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The operator's monitoring (issue 26) read from the product's real /metrics, on real Redis: the
 * gauges agree with the books, the open orders and the queue; the route histogram names routes,
 * not paths; readiness (/readyz) is apart from liveness (/healthz).
 */

const TOKEN = "metrics-token-for-tests";

/** One sample of a scrape: the value of `name{labels}` (labels as written, in any order). */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      [...(m[3] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

async function scrape(ts: TestSystem, token = TOKEN) {
  const res = await fetch(ts.system.metricsUrl, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, text: await res.text() };
}

describe("operator's metrics (real Redis, the product as npm start runs it)", () => {
  let ts: TestSystem;
  const customer = 10_001;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: {
        ACCESS_MODE: "prepaid",
        METRICS_TOKEN: TOKEN,
        // No reconciler pass during the test: placed orders stay open as placed.
        RECONCILE_INTERVAL_MS: "3600000",
        RECONCILE_MIN_AGE_MS: "3600000",
      },
    });
    const funded = await ts.system.ledger.transfer({
      id: `ops-fund-${customer}`,
      debit: account.merchant.funding,
      credit: account.customer(customer),
      amountPaisa: 100_000,
      kind: "credit",
    });
    expect(funded.ok).toBe(true);
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("wants the token", async () => {
    expect((await scrape(ts, "wrong")).status).toBe(401);
    expect((await scrape(ts)).status).toBe(200);
  });

  it("counts open orders by status, the money held for them and their age", async () => {
    const who = { userId: customer, chatId: customer };
    await ts.system.orders.place(mobileInput({ ...who, amountPaisa: 10_000 }));
    await ts.system.orders.place(mobileInput({ ...who, amountPaisa: 25_000 }));
    // Success in the execute answer itself: final at once, its hold captured.
    const done = await placeAndSubmit(
      ts.system.orders,
      mobileInput({ ...who, amountPaisa: 5_000, connectionNo: "9841238888" }),
    );
    expect(done.status).toBe("success");

    const { text } = await scrape(ts);
    expect(sample(text, "recharge_open_orders", { status: "placed" })).toBe(2);
    expect(sample(text, "recharge_open_orders", { status: "pending" })).toBe(0);
    expect(sample(text, "recharge_open_orders", { status: "success" })).toBeUndefined();
    expect(sample(text, "recharge_open_orders_truncated")).toBe(0);
    expect(sample(text, "recharge_open_orders_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    // Rs 100 + Rs 250 held; the Rs 50 order's hold was captured.
    expect(sample(text, "recharge_held_rupees")).toBe(350);
    const sales = await ts.system.ledger.balance(account.merchant.sales);
    expect(sales.creditsPending).toBe(35_000);
  });

  it("reports the float as the books expect it and as the aggregator reported it, as /books does", async () => {
    // The first report books the opening float (books/report.ts): read the gauges after it.
    const report = await ts.system.books.report();
    expect(report.float.reportedPaisa).not.toBeNull();
    const { text } = await scrape(ts);
    expect(sample(text, "recharge_float_books_rupees")).toBe(report.float.booksPaisa / 100);
    expect(sample(text, "recharge_float_expected_rupees")).toBe(report.float.expectedPaisa / 100);
    expect(sample(text, "recharge_float_reported_rupees")).toBe(
      (report.float.reportedPaisa ?? 0) / 100,
    );
    expect(sample(text, "recharge_float_reported_timestamp_seconds")).toBeGreaterThan(0);
    expect(sample(text, "recharge_float_low_alert_threshold_rupees")).toBe(5000);
    expect(sample(text, "recharge_alert_active", { alert: "low_float" })).toBe(0);
    expect(sample(text, "recharge_alert_active", { alert: "books_drift" })).toBe(0);
  });

  it("shows the push queue's depth and lag, and the gateway's open top-ups", async () => {
    const { text } = await scrape(ts);
    const queued = sample(text, "recharge_notifications_queued");
    expect(queued).toBeGreaterThanOrEqual(0);
    expect(sample(text, "recharge_notifications_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    const topUpsOpen = async () =>
      sample((await scrape(ts)).text, "recharge_gateway_topups_open", {
        gateway: "khalti",
        status: "initiated",
      });
    expect(await topUpsOpen()).toBe(0);
    // A top-up started at the local Khalti stand-in and not paid: open.
    const topUps = ts.system.topUps;
    if (!topUps) throw new Error("no gateway in local mode");
    const started = await topUps.start({
      userId: customer,
      chatId: customer,
      locale: "en",
      amountPaisa: 50_000,
    });
    expect(started.ok).toBe(true);
    expect(await topUpsOpen()).toBe(1);
    // The success push above is delivered by the notifier: the queue drains to nothing.
    await waitUntil(
      async () => sample((await scrape(ts)).text, "recharge_notifications_queued") === 0,
      "the push queue to drain",
    );
    expect(sample((await scrape(ts)).text, "recharge_notifications_oldest_age_seconds")).toBe(0);
  });

  it("times public requests per route, never per raw path", async () => {
    const hook = `${ts.system.url}${ts.system.config.webhook.path}`;
    expect((await fetch(hook, { method: "POST", body: "not json" })).status).toBeGreaterThanOrEqual(
      400,
    );
    await fetch(`${ts.system.url}/healthz`);
    const { text } = await scrape(ts);
    const posted = sample(text, "http_request_duration_seconds_count", {
      method: "POST",
      route: ts.system.config.webhook.path,
    });
    expect(posted).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "http_request_duration_seconds_count", { route: "/healthz", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005"');
  });

  it("exports the journal as CSV for a date range, behind the token, and refuses a bad range", async () => {
    const base = ts.system.metricsUrl.replace(/\/metrics$/, "/books/journal.csv");
    const get = (query: string, token = TOKEN) =>
      fetch(`${base}${query}`, { headers: { authorization: `Bearer ${token}` } });
    const day = new Date().toISOString().slice(0, 10);
    const next = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`?from=${day}&to=${next}`, "wrong")).status).toBe(401);
    const res = await get(`?from=${day}&to=${next}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "seq,time_utc,id,kind,debit,credit,amount_rs,reference,pending_id,reason",
    );
    // The funding credit, the holds of the three orders and the capture of the successful one.
    expect(lines.find((l) => l.includes(`ops-fund-${customer}`))).toContain(",1000.00,");
    expect(lines.filter((l) => l.includes(`customer:${customer}`)).length).toBeGreaterThanOrEqual(
      4,
    );
    // A range before any of it: the header alone.
    const before = await get(`?from=2020-01-01&to=2020-01-02`);
    expect((await before.text()).trim().split("\r\n")).toHaveLength(1);
    for (const bad of [
      "",
      "?from=2026-04-01",
      "?from=yesterday&to=today",
      `?from=${next}&to=${day}`,
      "?from=2020-01-01&to=2026-01-01",
      "?from=2026-02-30&to=2026-03-01",
    ]) {
      const r = await get(bad);
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as { error: string }).error.length).toBeGreaterThan(0);
    }
  });

  it("keeps the counters' names (Prometheus conventions: _total)", async () => {
    const { text } = await scrape(ts);
    expect(text).toContain("# TYPE recharge_order_transitions_total counter");
    expect(text).toContain("# TYPE recharge_webhooks_received_total counter");
  });

  it("is ready once the bot runs, Redis and the aggregator answer", async () => {
    const ready = await fetch(`${ts.system.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: { redis: "ok", bot: "ok", provider: "ok" },
    });
    expect((await fetch(`${ts.system.url}/healthz`)).status).toBe(200);
  });
});

describe("two instances on one Redis", () => {
  let a: TestSystem;
  let b: TestSystem;
  beforeAll(async () => {
    const env = {
      ACCESS_MODE: "staff",
      METRICS_TOKEN: TOKEN,
      RECONCILE_INTERVAL_MS: "3600000",
      RECONCILE_MIN_AGE_MS: "3600000",
    };
    a = await startTestSystem({ redis: true, env });
    b = await startTestSystem({ redis: true, prefix: a.prefix, env });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.cleanup();
  });

  it("report the same shared figures: an order placed on one is open on the other's gauges", async () => {
    await a.system.orders.place(mobileInput({ userId: 77, chatId: 77 }));
    const open = async (ts: TestSystem) =>
      sample((await scrape(ts)).text, "recharge_open_orders", { status: "placed" });
    expect(await open(a)).toBe(1);
    expect(await open(b)).toBe(1);
  });
});

describe("readiness apart from liveness", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    // The playground against an aggregator that is not there (a closed port).
    ts = await startTestSystem({
      env: {
        PROVIDER_URL: "http://127.0.0.1:9/api/v1",
        PROVIDER_TOKEN: "real-provider-token",
        WEBHOOK_SECRET: "real-webhook-secret",
        PLAYGROUND: "1",
        ALLOW_MEMORY_STORES: "1",
        PROVIDER_MAX_RETRIES: "0",
        PROVIDER_LOOKUP_TIMEOUT_MS: "500",
      },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("an aggregator that does not answer is reported by readiness, and takes no instance out", async () => {
    // Every instance shares the aggregator: were it deciding, its outage would take them all out
    // of the balancer, webhooks, /balance and /status included.
    const ready = await fetch(`${ts.system.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: { bot: "ok", provider: "down" },
    });
    expect((await fetch(`${ts.system.url}/healthz`)).status).toBe(200);
  });
});

describe("readiness and liveness when Redis goes away", () => {
  let own: OwnRedis;
  let ts: TestSystem;
  beforeAll(async () => {
    own = await startOwnRedis();
    ts = await startTestSystem({
      env: { REDIS_URL: own.url, REDIS_PREFIX: "ops-ready:", METRICS_TOKEN: TOKEN },
    });
  });
  afterAll(async () => {
    await ts?.stop().catch(() => undefined);
    await own?.destroy();
  });

  it("both fail while Redis is down, both pass again when it is back, and a scrape still answers", async () => {
    expect((await fetch(`${ts.system.url}/readyz`)).status).toBe(200);
    await own.shutdown();
    const ready = await fetch(`${ts.system.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { redis: "down", bot: "ok" } });
    expect((await fetch(`${ts.system.url}/healthz`)).status).toBe(503);
    // The gauges that read Redis say they do not know (NaN, never 0); the scrape itself answers.
    const down = await scrape(ts);
    expect(down.status).toBe(200);
    expect(sample(down.text, "recharge_held_rupees")).toBeNaN();
    expect(sample(down.text, "recharge_open_orders", { status: "placed" })).toBeUndefined();
    expect(sample(down.text, "recharge_float_low_alert_threshold_rupees")).toBe(5000);
    await own.start();
    await waitUntil(
      async () => (await fetch(`${ts.system.url}/readyz`)).status === 200,
      "ready again",
    );
    expect(sample((await scrape(ts)).text, "recharge_held_rupees")).toBe(0);
  });
});

describe("the route label", () => {
  it("hides the Telegram webhook's token hash", () => {
    expect(routeLabel("/telegram-webhook/0123456789abcdef0123456789abcdef")).toBe(
      "/telegram-webhook/:hash",
    );
    expect(routeLabel("/webhooks/provider")).toBe("/webhooks/provider");
  });
});
