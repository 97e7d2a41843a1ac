import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { account } from "../../ledger/index.ts";
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
import {
  decidedNote,
  decideSchema,
  floatMovesView,
  freshKey,
  LONE_ADMIN,
  type ProposeValues,
  proposedNote,
  proposeForm,
  proposeSchema,
  shownDecisions,
} from "../actions/float-moves.ts";
import { allow, authenticate } from "../auth.ts";
import {
  type ApproveResult,
  approvalRule,
  createFloatMoves,
  DIRECTION_WORDS,
  type FloatDecision,
  type FloatMove,
  floatMoveIdSchema,
  sidesOf,
  transferIdOf,
} from "../float-moves.ts";
import { type Fragment, facts, notice, page, path, rs, time, type Viewer } from "../html.ts";
import { dashboardKeys } from "../keys.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The float's movements on the books page (h-float; the rules in ../float-moves.ts): POST
 * /books/float proposes one, /books/float/approve approves and books it, /books/float/reject
 * rejects (or withdraws) it. Admins only, each step audited with the accounts' posted balances
 * (or the proposal's state) before and after.
 */

const TITLE = "Float movements";
const back = html`<a href="${path("/books#float-moves")}">Back to the books</a>`;

const movesOf = (parts: DashboardParts) =>
  createFloatMoves({
    kv: parts.deps.kv,
    keys: dashboardKeys(parts.deps.prefix),
    ledger: parts.deps.ledger,
  });

/** The books page's section (empty when the money actions are not configured here). */
export async function floatMovesSection(
  parts: DashboardParts,
  viewer: Viewer,
  form: ProposeValues = { key: freshKey() },
): Promise<Fragment> {
  const actions = actionsOf(parts);
  if (!actions) return html``;
  const { records, unbooked } = await movesOf(parts).list();
  const decided = shownDecisions(records, unbooked);
  const booked = new Set<string>();
  for (const r of decided.filter((r) => r.decision?.decision === "approved")) {
    const id = transferIdOf(r.move.id);
    if (await parts.deps.ledger.entryOf(id)) booked.add(id);
  }
  const rule = approvalRule(actions.admins);
  return floatMovesView({
    records,
    decided,
    booked,
    mayApprove: (r) => rule.mayApprove(r.move.by, viewer.userId),
    mine: (r) => samePerson(parts, r.move.by, viewer.userId),
    form,
  });
}

/** One person (ADMIN_IDS `=` groups: one person's chats), as the approval rule reads it. */
const samePerson = (parts: DashboardParts, a: number, b: number) =>
  a === b || actionsOf(parts)?.admins?.same(a, b) === true;

/**
 * The other admins told that a proposal waits, or its proposer told another admin decided it (an
 * admin alert, once each). The money step is done: a failed alert is logged, never a 500.
 */
async function tell(parts: DashboardParts, m: FloatMove, decision?: FloatDecision) {
  const actions = actionsOf(parts);
  const admins = actions?.admins;
  if (!actions?.alertAdmins || !admins) return;
  const same = (a: number, b: number) => a === b || admins.same(a, b);
  const [once, to, note] = decision
    ? [
        `float-move:${m.id}:decided`,
        same(m.by, decision.by) ? [] : [m.by],
        decidedNote(m, decision),
      ]
    : [`float-move:${m.id}`, admins.ids().filter((a) => !same(a, m.by)), proposedNote(m)];
  try {
    await actions.alertAdmins(once, to, note);
  } catch (err) {
    parts.deps.logger.warn(
      { id: m.id, err: String(err) },
      "float movement: admin alert not queued",
    );
  }
}

const describe = (m: FloatMove) =>
  `${transferIdOf(m.id)}: ${DIRECTION_WORDS[m.direction]} ${rs(m.amountPaisa)}: ${m.reason}${m.reference ? ` (ref ${m.reference})` : ""}`;

async function propose(c: Context<DashboardEnv>, parts: DashboardParts, viewer: Viewer) {
  const body = await formOf(c);
  const given = {
    key: field(body, "key"),
    direction: field(body, "direction"),
    amount: field(body, "amount"),
    reason: field(body, "reason"),
    reference: field(body, "reference"),
  };
  const f = proposeSchema.safeParse(given);
  if (!f.success) {
    const values: ProposeValues = {
      key: floatMoveIdSchema.safeParse(given.key).success ? given.key : freshKey(),
      direction: given.direction.slice(0, 10),
      amount: given.amount.slice(0, 20),
      reason: given.reason.slice(0, 200),
      reference: given.reference.slice(0, 64),
    };
    const shown = html`${notice(reasons(f.error), "error")}${proposeForm(values)}<p>${back}</p>`;
    return c.html(page(TITLE, shown, viewer), 400);
  }
  const { key, amount, reference, ...rest } = f.data;
  const move: FloatMove = {
    id: key,
    ...rest,
    amountPaisa: amount,
    ...(reference ? { reference } : {}),
    by: viewer.userId,
    at: parts.deps.now(),
  };
  const p = await movesOf(parts).propose(move);
  if (!p.record) {
    const text = `This form's proposal was ${p.decided.decision} already and is no longer kept: open the books page again for a new form. Nothing was proposed.`;
    return c.html(page(TITLE, outcome(text, "error", back), viewer), 409);
  }
  const { created, record } = p;
  if (!created) {
    const s = record.move;
    const same = s.direction === move.direction && s.amountPaisa === move.amountPaisa;
    const differs = !same || s.reason !== move.reason || s.reference !== move.reference;
    const said = differs
      ? "This form was sent already with other fields: the proposal below stands, and nothing more was proposed."
      : "This form was sent already: its proposal stands once. Nothing more was proposed.";
    const shown = html`${outcome(said, differs ? "error" : "info", back)}${moveFacts(s)}`;
    return c.html(page(TITLE, shown, viewer), differs ? 409 : 200);
  }
  const after = { proposal: "open", amountPaisa: move.amountPaisa };
  await recordAction(
    parts,
    c,
    viewer,
    "float_propose",
    describe(move),
    { proposal: "none" },
    after,
  );
  await tell(parts, move);
  const lone = approvalRule(actionsOf(parts)?.admins).mayApprove(move.by, move.by);
  const until = lone
    ? `Nothing moves until you approve it on the books page. ${LONE_ADMIN}`
    : "Nothing moves until another admin approves it on the books page.";
  const said = `Proposed: ${DIRECTION_WORDS[move.direction]} of ${rs(move.amountPaisa)}. ${until}`;
  return c.html(page(TITLE, html`${outcome(said, "info", back)}${moveFacts(record.move)}`, viewer));
}

const moveFacts = (m: FloatMove) =>
  facts([
    ["Proposal", m.id],
    ["What", DIRECTION_WORDS[m.direction]],
    ["Amount", rs(m.amountPaisa)],
    ["Reason", m.reason],
    ["Reference", m.reference ?? "—"],
    ["Proposed", `by admin ${m.by}, ${time(m.at)}`],
  ]);

function refusal(r: Exclude<ApproveResult, { ok: true }>): { text: string; status: 404 | 409 } {
  if (r.code === "unknown") return { text: "No such proposal.", status: 404 };
  if (r.code === "own_proposal") {
    return {
      text: "Your own proposal waits for another admin's approval: nothing was booked.",
      status: 409,
    };
  }
  if (r.code === "not_this_proposal") {
    return {
      text: `The decision of this proposal's id (admin ${r.decision.by}, ${time(r.decision.at)}) was of another proposal: nothing was booked.`,
      status: 409,
    };
  }
  if (r.code === "rejected") {
    return {
      text: `This proposal was rejected by admin ${r.decision.by} (${time(r.decision.at)}): it cannot be approved. Nothing was booked.`,
      status: 409,
    };
  }
  const why = r.code === "ledger_refused" ? r.why : r.code;
  return { text: `The books refused the transfer (${why}): nothing was booked.`, status: 409 };
}

async function approve(c: Context<DashboardEnv>, parts: DashboardParts, viewer: Viewer) {
  const f = decideSchema.safeParse({ id: field(await formOf(c), "id") });
  if (!f.success) return c.html(page(TITLE, outcome(reasons(f.error), "error", back), viewer), 400);
  const moves = movesOf(parts);
  const found = await moves.get(f.data.id);
  const sides = found ? sidesOf(found.move.direction) : null;
  const { ledger } = parts.deps;
  const before = sides ? await postedOf(ledger, [sides.debit, sides.credit]) : {};
  const now = parts.deps.now();
  const rule = approvalRule(actionsOf(parts)?.admins);
  const r = await moves.approve(f.data.id, viewer.userId, now, rule);
  if (!r.ok) {
    const { text, status } = refusal(r);
    return c.html(page(TITLE, outcome(text, "error", back), viewer), status);
  }
  const { move, decision } = r.record;
  const after = await postedOf(ledger, [r.entry.debit, r.entry.credit]);
  const was = found?.decision ? `approved by ${found.decision.by}` : "open";
  const detail = r.bookedNow
    ? describe(move)
    : `${transferIdOf(move.id)}: found booked already (approved by admin ${decision.by}); this POST booked nothing`;
  await recordAction(
    parts,
    c,
    viewer,
    "float_approve",
    detail,
    { ...before, proposal: was },
    { ...after, proposal: `approved by ${decision.by}` },
  );
  // On every approval: a booking whose telling was cut off is told by the next (tell is once-only).
  await tell(parts, move, decision);
  const said = r.bookedNow
    ? "Approved and booked."
    : "Approved already: it is in the books once; this approval booked nothing more.";
  const float = account.merchant.float;
  const floatOf = (b: Record<string, number | string>) => -(Number(b[float]) || 0);
  const shown = html`${outcome(said, "info", back)}${facts([
    ["Transfer", r.entry.id],
    ["Amount", rs(r.entry.amountPaisa)],
    ["Approved", `by admin ${decision.by}, ${time(decision.at)}`],
    ["Float in the books", `${rs(floatOf(before))} → ${rs(floatOf(after))}`],
  ])}`;
  return c.html(page(TITLE, shown, viewer));
}

async function reject(c: Context<DashboardEnv>, parts: DashboardParts, viewer: Viewer) {
  const f = decideSchema.safeParse({ id: field(await formOf(c), "id") });
  if (!f.success) return c.html(page(TITLE, outcome(reasons(f.error), "error", back), viewer), 400);
  const r = await movesOf(parts).reject(f.data.id, viewer.userId, parts.deps.now());
  if (!r.ok) {
    if (r.code === "unknown") {
      return c.html(page(TITLE, outcome("No such proposal.", "error", back), viewer), 404);
    }
    const d = r.decision;
    const text = `Already ${d.decision} by admin ${d.by} (${time(d.at)}): nothing was changed.`;
    return c.html(page(TITLE, outcome(text, "error", back), viewer), 409);
  }
  await tell(parts, r.record.move, r.record.decision);
  const own = samePerson(parts, r.record.move.by, viewer.userId);
  const state = own ? "withdrawn" : "rejected";
  await recordAction(
    parts,
    c,
    viewer,
    "float_reject",
    `${describe(r.record.move)}: ${state}`,
    { proposal: "open" },
    { proposal: state },
  );
  return c.html(
    page(TITLE, outcome(`The proposal was ${state}. Nothing was booked.`, "info", back), viewer),
  );
}

export function floatMoveRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;
  const configured = (handler: typeof propose) => async (c: Context<DashboardEnv>) => {
    const viewer = c.get("viewer");
    if (!actionsOf(parts)) return notConfigured(c, viewer, TITLE);
    return handler(c, parts, viewer);
  };
  app.post("/books/float", ...admin, configured(propose));
  app.post("/books/float/approve", ...admin, configured(approve));
  app.post("/books/float/reject", ...admin, configured(reject));
}
