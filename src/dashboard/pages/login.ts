import type { Context, Hono } from "hono";
import { html } from "hono/html";
import {
  audit,
  auditDone,
  authenticate,
  clearSessionCookie,
  sessionCookie,
  setSessionCookie,
} from "../auth.ts";
import { type DashboardRole, dashboardRole } from "../deps.ts";
import { notice, page, path, personOf } from "../html.ts";
import type { LinkRecord } from "../links.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { hashSecret, isSecretShaped } from "../secret.ts";

/**
 * Logging in and out. The link from the chat opens a confirm page (GET spends nothing: a
 * link-preview crawler may fetch it); its button POSTs to the same address, which spends the
 * token once, ends any session the browser had (the id changes at login) and sets a new one.
 */

const HELP = html`<p>The back office has no passwords. Send <code>/dashboard</code> to the bot
(admins and agents only); it answers with a link that works once, for 10 minutes.</p>`;

const spentOrLate = () =>
  page(
    "Link not valid",
    html`${notice("This link was used already or is too old.", "error")}
<p>If you clicked "Log in" twice, you are perhaps logged in already: open
<a href="${path("/")}">the back office</a>, or ask for a new link.</p>${HELP}`,
  );

/**
 * A link that is no good any more: the browser holding the very session its login made (a second
 * click on "Log in" after the first logged in) goes to the back office (review s24-a, N4); anyone
 * else gets 410, the link's owner too in another session of theirs: "used already" is their one
 * sign that someone else used it (review s24-e, 2).
 */
async function spentAnswer(c: Context<DashboardEnv>, parts: DashboardParts, token: string) {
  const made = await parts.links.spentSession(token);
  const id = sessionCookie(c);
  if (made !== null && id !== undefined && hashSecret(id) === made) {
    if (await parts.sessions.touch(id)) return c.redirect(path("/"), 303);
  }
  return c.html(spentOrLate(), 410);
}

export function loginRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/login", (c) => {
    const out = c.req.query("out") === "1";
    return c.html(page("Log in", html`${out ? notice("You are logged out.") : ""}${HELP}`));
  });

  app.get("/login/:token", async (c) => {
    const token = c.req.param("token");
    if (!isSecretShaped(token)) return c.html(page("Not a login link", HELP), 404);
    const link = await parts.links.peek(token);
    if (!link) return spentAnswer(c, parts, token);
    return c.html(
      page(
        "Log in to the back office",
        html`<p>You are logging in as <strong>${personOf(link.userId)}</strong>.</p>
<form method="post" action="${path(`/login/${token}`)}">
<button type="submit" id="confirm">Log in</button>
</form>
<p class="empty">Did not ask for this? Close the page; the link ends by itself.</p>`,
      ),
    );
  });

  app.post("/login/:token", async (c) => {
    const token = c.req.param("token");
    if (!isSecretShaped(token)) return c.html(page("Not a login link", HELP), 404);
    const link = await parts.links.spend(token);
    if (!link) return spentAnswer(c, parts, token);
    const role = dashboardRole(parts.deps.roleOf(link.userId));
    if (!role) {
      // Refused either way: a failed line is logged, the answer stays "no access" (never a 500).
      const who = { userId: link.userId, role: "none" };
      await auditDone(parts, c, who, "denied", "login without a role");
      return c.html(
        page("No access", notice("You have no access to the back office.", "error")),
        403,
      );
    }
    return logIn(c, parts, token, link, role);
  });

  app.post("/logout", authenticate(parts), async (c) => {
    const viewer = c.get("viewer");
    await parts.sessions.destroy(c.get("sessionId"));
    clearSessionCookie(c);
    // Ended by now: a failed audit write is logged, never a 500 leaving "am I logged out?" open.
    await auditDone(parts, c, viewer, "logout");
    return c.redirect(path("/login?out=1"), 303);
  });
}

/**
 * No audit line, no session (review s32-backoffice, left): the login is written to the audit log
 * before the browser gets the session's id. Before, a failed write answered 500 after the cookie
 * and the spent link's session mark were given, and a second click on "Log in" got in: a login with
 * no line at all.
 */
async function logIn(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  token: string,
  link: LinkRecord,
  role: DashboardRole,
) {
  const id = await parts.sessions.create(link.userId);
  try {
    await audit(parts, c, { userId: link.userId, role }, "login");
  } catch (err) {
    return notLoggedIn(c, parts, { token, link, id, err });
  }
  // A new id at every login; the one the browser had (if any) ends here.
  await parts.sessions.destroy(sessionCookie(c));
  await parts.links.spentInto(token, link, id);
  setSessionCookie(c, id, parts.times.absoluteMs);
  return c.redirect(path("/"), 303);
}

/** The login's audit line was not written: its session ends unseen, its link is put back, 503. */
async function notLoggedIn(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  f: { token: string; link: LinkRecord; id: string; err: unknown },
) {
  // Each best effort: the id was never sent, so a session left behind is one nobody holds.
  const ended = await parts.sessions.destroy(f.id).then(
    () => true,
    () => false,
  );
  const again = await parts.links.unspend(f.token, f.link).catch(() => false);
  parts.deps.logger.error(
    { err: String(f.err), userId: f.link.userId, sessionEnded: ended, linkBack: again },
    "a login was refused: its audit entry could not be written",
  );
  const retry = again
    ? html`<p>The link still works: try again in a moment.</p>
<form method="post" action="${path(`/login/${f.token}`)}">
<button type="submit" id="confirm">Log in</button>
</form>`
    : html`<p>Ask the bot for a new link in a moment.</p>${HELP}`;
  const body = html`${notice("Not logged in: the back office could not record this login just now. Nothing was done.", "error")}${retry}`;
  c.header("retry-after", "5");
  return c.html(page("Not logged in", body), 503);
}
