import type { Context, Hono } from "hono";
import { html } from "hono/html";
import {
  audit,
  authenticate,
  clearSessionCookie,
  sessionCookie,
  setSessionCookie,
} from "../auth.ts";
import { dashboardRole } from "../deps.ts";
import { notice, page, path, personOf } from "../html.ts";
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
      await audit(
        parts,
        c,
        { userId: link.userId, role: "none" },
        "denied",
        "login without a role",
      );
      return c.html(
        page("No access", notice("You have no access to the back office.", "error")),
        403,
      );
    }
    // A new id at every login; the one the browser had (if any) ends here.
    await parts.sessions.destroy(sessionCookie(c));
    const id = await parts.sessions.create(link.userId);
    await parts.links.spentInto(token, link, id);
    setSessionCookie(c, id, parts.times.absoluteMs);
    await audit(parts, c, { userId: link.userId, role }, "login");
    return c.redirect(path("/"), 303);
  });

  app.post("/logout", authenticate(parts), async (c) => {
    await parts.sessions.destroy(c.get("sessionId"));
    clearSessionCookie(c);
    await audit(parts, c, c.get("viewer"), "logout");
    return c.redirect(path("/login?out=1"), 303);
  });
}
