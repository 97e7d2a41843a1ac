import { Hono } from "hono";
import type { Registry } from "prom-client";

export interface HealthCheck {
  name: string;
  /** Resolves true when the dependency answers; must not throw. */
  check: () => Promise<boolean>;
}

/**
 * The one Hono app of the process. Parts mount their routes on it; this module owns only the
 * operational endpoints.
 */
export function createHttpApp(opts: { registry: Registry; health: HealthCheck[] }) {
  const app = new Hono();

  app.get("/healthz", async (c) => {
    const results = await Promise.all(
      opts.health.map(async (h) => [h.name, await h.check().catch(() => false)] as const),
    );
    const checks = Object.fromEntries(results.map(([n, ok]) => [n, ok ? "ok" : "down"]));
    const healthy = results.every(([, ok]) => ok);
    return c.json({ status: healthy ? "ok" : "unavailable", checks }, healthy ? 200 : 503);
  });

  app.get("/metrics", async (c) => {
    const body = await opts.registry.metrics();
    return c.body(body, 200, { "Content-Type": opts.registry.contentType });
  });

  return app;
}
