import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { account } from "../../ledger/index.ts";
import {
  actionsOf,
  field,
  formOf,
  notConfigured,
  outcome,
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
import type { AuditEntry } from "../audit.ts";
import { allow, authenticate, origin } from "../auth.ts";
import {
  type Figures,
  figuresAtBooking,
  floatAuditMark,
  floatLine,
  foundBookedDetail,
  moveDetail,
  proposeLine,
  rejectLine,
  repairFloatAudit,
} from "../float-audit.ts";
import {
  type ApproveResult,
  approvalRule,
  createFloatMoves,
  DIRECTION_WORDS,
  type FloatDecision,
  type FloatMove,
  type FloatMoveRecord,
  type FloatVia,
  floatMoveIdSchema,
  transferIdOf,
} from "../float-moves.ts";
import { type Fragment, facts, notice, page, path, rs, time, type Viewer } from "../html.ts";
import { dashboardKeys } from "../keys.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The float's movements on the books page (h-float; the rules in ../float-moves.ts): POST
 * /books/float proposes one, /books/float/approve approves and books it, /books/float/reject
 * rejects (or withdraws) it. Admins only, each step audited with the proposal's state (an
 * approval's also with the accounts' posted balances at its booking) before and after, exactly
 * once: a line cut off from its step is written by a read of the record once the step is older
 * than a grace (../float-audit.ts).
 */

const TITLE = "Float movements";
const back = html`<a href="${path("/books#float-moves")}">Back to the books</a>`;

const movesOf = (parts: DashboardParts) =>
  createFloatMoves({
    kv: parts.deps.kv,
    keys: dashboardKeys(parts.deps.prefix),
    ledger: parts.deps.ledger,
  });

/** Who asks and from where, kept in the step's record for its audit line (float-audit.ts). */
const viaOf = (c: Context, viewer: Viewer): FloatVia => ({ role: viewer.role, ...origin(c) });

/**
 * Writes the lines `records` owe that a cut-off step left unwritten. A read or a step stands
 * without it: a failure is logged, and the next read tries again.
 */
async function mend(parts: DashboardParts, records: readonly FloatMoveRecord[]) {
  const deps = {
    audit: parts.audit,
    entryOf: (id: string) => parts.deps.ledger.entryOf(id),
    same: (a: number, b: number) => samePerson(parts, a, b),
    now: parts.deps.now,
  };
  try {
    const written = await repairFloatAudit(deps, records);
    if (written > 0)
      parts.deps.logger.warn({ written }, "float movement: cut-off audit lines written");
  } catch (err) {
    parts.deps.logger.error({ err: String(err) }, "float movement: audit lines not mended");
  }
}

/** One proposal's owed lines (a later step's POST), read anew. */
async function mendOne(parts: DashboardParts, id: string) {
  const r = await movesOf(parts)
    .get(id)
    .catch(() => null);
  if (r) await mend(parts, [r]);
}

/**
 * A step's own line, once (its mark): the step has happened by now, so a failed write is logged,
 * never a 500 hiding the step; a read of the record after the grace writes it (mend).
 */
async function recordStep(parts: DashboardParts, line: AuditEntry, mark: string) {
  try {
    // Not written: a read wrote the step's line first, this POST outlasting the grace (float-audit.ts).
    if (!(await parts.audit.recordOnce(line, mark))) {
      parts.deps.logger.warn(
        { action: line.action, detail: line.detail, mark },
        "a float movement's audit line was written by a read before its step's own (kept)",
      );
    }
  } catch (err) {
    parts.deps.logger.error(
      { err: String(err), action: line.action, detail: line.detail, mark },
      "a float movement's step was done but its audit entry was not written (a read writes it after the grace)",
    );
  }
}

/** The books page's section (empty when the money actions are not configured here). */
export async function floatMovesSection(
  parts: DashboardParts,
  viewer: Viewer,
  form: ProposeValues = { key: freshKey() },
): Promise<Fragment> {
  const actions = actionsOf(parts);
  if (!actions) return html``;
  const { records, unbooked } = await movesOf(parts).list();
  await mend(parts, records);
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
    via: viaOf(c, viewer),
  };
  const p = await movesOf(parts).propose(move);
  // A form sent again meets its standing proposal: a line that proposal's POST lost is written.
  if (!p.created) await mendOne(parts, key);
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
  await recordStep(
    parts,
    proposeLine(record.move, viaOf(c, viewer)),
    floatAuditMark(key, "propose"),
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

/** The books' float (debit-normal) as the page shows it, from a balances record. */
const floatShown = (b: Figures["before"]) => rs(-(Number(b[account.merchant.float]) || 0));

async function approve(c: Context<DashboardEnv>, parts: DashboardParts, viewer: Viewer) {
  const f = decideSchema.safeParse({ id: field(await formOf(c), "id") });
  if (!f.success) return c.html(page(TITLE, outcome(reasons(f.error), "error", back), viewer), 400);
  const moves = movesOf(parts);
  const found = await moves.get(f.data.id);
  const now = parts.deps.now();
  const rule = approvalRule(actionsOf(parts)?.admins);
  const via = viaOf(c, viewer);
  const r = await moves.approve(f.data.id, viewer.userId, now, rule, via);
  if (!r.ok) {
    await mendOne(parts, f.data.id);
    const { text, status } = refusal(r);
    return c.html(page(TITLE, outcome(text, "error", back), viewer), status);
  }
  const { move, decision } = r.record;
  const at = await figuresAtBooking(parts.deps, r.entry);
  const was = found?.decision ? `approved by ${found.decision.by}` : "open";
  const proposal = [{ proposal: was }, { proposal: `approved by ${decision.by}` }] as const;
  if (r.bookedNow) {
    // The booking's line, once (the approval's), with its balances as the books recorded them.
    const step = { via, who: viewer.userId, at: now, action: "float_approve" as const };
    const detail = moveDetail(
      move,
      at ? `balances at its booking (${r.entry.seq})` : "its balances not read",
    );
    const change = [
      { ...at?.before, ...proposal[0] },
      { ...at?.after, ...proposal[1] },
    ] as const;
    await recordStep(parts, floatLine(step, detail, ...change), floatAuditMark(move.id, "approve"));
  } else {
    // This POST booked nothing: a line of its own, beside the booking's, that moved no balance.
    const detail = foundBookedDetail(move, decision.by, r.entry, at);
    await recordAction(parts, c, viewer, "float_approve", detail, ...proposal);
  }
  await mendOne(parts, move.id);
  // On every approval: a booking whose telling was cut off is told by the next (tell is once-only).
  await tell(parts, move, decision);
  const said = r.bookedNow
    ? "Approved and booked."
    : "Approved already: it is in the books once; this approval booked nothing more.";
  const float = at
    ? `${floatShown(at.before)} → ${floatShown(at.after)}`
    : "not shown: the books' record of this booking could not be read";
  const shown = html`${outcome(said, "info", back)}${facts([
    ["Transfer", r.entry.id],
    ["Amount", rs(r.entry.amountPaisa)],
    ["Approved", `by admin ${decision.by}, ${time(decision.at)}`],
    ["Booked", time(r.entry.at)],
    ["Float in the books at its booking", float],
  ])}`;
  return c.html(page(TITLE, shown, viewer));
}

async function reject(c: Context<DashboardEnv>, parts: DashboardParts, viewer: Viewer) {
  const f = decideSchema.safeParse({ id: field(await formOf(c), "id") });
  if (!f.success) return c.html(page(TITLE, outcome(reasons(f.error), "error", back), viewer), 400);
  const via = viaOf(c, viewer);
  const r = await movesOf(parts).reject(f.data.id, viewer.userId, parts.deps.now(), via);
  if (!r.ok) {
    await mendOne(parts, f.data.id);
    if (r.code === "unknown") {
      return c.html(page(TITLE, outcome("No such proposal.", "error", back), viewer), 404);
    }
    const d = r.decision;
    const text = `Already ${d.decision} by admin ${d.by} (${time(d.at)}): nothing was changed.`;
    return c.html(page(TITLE, outcome(text, "error", back), viewer), 409);
  }
  const { move, decision } = r.record;
  const same = (a: number, b: number) => samePerson(parts, a, b);
  await recordStep(parts, rejectLine(move, decision, via, same), floatAuditMark(move.id, "reject"));
  await tell(parts, move, decision);
  await mendOne(parts, move.id);
  const state = same(move.by, viewer.userId) ? "withdrawn" : "rejected";
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
