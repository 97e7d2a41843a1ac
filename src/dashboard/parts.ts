import type { Context } from "hono";
import { type AuditLog, createAuditLog } from "./audit.ts";
import { type DashboardDeps, type DashboardTimes, DEFAULT_RATE_LIMITS, timesOf } from "./deps.ts";
import type { Viewer } from "./html.ts";
import { dashboardKeys } from "./keys.ts";
import { createLoginLinks, type LoginLinks } from "./links.ts";
import { createRateLimiter, type RateLimiter } from "./rate-limit.ts";
import { createSessions, type Sessions } from "./sessions.ts";

/** The back office's pieces over one Redis and clock: links, sessions and the audit log. */
export interface DashboardParts {
  deps: DashboardDeps;
  times: DashboardTimes;
  links: LoginLinks;
  sessions: Sessions;
  audit: AuditLog;
  /** The login entry points' limits (rate-limit.ts). */
  limiter: RateLimiter;
}

/** Hono's typed variables of a back-office request: who is looking (set by auth.ts). */
export type DashboardEnv = { Variables: { viewer: Viewer; sessionId: string } };
export type DashboardContext = Context<DashboardEnv>;

export function dashboardParts(deps: DashboardDeps): DashboardParts {
  const keys = dashboardKeys(deps.prefix);
  const times = timesOf(deps);
  return {
    deps,
    times,
    links: createLoginLinks({
      kv: deps.kv,
      keys,
      publicUrl: deps.publicUrl,
      linkMs: times.linkMs,
      now: deps.now,
    }),
    sessions: createSessions({ kv: deps.kv, keys, times, now: deps.now }),
    audit: createAuditLog(deps.kv, keys),
    limiter: createRateLimiter({
      kv: deps.kv,
      keys,
      limits: { ...DEFAULT_RATE_LIMITS, ...deps.rateLimits },
      now: deps.now,
      logger: deps.logger,
    }),
  };
}
