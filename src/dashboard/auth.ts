import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { type AuditAction, type AuditEntry, clip } from "./audit.ts";
import { type DashboardRole, dashboardRole } from "./deps.ts";
import { notice, page, path } from "./html.ts";
import type { DashboardEnv, DashboardParts } from "./parts.ts";

/**
 * Who is asking, checked on the server for every page and action. The session cookie is
 * `__Host-dashboard` (hono/cookie's host prefix: Secure, Path=/, no Domain), HttpOnly and
 * SameSite=Strict. The role is read from the settings on every request, not from the session: a
 * person whose role is gone loses every session at once (revokeAll) and gets 403.
 */

export const COOKIE = "dashboard";

export function setSessionCookie(c: Context, id: string, maxAgeMs: number): void {
  setCookie(c, COOKIE, id, {
    prefix: "host",
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export const sessionCookie = (c: Context): string | undefined => getCookie(c, COOKIE, "host");

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, COOKIE, { prefix: "host", path: "/", secure: true });
}

/** Where a request came from, for the audit log. */
export function origin(c: Context): { ip: string; forwardedFor?: string; userAgent: string } {
  let ip = "unknown";
  try {
    ip = getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // Served without node's socket (a test calling app.request): no address to tell.
  }
  const forwarded = clip(c.req.header("x-forwarded-for"), 200);
  return {
    ip: ip.slice(0, 100),
    ...(forwarded ? { forwardedFor: forwarded } : {}),
    userAgent: clip(c.req.header("user-agent"), 300) ?? "",
  };
}

export async function audit(
  parts: DashboardParts,
  c: Context,
  who: { userId: number; role: string },
  action: AuditAction,
  detail?: string,
  change?: Pick<AuditEntry, "before" | "after">,
): Promise<void> {
  await parts.audit.record({
    at: parts.deps.now(),
    userId: who.userId,
    role: who.role,
    action,
    ...origin(c),
    ...(detail ? { detail: detail.slice(0, 300) } : {}),
    ...(change?.before ? { before: clipped(change.before) } : {}),
    ...(change?.after ? { after: clipped(change.after) } : {}),
  });
}

/**
 * The audit line of something already done (a refusal, sessions ended, a logout): a failed write
 * must not turn it into a 500 that leaves "was it done?" open. The line goes to the error log.
 */
export function auditDone(
  parts: DashboardParts,
  c: Context,
  who: { userId: number; role: string },
  action: AuditAction,
  detail?: string,
): Promise<void> {
  return audit(parts, c, who, action, detail).catch((err: unknown) =>
    parts.deps.logger.error(
      { err: String(err), action, userId: who.userId, ...(detail ? { detail } : {}) },
      "an action was done but its audit entry was not written",
    ),
  );
}

/**
 * The session check before every page but the login ones: no good session → the login help
 * (303 for a page, 401 for an action); a role gone → every session of the person ended, 403.
 */
export function authenticate(parts: DashboardParts): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const id = sessionCookie(c);
    const session = await parts.sessions.touch(id);
    if (!session || !id) {
      if (id) clearSessionCookie(c);
      if (c.req.method === "GET" || c.req.method === "HEAD") return c.redirect(path("/login"), 303);
      return c.html(
        page("Logged out", notice("Your session is over. Log in again.", "error")),
        401,
      );
    }
    const role = dashboardRole(parts.deps.roleOf(session.userId));
    if (!role) return revoked(c, parts, session.userId);
    c.set("viewer", { userId: session.userId, role });
    c.set("sessionId", id);
    await next();
  };
}

/**
 * A person whose role is gone: every session of theirs ends, then the line is written (its
 * failure logged, never a 500: the sessions are over). Sessions that could not be ended: 503,
 * nothing shown; the next request tries again.
 */
async function revoked(c: Context, parts: DashboardParts, userId: number) {
  let ended: number;
  try {
    ended = await parts.sessions.revokeAll(userId);
  } catch (err) {
    parts.deps.logger.error(
      { err: String(err), action: "revoked", userId },
      "a person's role is gone but their sessions could not be ended",
    );
    c.header("retry-after", "5");
    const said = "The back office could not check your access just now. Nothing was shown.";
    return c.html(page("Try again", notice(said, "error")), 503);
  }
  await auditDone(parts, c, { userId, role: "none" }, "revoked", `${ended} sessions`);
  clearSessionCookie(c);
  return c.html(page("No access", notice("You no longer have access.", "error")), 403);
}

/** Only these roles; anyone else signed in gets 403. */
export function allow(...roles: DashboardRole[]): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const viewer = c.get("viewer");
    if (!roles.includes(viewer.role)) {
      // Named by the roles it is for: /me is for agents, not admins (review s24-a, N5).
      const whom = roles.map((r) => `${r}s`).join(" and ");
      return c.html(
        page("Not allowed", notice(`This page is for ${whom} only.`, "error"), viewer),
        403,
      );
    }
    await next();
  };
}

/** An audit record's values as the log keeps them: text clipped to its 300 characters. */
function clipped(r: Record<string, number | string>): Record<string, number | string> {
  return Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, typeof v === "string" ? v.slice(0, 300) : v]),
  );
}
