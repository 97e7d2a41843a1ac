import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { html } from "hono/html";
import type { Logger } from "../logger.ts";
import type { RateLimits } from "./deps.ts";
import { notice, page } from "./html.ts";
import type { DashboardKeys } from "./keys.ts";
import type { DashboardKv } from "./kv.ts";

/**
 * A fixed-window rate limit on the back office's public entry points (the login link's GET and its
 * confirm POST): per client address, per token prefix (someone walking one link's neighbours), and
 * on failed logins per address (a link refused: not a link, used, too old, no role). Counted in the
 * back office's store (Redis when the product has it, so every instance shares the counts; memory
 * otherwise). A refusal is a 429 page that says when to try again, with Retry-After. No library:
 * hono-rate-limiter would need its own Redis store adapter and still not count failures apart.
 */

export const TOKEN_PREFIX_LENGTH = 8;

/** Answers that mean a login attempt failed (not a link, spent or late, no role). */
const FAILED = new Set([403, 404, 410]);

/**
 * Peers whose X-Forwarded-For is believed: this host and private networks (compose's `caddy`
 * reaches the app from its container's private address); nobody on the internet connects from one.
 */
export const PROXY_PEER =
  /^(::ffff:)?(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)|^::1$|^f[cd][0-9a-f]{2}:/i;

/**
 * The client's address: the socket's, except from a proxy (PROXY_PEER), where the last
 * X-Forwarded-For entry is the one that proxy added (a client cannot forge that entry).
 */
export function clientIp(c: Context): string {
  let ip = "unknown";
  try {
    ip = getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // Served without node's socket (app.request in a test).
  }
  if (PROXY_PEER.test(ip) || ip === "unknown") {
    const last = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (last) ip = last;
  }
  return ip.replace(/[^0-9A-Za-z.:_-]/g, "").slice(0, 64) || "unknown";
}

export interface RateLimiter {
  /** Middleware for an entry point whose `:token` path parameter is the login token. */
  entry: MiddlewareHandler;
}

interface Bucket {
  key: string;
  limit: number;
  until: number;
}

export function createRateLimiter(opts: {
  kv: DashboardKv;
  keys: DashboardKeys;
  limits: RateLimits;
  now: () => number;
  logger: Logger;
}): RateLimiter {
  const { kv, keys, limits, now, logger } = opts;
  const bucket = (kind: string, subject: string, windowMs: number): Bucket => {
    const start = Math.floor(now() / windowMs) * windowMs;
    return {
      key: keys.rate(`${kind}:${start}:${subject}`),
      limit:
        kind === "fail"
          ? limits.failuresPerIp
          : kind === "ip"
            ? limits.perIp
            : limits.perTokenPrefix,
      until: start + windowMs,
    };
  };
  const refuse = (c: Context, b: Bucket, ip: string, kind: string) => {
    const seconds = Math.max(1, Math.ceil((b.until - now()) / 1000));
    logger.warn({ ip, kind }, "dashboard login rate limited");
    c.header("Retry-After", String(seconds));
    return c.html(tooMany(b.until, seconds), 429);
  };
  return {
    entry: async (c, next) => {
      const ip = clientIp(c);
      const failed = bucket("fail", ip, limits.failureWindowMs);
      if (Number(await kv.get(failed.key)) >= failed.limit)
        return refuse(c, failed, ip, "failures");
      const token = (c.req.param("token") ?? "").slice(0, TOKEN_PREFIX_LENGTH);
      const byIp = bucket("ip", ip, limits.windowMs);
      const byToken = bucket("tok", token.replace(/[^A-Za-z0-9_-]/g, "_"), limits.windowMs);
      for (const [b, kind] of [
        [byIp, "address"],
        [byToken, "token"],
      ] as const) {
        if ((await kv.incrPx(b.key, limits.windowMs)) > b.limit) return refuse(c, b, ip, kind);
      }
      await next();
      if (FAILED.has(c.res.status)) await kv.incrPx(failed.key, limits.failureWindowMs);
    },
  };
}

const hhmmss = (ms: number) => new Date(ms).toISOString().slice(11, 19);

function tooMany(until: number, seconds: number) {
  return page(
    "Too many attempts",
    html`${notice(`Too many login attempts. Try again after ${hhmmss(until)} UTC (in ${seconds} seconds).`, "error")}
<p>To log in, send <code>/dashboard</code> to the bot and open the newest link it sends.</p>`,
  );
}
