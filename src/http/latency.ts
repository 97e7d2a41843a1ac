import { prometheus } from "@hono/prometheus";
import type { MiddlewareHandler } from "hono";
import type { Registry } from "prom-client";

/**
 * Latency of the public listener's requests per route (@hono/prometheus), in the process's own
 * registry: `http_request_duration_seconds{method, route, status, ok}`. The route is the matched
 * pattern, never the raw path (bounded labels), and the Telegram webhook's pattern carries a hash
 * of the bot token, which is replaced by a placeholder: a metric is no place for a secret's hash.
 * The histogram's `_count` is the request count, so the library's separate counter is off.
 */
export function httpLatency(registry: Registry): MiddlewareHandler {
  const { registerMetrics } = prometheus({
    registry,
    metricOptions: {
      // A custom label named like a standard one replaces its value (the library spreads the
      // custom labels last).
      requestDuration: { customLabels: { route: (c) => routeLabel(c.req.routePath) } },
      requestsTotal: { disabled: true },
    },
  });
  return registerMetrics;
}

export function routeLabel(pattern: string): string {
  return pattern.replace(/^\/telegram-webhook\/[0-9a-f]+/, "/telegram-webhook/:hash");
}
