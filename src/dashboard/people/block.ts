import type { Hono } from "hono";
import { html } from "hono/html";
import { blockReasonSchema } from "../../accounts/index.ts";
import { formOf, recordAction } from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, facts, idLabel, notice, page, time } from "../html.ts";
import type { DashboardContext, DashboardEnv, DashboardParts } from "../parts.ts";
import { blockText, personPath, phoneText, userIdSchema } from "./view.ts";

/**
 * Blocking and unblocking a customer (admins): a confirm page that says what will happen and asks
 * the reason, then its POST. The block is stored in the blocked list the chat reads on every
 * access check (src/accounts/blocked.ts), so it holds at once on every instance; the customer's
 * orders already in flight go on. Each change is written to the audit log: who, when, from where,
 * what (with the reason) and the block before and after. Agents and admins are not blocked here:
 * their access is their role in the settings.
 */

type Verb = "block" | "unblock";

const WHAT: Record<Verb, { title: string; button: string; effect: string }> = {
  block: {
    title: "Block customer",
    button: "Block",
    effect:
      "The bot will refuse their orders and top-ups from now on, on every instance. Orders they placed before go on as usual; their balance stays theirs.",
  },
  unblock: {
    title: "Unblock customer",
    button: "Unblock",
    effect: "The bot will take their orders again from now on.",
  },
};

function confirmForm(verb: Verb, userId: number, reason = ""): Fragment {
  return html`<form method="post" action="${personPath(userId, `/${verb}`)}">
<label>Reason (kept in the audit log)<br>
<textarea name="reason" rows="3" cols="60" maxlength="300" required>${reason}</textarea></label><br>
<button type="submit">${WHAT[verb].button}</button>
<a href="${personPath(userId)}">Cancel</a>
</form>`;
}

/** The person, if one the back office may block: a customer by the settings' roles. */
async function target(c: DashboardContext, parts: DashboardParts, verb: Verb) {
  const viewer = c.get("viewer");
  const id = userIdSchema.safeParse(c.req.param("id"));
  if (!id.success) {
    return {
      error: c.html(
        page(WHAT[verb].title, notice("A Telegram id is a positive number.", "error"), viewer),
        400,
      ),
    };
  }
  const userId = id.data;
  if (parts.deps.roleOf(userId) !== "customer") {
    const why = `${userId} is an agent or an admin: their access is their role in the settings (AGENT_IDS, ADMIN_IDS), not a block.`;
    return { error: c.html(page(WHAT[verb].title, notice(why, "error"), viewer), 400) };
  }
  const people = parts.deps.people;
  const [phone, block] = await Promise.all([people.phoneOf(userId), people.blocked.get(userId)]);
  const about = facts([
    [idLabel(userId), String(userId)],
    ["Phone", phoneText(phone)],
    ["Now", blockText(block)],
  ]);
  return { userId, block, about };
}

async function confirmPage(c: DashboardContext, parts: DashboardParts, verb: Verb) {
  const t = await target(c, parts, verb);
  if ("error" in t) return t.error;
  const viewer = c.get("viewer");
  if (verb === "unblock" && !t.block) {
    const body = html`${notice("This customer is not blocked.", "error")}${t.about}`;
    return c.html(page(WHAT[verb].title, body, viewer), 409);
  }
  const again =
    verb === "block" && t.block
      ? notice(`Blocked already since ${time(t.block.at)}: blocking again replaces the reason.`)
      : "";
  const body = html`${t.about}${again}<p>${WHAT[verb].effect}</p>${confirmForm(verb, t.userId)}`;
  return c.html(page(WHAT[verb].title, body, viewer));
}

async function change(c: DashboardContext, parts: DashboardParts, verb: Verb) {
  const t = await target(c, parts, verb);
  if ("error" in t) return t.error;
  const viewer = c.get("viewer");
  const form = await formOf(c);
  const given = typeof form.reason === "string" ? form.reason : "";
  const reason = blockReasonSchema.safeParse(given);
  if (!reason.success) {
    const why = given.trim() ? "A reason is at most 300 characters." : "Give a reason.";
    const body = html`${notice(why, "error")}${t.about}${confirmForm(verb, t.userId, given.slice(0, 300))}`;
    return c.html(page(WHAT[verb].title, body, viewer), 400);
  }
  const blocked = parts.deps.people.blocked;
  if (verb === "block") {
    const r = await blocked.block({
      userId: t.userId,
      reason: reason.data,
      by: viewer.userId,
      at: parts.deps.now(),
    });
    const detail = `customer ${t.userId}: ${reason.data}`;
    const [before, after] = [{ block: blockText(r.before) }, { block: blockText(r.after) }];
    await recordAction(parts, c, viewer, "block", detail, before, after);
  } else {
    const r = await blocked.unblock(t.userId);
    if (!r.before) {
      const body = html`${notice("This customer is not blocked: nothing changed.", "error")}${t.about}`;
      return c.html(page(WHAT[verb].title, body, viewer), 409);
    }
    // Done by now: a failed audit write is logged, never a 500 hiding it (review s32, 2).
    const detail = `customer ${t.userId}: ${reason.data}`;
    const [before, after] = [{ block: blockText(r.before) }, { block: blockText(null) }];
    await recordAction(parts, c, viewer, "unblock", detail, before, after);
  }
  return c.redirect(personPath(t.userId), 303);
}

export function blockRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;
  for (const verb of ["block", "unblock"] as const) {
    app.get(`/customers/:id/${verb}`, ...admin, (c) => confirmPage(c, parts, verb));
    app.post(`/customers/:id/${verb}`, ...admin, (c) => change(c, parts, verb));
  }
}
