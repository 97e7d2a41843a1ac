import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { type Logger, primitiveFieldsLogger } from "../logger.ts";

/**
 * One pino line per HTTP request, with a request id (the caller's X-Request-Id when it is
 * well-formed, else a new one), echoed in the response. The route logged is the route pattern that
 * matched, never the raw URL: no query string, no headers, and any long opaque path segment (the
 * Telegram webhook path carries a hash of the bot token, the emulator's paths a token) is redacted.
 */

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const OPAQUE_SEGMENT = /\/(bot)?[A-Za-z0-9_:-]{24,}(?=\/|$)/g;

/** The route for the log: matched pattern, opaque segments replaced. */
export function loggableRoute(route: string): string {
  return route.replace(OPAQUE_SEGMENT, (_m, bot: string | undefined) =>
    bot ? "/bot[redacted]" : "/[redacted]",
  );
}

/**
 * The line's fields are strings and numbers only (the request id, the method, the route, the
 * status, the time), so it goes through the cheaper primitive-fields child (src/logger.ts: the
 * same censoring and scrub for such a line), and no child per request is made: a failing
 * handler's line takes the request id from the context (app.ts). About half the access log's
 * CPU, paid on each of WhatsApp's four requests a step (the message and three statuses).
 */
export function accessLog(logger: Logger): MiddlewareHandler {
  const line = primitiveFieldsLogger(logger);
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    // Set before the handler: Hono puts it on the response it builds. Set after, on a finished
    // response, it made Hono copy the response (the node server then builds a full Fetch
    // Response and its body): about a fifth of a WhatsApp status webhook's CPU.
    c.header("X-Request-Id", requestId);
    try {
      await next();
    } finally {
      const matched = routePath(c, -1);
      const route = loggableRoute(matched === "/*" || matched === "*" ? "(none)" : matched);
      // A Response the handler built itself did not take it: set it there.
      if (c.res.headers.get("X-Request-Id") !== requestId) c.header("X-Request-Id", requestId);
      line.info(
        {
          requestId,
          method: c.req.method,
          route,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        "http request",
      );
    }
  };
}
