import { createHttpApp, createMetricsApp } from "../http/app.ts";
import { type Listener, listen } from "../http/listen.ts";
import type { Base } from "./base.ts";

/**
 * The public listener and the metrics listener. The public one listens first (the embedded parts
 * need our own URL) and answers 503 until `gate.ready`, except what `gate.early` lets through (the
 * embedded Bot API emulator: the bot's getMe asks it before the product is ready).
 */
export async function openListeners(base: Base) {
  const { config, logger, stops } = base;
  const app = createHttpApp({
    health: base.health,
    readiness: base.readiness,
    logger,
    registry: base.registry,
  });
  const gate = { ready: false, early: (_req: Request): boolean => false };
  const server: Listener = await listen(
    (req, env) =>
      gate.ready || gate.early(req)
        ? app.fetch(req, env)
        : new Response("starting", { status: 503 }),
    config.http,
  );
  // Metrics never go on the public listener: a listener of their own, loopback by default.
  // The books' report is plugged in once the money path is wired (src/system.ts).
  const books: NonNullable<Parameters<typeof createMetricsApp>[0]["books"]> = {};
  const metricsListener = await listen(
    createMetricsApp({ registry: base.registry, token: config.metrics.token, books }).fetch,
    config.metrics,
  ).catch(async (err) => {
    await server.close();
    throw err;
  });
  stops.add(() => metricsListener.close());
  const metricsUrl = `${metricsListener.url}/metrics`;
  logger.info({ metrics: metricsUrl }, "metrics listening");
  return { app, gate, server, metricsUrl, books };
}

export type Listeners = Awaited<ReturnType<typeof openListeners>>;
export type HttpApp = Listeners["app"];
