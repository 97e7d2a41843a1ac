import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Registry } from "prom-client";
import { createLogger, type Logger } from "../logger.ts";
import { accessLog } from "./access-log.ts";
import { csvDownload, errorOf } from "./csv-download.ts";
import { type JournalRange, journalRangeSchema } from "./journal-range.ts";
import { httpLatency } from "./latency.ts";

export interface HealthCheck {
  name: string;
  /** Resolves true when the dependency answers; must not throw. */
  check: () => Promise<boolean>;
  /** false: reported in `checks` but does not make /healthz 503. Default true. */
  critical?: boolean;
}

/**
 * The public Hono app of the process. Parts mount their routes on it; this module owns the
 * operational parts: the access log, the latency histogram, secure headers, /healthz (liveness),
 * /readyz (readiness), and the answers to an unknown route or a crashed handler. Metrics are NOT
 * served here: they have a listener of their own (createMetricsApp).
 */
export function createHttpApp(opts: {
  health: HealthCheck[];
  /**
   * What readiness wants beyond the critical health checks (the bot started, the aggregator
   * answering lately); read at each request, so parts may add theirs after the app is built.
   */
  readiness?: HealthCheck[];
  logger: Logger;
  registry?: Registry;
  /**
   * The webhooks' exact paths (the aggregator's, WhatsApp's, Telegram's): their POSTs go without
   * the browser headers. Read at each request, so parts add theirs as they mount them.
   */
  webhookPosts?: ReadonlySet<string>;
}) {
  const app = new Hono();
  if (opts.registry) app.use(httpLatency(opts.registry));
  app.use(accessLog(opts.logger));
  // The playground page loads its script, style and icon from this origin and talks to it through
  // fetch and EventSource: nothing inline, nothing third-party, so the strictest policy fits. The
  // back office sets its own, stricter one (no script at all), which this one would overwrite.
  const appHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
  // A webhook's POST is answered to a server (the aggregator, Meta, Telegram) that renders
  // nothing: the ~15 headers would be CPU spent for no reader. Its GET (WhatsApp's handshake
  // echoes hub.challenge) and every other path keep them.
  const webhookPosts = opts.webhookPosts ?? new Set<string>();
  app.use((c, next) => {
    const path = c.req.path;
    // The back office's own paths only: /dashboardX is the public app's 404 (review s32 nit 3).
    if (path === "/dashboard" || path.startsWith("/dashboard/")) return next();
    if (c.req.method === "POST" && webhookPosts.has(path)) return next();
    return appHeaders(c, next);
  });

  // Liveness: is this process of use at all (Redis answers)? A container orchestrator restarts
  // on it, so it must not depend on anything outside the operator's hands (Telegram, the aggregator).
  app.get("/healthz", async (c) => {
    const { checks, ok } = await runChecks(opts.health);
    return c.json({ status: ok ? "ok" : "unavailable", checks }, ok ? 200 : 503);
  });
  // Readiness: may this instance take traffic now? Liveness's critical checks, plus the bot
  // started and the aggregator answering lately. A load balancer stops sending to it meanwhile;
  // nothing restarts it.
  app.get("/readyz", async (c) => {
    const { checks, ok } = await runChecks([...opts.health, ...(opts.readiness ?? [])]);
    return c.json({ status: ok ? "ready" : "not ready", checks }, ok ? 200 : 503);
  });

  app.notFound((c) => c.json({ ok: false, error: "not found" }, 404));
  // Hono's default prints the whole context (a bot token included) with console.error: log the
  // error alone through pino (which scrubs secrets) and tell the client nothing about it.
  app.onError((err, c) => {
    opts.logger.error(
      { requestId: c.get("requestId"), err: { message: err.message, stack: err.stack } },
      "request failed",
    );
    return c.json({ ok: false, error: "internal error" }, 500);
  });

  return app;
}

/** Runs the checks at once; a non-critical one is reported but does not decide. */
async function runChecks(list: readonly HealthCheck[]) {
  const results = await Promise.all(
    list.map(async (h) => [h.name, await h.check().catch(() => false)] as const),
  );
  const checks = Object.fromEntries(results.map(([n, ok]) => [n, ok ? "ok" : "down"]));
  const ok = results.every(([, up], i) => up || list[i]?.critical === false);
  return { checks, ok };
}

/**
 * The metrics listener's app: GET /metrics only, behind a bearer token when one is configured.
 * It is served on METRICS_HOST:METRICS_PORT (loopback by default), never on the public listener.
 * A failing handler is logged through pino and answered with a plain 500, as on the public app; a
 * journal that fails once its 200 has gone out cuts the connection, so the download is seen to
 * fail rather than end as a shorter file that looks whole.
 */
export function createMetricsApp(opts: {
  registry: Registry;
  /** Where failures go; the product passes its own (which scrubs the secrets). Default: a plain pino. */
  logger?: Logger;
  token?: string | undefined;
  /**
   * The admin's books as JSON (GET /books, issue 15); without them 503. Behind the same token as
   * /metrics.
   */
  books?: {
    report?: () => Promise<unknown>;
    /**
     * The journal as CSV for the accountant (GET /books/journal.csv?from=&to=): the whole text, or
     * its chunks, streamed as they come (ledger/csv.ts journalCsvChunks).
     */
    journalCsv?: (range: JournalRange) => Promise<string> | AsyncIterable<string | Uint8Array>;
  };
}) {
  const app = new Hono();
  const logger = opts.logger ?? createLogger();
  const expected = opts.token ? Buffer.from(`Bearer ${opts.token}`) : undefined;
  const authorized = (header: string | undefined) => {
    if (!expected) return true;
    const given = Buffer.from(header ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  app.get("/metrics", async (c) => {
    if (!authorized(c.req.header("authorization")))
      return c.text("unauthorized", 401, { "WWW-Authenticate": "Bearer" });
    const body = await opts.registry.metrics();
    return c.body(body, 200, { "Content-Type": opts.registry.contentType });
  });
  app.get("/books", async (c) => {
    if (!authorized(c.req.header("authorization")))
      return c.text("unauthorized", 401, { "WWW-Authenticate": "Bearer" });
    const report = opts.books?.report;
    if (!report) return c.json({ ok: false, error: "starting" }, 503);
    return c.json(await report(), 200, { "Cache-Control": "no-store" });
  });
  app.get("/books/journal.csv", async (c) => {
    if (!authorized(c.req.header("authorization")))
      return c.text("unauthorized", 401, { "WWW-Authenticate": "Bearer" });
    const range = journalRangeSchema.safeParse({
      from: c.req.query("from"),
      to: c.req.query("to"),
    });
    if (!range.success) {
      const why = range.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      return c.json({ ok: false, error: why }, 400);
    }
    const csv = opts.books?.journalCsv;
    if (!csv) return c.json({ ok: false, error: "starting" }, 503);
    const name = `journal-${new Date(range.data.from).toISOString().slice(0, 10)}.csv`;
    const out = csv(range.data);
    if (!(out instanceof Promise)) {
      const fields = { from: range.data.from, to: range.data.to };
      return csvDownload(c, out, { name, logger, fields });
    }
    return c.body(await out, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    });
  });
  app.notFound((c) => c.text("not found", 404));
  // Hono's default would print the whole error with console.error, past pino's scrubbing.
  app.onError((err, c) => {
    logger.error({ err: errorOf(err), path: c.req.path }, "metrics request failed");
    return c.text("internal error", 500);
  });
  return app;
}
