/** The back office (issue 29): login by one-time link from the chat, sessions, read-only pages. */
export { type DashboardAccess, dashboardAccess } from "./access.ts";
export { createDashboard } from "./app.ts";
export { type AuditEntry, auditEntrySchema } from "./audit.ts";
export {
  DASHBOARD_PATH,
  type DashboardDeps,
  type DashboardRole,
  type DashboardTimes,
  DEFAULT_RATE_LIMITS,
  DEFAULT_TIMES,
  dashboardRole,
  type PersonRole,
  type RateLimits,
} from "./deps.ts";
export { type DashboardKv, memoryKv, redisKv } from "./kv.ts";
export { carriesLoginLink, type IssuedLink, loginPath } from "./links.ts";
export type { DashboardPeople } from "./people/index.ts";

export { sessionVerdict } from "./sessions.ts";
