import { createHttpApp, createMetricsApp } from "../http/app.ts";
import { type Listener, listen } from "../http/listen.ts";
import type { Base } from "./base.ts";

/**
 * The public listener. It listens first (the embedded parts need our own URL) and answers 503
 * until `gate.ready`, except what `gate.early` lets through (the embedded Bot API emulator: the
 * bot's getMe asks it before the product is ready). The gate is the listener's state: startSystem
 * opens it once the bot knows itself.
 */
export async function openPublicListener(base: Base) {
  const app = createHttpApp({
    health: base.health,
    readiness: base.readiness,
    webhookPosts: base.webhookPosts,
    logger: base.logger,
    registry: base.registry,
  });
  const gate = { ready: false, early: (_req: Request): boolean => false };
  const server: Listener = await listen(
    (req, env) =>
      gate.ready || gate.early(req)
        ? app.fetch(req, env)
        : new Response("starting", { status: 503 }),
    base.config.http,
  );
  return { app, gate, server };
}

export type PublicListener = Awaited<ReturnType<typeof openPublicListener>>;
export type HttpApp = PublicListener["app"];

/**
 * Metrics never go on the public listener: a listener of their own, loopback by default, with
 * the admin's books (/books, /books/journal.csv) beside /metrics. Opened once the money path is
 * built, so it serves the books from its first request. Returns the URL of /metrics.
 */
export async function openMetricsListener(
  base: Base,
  books: NonNullable<Parameters<typeof createMetricsApp>[0]["books"]>,
): Promise<string> {
  const { config, logger, stops } = base;
  const metrics = await listen(
    createMetricsApp({ registry: base.registry, token: config.metrics.token, books, logger }).fetch,
    config.metrics,
  );
  stops.add(() => metrics.close());
  const metricsUrl = `${metrics.url}/metrics`;
  logger.info({ metrics: metricsUrl }, "metrics listening");
  return metricsUrl;
}
