import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { Receipt, ReverseResult } from "../../accounts/index.ts";
import {
  alreadyView,
  bookerOf,
  confirmView,
  daysSchema,
  findForm,
  listView,
  partyOf,
  recentCashIns,
  reversalIdOf,
  reverseFormSchema,
  sinceOf,
  transferIdSchema,
} from "../actions/cash-ins.ts";
import {
  actionsOf,
  field,
  formOf,
  notConfigured,
  outcome,
  postedOf,
  reasons,
  recordAction,
} from "../actions/common.ts";
import type { ActionDeps } from "../actions/deps.ts";
import { allow, authenticate } from "../auth.ts";
import { facts, notice, POSTED, page, path, rs, type Viewer } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * Cash-in reversals from the browser (admins): the recent cash-ins and agent credits, a confirm
 * page per receipt that asks for the reason, and the POST that reverses it through the accounts
 * service (the one /reverse uses). Audited with both sides' balances before and after.
 */

const TITLE = "Cash-ins and credits";
const back = html`<a href="${path("/cash-ins")}">Back to the cash-ins</a>`;

const REFUSED: Record<string, string> = {
  unknown: "No cash-in or credit has this receipt id.",
  not_reversible: "This receipt is not a cash-in or a credit: it cannot be reversed here.",
  id_conflict: "The books refused the reversal: nothing was written.",
};

async function namesOf(actions: ActionDeps, r: Receipt) {
  return {
    from: await partyOf(actions, r.debit),
    to: await partyOf(actions, r.credit),
    by: bookerOf(r),
  };
}

/** The confirm page of receipt `id` (status 200), or why there is none. */
async function confirmPage(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  actions: ActionDeps,
  id: string,
  error?: { text: string; reason: string },
) {
  const viewer = c.get("viewer");
  const title = `Reverse ${id}`;
  const r = await actions.accounts.receipt(id);
  if (!r) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  if (r.kind === "reversal") {
    return c.html(page(title, outcome(REFUSED.not_reversible!, "error", back), viewer), 409);
  }
  const earlier = await actions.accounts.receipt(reversalIdOf(id));
  if (earlier) {
    const body = html`${notice("Already reversed.")}${alreadyView(earlier)}<p>${back}</p>`;
    return c.html(page(title, body, viewer));
  }
  const { ledger } = parts.deps;
  const form = confirmView(
    r,
    await namesOf(actions, r),
    { from: await ledger.balance(r.debit), to: await ledger.balance(r.credit) },
    error?.reason,
  );
  const body = error ? html`${notice(error.text, "error")}${form}` : form;
  return c.html(page(title, body, viewer), error ? 400 : 200);
}

/**
 * The party (the customer of a cash-in, the agent of a credit) and a cash-in's agent are told in
 * their chat, as /reverse tells them, each once (a second POST, or the chat's own /reverse, says
 * nothing more). A message not delivered is logged; the reversal stands.
 */
async function tellReversed(
  parts: DashboardParts,
  original: Receipt,
  r: Extract<ReverseResult, { ok: true }>,
): Promise<void> {
  const tell = actionsOf(parts)?.tellReversed;
  if (!tell) return;
  try {
    await tell({
      original,
      reversalId: r.receipt.id,
      reason: r.receipt.reason ?? "",
      partyBalancePaisa: r.debitAfter.availablePaisa,
      agentBalancePaisa: r.creditAfter.availablePaisa,
    });
  } catch (err) {
    parts.deps.logger.warn(
      { reversalId: r.receipt.id, err: err instanceof Error ? err.message : String(err) },
      "reversal notice not delivered",
    );
  }
}

/** The page after the service answered; audited when this POST booked the reversal. */
async function reversed(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  viewer: Viewer,
  original: Receipt,
  before: Record<string, number>,
  r: ReverseResult,
) {
  const title = `Reverse ${original.id}`;
  if (!r.ok) {
    if (r.code === "already_reversed") {
      const detail = `${reversalIdOf(original.id)} of ${original.id}: found booked already with another reason; this POST booked nothing`;
      await recordAction(parts, c, viewer, "reverse_found", detail, before, before);
      const body = html`${notice("Already reversed (with another reason): nothing more was booked.")}${r.receipt ? alreadyView(r.receipt) : ""}<p>${back}</p>`;
      return c.html(page(title, body, viewer));
    }
    const text =
      r.code === "insufficient_funds"
        ? `Refused: the credited side has ${rs(r.availablePaisa)}, ${rs(r.shortfallPaisa)} short of ${rs(original.amountPaisa)}. Nothing was booked.`
        : (REFUSED[r.code] ?? REFUSED.id_conflict!);
    return c.html(page(title, outcome(text, "error", back), viewer), 409);
  }
  const after = {
    [r.receipt.debit]: r.debitAfter.postedPaisa,
    [r.receipt.credit]: r.creditAfter.postedPaisa,
  };
  // A duplicate is audited too: the POST that booked it may have failed after the booking (its
  // receipt write, a balance read) before its own audit, and this retry is then the only record.
  const detail = r.duplicate
    ? `${r.receipt.id} of ${original.id}, ${rs(original.amountPaisa)}: found booked already (an earlier confirm, this admin's or another's); this POST booked nothing`
    : `${r.receipt.id} of ${original.id}, ${rs(original.amountPaisa)}: ${r.receipt.reason ?? ""}`;
  await recordAction(
    parts,
    c,
    viewer,
    r.duplicate ? "reverse_found" : "reverse",
    detail,
    before,
    after,
  );
  await tellReversed(parts, original, r);
  // A duplicate is often the retry of the admin whose own confirm booked it: "reversed", once.
  const said = r.duplicate
    ? "Reversed: it is in the books once (an earlier confirm booked it, perhaps yours whose page failed); this confirm booked nothing more."
    : "Reversed.";
  const body = html`${notice(said)}${facts([
    ["Reversal", r.receipt.id],
    ["Amount", rs(r.receipt.amountPaisa)],
    ["Reason", r.receipt.reason ?? "—"],
    ...Object.keys(after).map(
      (a) => [`${a} (${POSTED})`, `${rs(before[a])} → ${rs(after[a])}`] as [string, string],
    ),
  ])}<p>${back}</p>`;
  return c.html(page(title, body, viewer));
}

export function cashInRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/cash-ins", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, viewer, TITLE);
    const q = daysSchema.safeParse({ days: c.req.query("days") || undefined });
    if (!q.success) {
      return c.html(
        page(TITLE, html`${notice(reasons(q.error), "error")}${findForm()}`, viewer),
        400,
      );
    }
    const read = await recentCashIns(parts.deps.ledger, sinceOf(parts.deps.now(), q.data.days));
    const rows = [];
    for (const e of read.entries) {
      rows.push({
        e,
        from: await partyOf(actions, e.debit),
        to: await partyOf(actions, e.credit),
        reversed: await actions.accounts.receipt(reversalIdOf(e.id)),
      });
    }
    return c.html(page(TITLE, listView(rows, q.data.days, read.complete), viewer));
  });

  app.get("/cash-ins/reverse", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, viewer, TITLE);
    const id = transferIdSchema.safeParse(c.req.query("id") ?? "");
    if (!id.success) {
      const body = html`${notice(`id: ${reasons(id.error)}`, "error")}${findForm((c.req.query("id") ?? "").slice(0, 128))}`;
      return c.html(page(TITLE, body, viewer), 400);
    }
    return confirmPage(c, parts, actions, id.data);
  });

  app.post("/cash-ins/reverse", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, viewer, TITLE);
    const body = await formOf(c);
    const given = { id: field(body, "id"), reason: field(body, "reason") };
    const form = reverseFormSchema.safeParse(given);
    if (!form.success) {
      const id = transferIdSchema.safeParse(given.id);
      if (!id.success) {
        const page400 = html`${notice(reasons(form.error), "error")}${findForm()}`;
        return c.html(page(TITLE, page400, viewer), 400);
      }
      const text = reasons(form.error);
      return confirmPage(c, parts, actions, id.data, { text, reason: given.reason.slice(0, 200) });
    }
    const original = await actions.accounts.receipt(form.data.id);
    if (!original) return confirmPage(c, parts, actions, form.data.id);
    const before = await postedOf(parts.deps.ledger, [original.debit, original.credit]);
    const r = await actions.accounts.reverse({
      originalId: original.id,
      adminUserId: viewer.userId,
      reason: form.data.reason,
    });
    return reversed(c, parts, viewer, original, before, r);
  });
}
