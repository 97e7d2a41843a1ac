import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "../logger.ts";

/**
 * One pino line per HTTP request, with a request id (the caller's X-Request-Id when it is
 * well-formed, else a new one), echoed in the response. The route logged is the route pattern that
 * matched, never the raw URL: no query string, no headers, and any long opaque path segment (the
 * Telegram webhook path carries a hash of the bot token, the emulator's paths a token) is redacted.
 */

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
    log: Logger;
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

export function accessLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ requestId });
    c.set("requestId", requestId);
    c.set("log", log);
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
      log.info(
        {
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
