import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import { type BalanceMoveResult, moveRefusal } from "../../accounts/index.ts";
import { account, type Balance } from "../../ledger/index.ts";
import { partyOf } from "../actions/cash-ins.ts";
import {
  actionsOf,
  field,
  formOf,
  notConfigured,
  outcome,
  postedAfter,
  postedOf,
  reasons,
  recordAction,
} from "../actions/common.ts";
import type { ActionDeps } from "../actions/deps.ts";
import { allow, authenticate } from "../auth.ts";
import { availableText, facts, notice, POSTED, page, rs, type Viewer } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { personPath, userIdSchema } from "../people/view.ts";

/**
 * An admin moves a customer's whole spendable balance to another customer's account (a WhatsApp
 * customer who changed number: docs/whatsapp.md): a confirm page naming both and the amount, and
 * the POST that books one `move` transfer through the accounts service under the id the page
 * fixed, so a double submit books once. Refused with its reason, booking nothing, while money is
 * held for an order or a hold or a top-up of the sender is not final, for the same customer, a receiver who is not a registered customer,
 * or a balance that changed since the page. Audited with both balances before and after; both
 * customers are told what moved. The same session, role and same-origin rules as every form.
 */

const TITLE = "Move a customer's balance";

/** The form's transfer id: fixed by the confirm page, for these two customers only. */
const moveIdOf = (from: number, to: number) =>
  `move-${from}-${to}-${randomBytes(8).toString("hex")}`;
const moveIdPattern = (from: number, to: number) => new RegExp(`^move-${from}-${to}-[0-9a-f]{16}$`);

const moveFormSchema = z.object({
  to: userIdSchema,
  amount: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "the amount shown, in paisa")
    .transform(Number)
    .refine(Number.isSafeInteger, "the amount shown, in paisa"),
  id: z.string().max(128),
});

/** The words of a refusal: what stands in the way, and that nothing was booked. */
function refusalText(r: Exclude<BalanceMoveResult, { ok: true }>, from: string, to: string) {
  const none = "Nothing was moved.";
  switch (r.code) {
    case "same":
      return `Refused: the balance would move to the same account. ${none}`;
    case "no_receiver":
      return `Refused: ${to} is not a registered customer (no phone number on record). ${none}`;
    case "held":
      return `Refused: ${rs(r.heldPaisa)} of ${from} is held for an order under way or a hold. Wait until it ends (the order succeeds or fails), then move the whole balance. ${none}`;
    case "open_topup":
      return `Refused: ${from} has a Khalti top-up that is not final yet (${r.topUps.join(", ")}: waiting for Khalti, held or a partial refund; see Top-ups). Moving now would leave its credit, or a refund's taking back, on the old account. Wait until it ends (credited, expired, cancelled, refunded or decided), then move the whole balance. ${none}`;
    case "empty":
      return `Refused: ${from} has no spendable balance. ${none}`;
    case "changed":
      return `Refused: the balance of ${from} changed since this page was shown (now ${rs(r.availablePaisa)} available). Open the page again. ${none}`;
    case "insufficient_funds":
      return `Refused: the books found ${from} with ${rs(r.availablePaisa)}, ${rs(r.shortfallPaisa)} short. ${none}`;
    default:
      return `Refused: the books refused the transfer. ${none}`;
  }
}

/** The sender's top-ups not final yet (payment ids): the move waits for them. */
async function openTopUpsOf(actions: ActionDeps, from: number): Promise<string[]> {
  const list = actions.topUps?.notFinalOf;
  return list ? (await list(from)).map((t) => t.paymentId) : [];
}

/** Who the two sides are, checked before anything is shown or booked: customers, not the same. */
function sidesRefusal(parts: DashboardParts, from: number, to: number | null): string | null {
  if (parts.deps.roleOf(from) !== "customer") return "Only a customer's balance is moved here.";
  if (to === null) return null;
  if (parts.deps.roleOf(to) !== "customer") return "The balance moves to a customer only.";
  return null;
}

function toForm(from: number, to = ""): ReturnType<typeof html> {
  return html`<form method="get" action="${personPath(from, "/move")}">
<label>To customer (id) <input name="to" value="${to}" inputmode="numeric" maxlength="16" required></label>
<button type="submit">Next</button></form>`;
}

async function confirmView(
  actions: ActionDeps,
  from: number,
  to: number,
  balance: Balance,
): Promise<ReturnType<typeof html>> {
  const [a, b] = [
    await partyOf(actions, account.customer(from)),
    await partyOf(actions, account.customer(to)),
  ];
  return html`${facts([
    ["From", `${a}, ${availableText(balance)}`],
    ["To", b],
    ["Amount", rs(balance.availablePaisa)],
  ])}
<p>Moving books one transfer of ${rs(balance.availablePaisa)} from ${a} to ${b} (kind "move").
Both customers are told. Nothing else changes: each keeps their phone number and history.</p>
<form method="post" action="${personPath(from, "/move")}">
<input type="hidden" name="to" value="${to}">
<input type="hidden" name="amount" value="${balance.availablePaisa}">
<input type="hidden" name="id" value="${moveIdOf(from, to)}">
<button type="submit">Move ${rs(balance.availablePaisa)}</button></form>`;
}

async function confirmPage(c: Context<DashboardEnv>, parts: DashboardParts, actions: ActionDeps) {
  const viewer = c.get("viewer");
  const from = userIdSchema.safeParse(c.req.param("id"));
  if (!from.success) {
    return c.html(page(TITLE, notice("A customer id is a positive number.", "error"), viewer), 400);
  }
  const back = html`<a href="${personPath(from.data)}">Back to customer ${from.data}</a>`;
  const given = c.req.query("to");
  const to = given === undefined ? null : userIdSchema.safeParse(given);
  if (to && !to.success) {
    const body = html`${notice(`to: ${reasons(to.error)}`, "error")}${toForm(from.data)}`;
    return c.html(page(TITLE, body, viewer), 400);
  }
  const wrong = sidesRefusal(parts, from.data, to?.data ?? null);
  if (wrong) return c.html(page(TITLE, outcome(wrong, "error", back), viewer), 409);
  const balance = await parts.deps.ledger.balance(account.customer(from.data));
  const name = await partyOf(actions, account.customer(from.data));
  if (!to) {
    const body = html`${facts([["From", `${name}, ${availableText(balance)}`]])}${toForm(from.data)}`;
    return c.html(page(TITLE, body, viewer));
  }
  const toName = await partyOf(actions, account.customer(to.data));
  const registered = (await actions.accounts.phoneOf(to.data)) !== null;
  const refused = moveRefusal(
    {
      fromUserId: from.data,
      toUserId: to.data,
      amountPaisa: balance.availablePaisa,
      openTopUps: await openTopUpsOf(actions, from.data),
    },
    balance,
    registered,
  );
  if (refused) {
    return c.html(
      page(TITLE, outcome(refusalText(refused, name, toName), "error", back), viewer),
      409,
    );
  }
  return c.html(page(TITLE, await confirmView(actions, from.data, to.data, balance), viewer));
}

/** Both customers told, each once; a message not delivered is logged, the move stands. */
async function tellMoved(parts: DashboardParts, r: Extract<BalanceMoveResult, { ok: true }>) {
  const tell = actionsOf(parts)?.tellMoved;
  if (!tell) return;
  try {
    await tell({
      id: r.receipt.id,
      fromUserId: Number(r.receipt.debit.split(":")[1]),
      toUserId: Number(r.receipt.credit.split(":")[1]),
      amountPaisa: r.receipt.amountPaisa,
      fromBalancePaisa: r.debitAfter.availablePaisa,
      toBalancePaisa: r.creditAfter.availablePaisa,
    });
  } catch (err) {
    parts.deps.logger.warn(
      { moveId: r.receipt.id, err: err instanceof Error ? err.message : String(err) },
      "balance move notice not delivered",
    );
  }
}

async function moved(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  viewer: Viewer,
  sides: { from: number; to: number; fromName: string; toName: string },
  before: Record<string, number>,
  r: BalanceMoveResult,
) {
  const back = html`<a href="${personPath(sides.from)}">Back to customer ${sides.from}</a>`;
  if (!r.ok) {
    const text = refusalText(r, sides.fromName, sides.toName);
    return c.html(page(TITLE, outcome(text, "error", back), viewer), 409);
  }
  const accs = [r.receipt.debit, r.receipt.credit];
  const after = await postedAfter(parts, accs, "balance move");
  // A duplicate is audited too: the POST that booked it may have failed before its own audit.
  const detail = `${r.receipt.id}: ${rs(r.receipt.amountPaisa)} ${sides.fromName} -> ${sides.toName}${r.duplicate ? ": found booked already (a double submit); this POST booked nothing" : ""}`;
  await recordAction(parts, c, viewer, "balance_move", detail.slice(0, 300), before, after);
  await tellMoved(parts, r);
  const said = r.duplicate
    ? "Moved: it is in the books once (an earlier submit of this form booked it); this one booked nothing more."
    : "Moved.";
  const body = html`${notice(said)}${facts([
    ["Transfer", r.receipt.id],
    ["Amount", rs(r.receipt.amountPaisa)],
    ...accs.map(
      (a) =>
        [
          `${a} (${POSTED})`,
          `${rs(before[a])} → ${typeof after[a] === "number" ? rs(after[a]) : after[a]}`,
        ] as [string, string],
    ),
  ])}<p>${back}</p>`;
  return c.html(page(TITLE, body, viewer));
}

async function movePost(c: Context<DashboardEnv>, parts: DashboardParts, actions: ActionDeps) {
  const viewer = c.get("viewer");
  const from = userIdSchema.safeParse(c.req.param("id"));
  const body = await formOf(c);
  const form = moveFormSchema.safeParse({
    to: field(body, "to"),
    amount: field(body, "amount"),
    id: field(body, "id"),
  });
  if (!from.success) {
    return c.html(page(TITLE, notice("A customer id is a positive number.", "error"), viewer), 400);
  }
  if (!form.success) return c.html(page(TITLE, notice(reasons(form.error), "error"), viewer), 400);
  const { to, amount, id } = form.data;
  if (!moveIdPattern(from.data, to).test(id)) {
    const why = "This form's transfer id is not one the confirm page gave for these customers.";
    return c.html(page(TITLE, notice(why, "error"), viewer), 400);
  }
  const back = html`<a href="${personPath(from.data)}">Back to customer ${from.data}</a>`;
  const wrong = sidesRefusal(parts, from.data, to);
  if (wrong) return c.html(page(TITLE, outcome(wrong, "error", back), viewer), 409);
  const sides = {
    from: from.data,
    to,
    fromName: await partyOf(actions, account.customer(from.data)),
    toName: await partyOf(actions, account.customer(to)),
  };
  const before = await postedOf(parts.deps.ledger, [
    account.customer(from.data),
    account.customer(to),
  ]);
  const moveBalance = actions.accounts.moveBalance;
  if (!moveBalance) return notConfigured(c, viewer, TITLE);
  const r = await moveBalance({
    id,
    fromUserId: from.data,
    toUserId: to,
    amountPaisa: amount,
    adminUserId: viewer.userId,
    openTopUps: await openTopUpsOf(actions, from.data),
  });
  return moved(c, parts, viewer, sides, before, r);
}

export function balanceMoveRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;
  const ready = () => {
    const actions = actionsOf(parts);
    return actions?.accounts.moveBalance ? actions : null;
  };
  app.get("/customers/:id/move", ...admin, (c) => {
    const actions = ready();
    if (!actions) return notConfigured(c, c.get("viewer"), TITLE);
    return confirmPage(c, parts, actions);
  });
  app.post("/customers/:id/move", ...admin, (c) => {
    const actions = ready();
    if (!actions) return notConfigured(c, c.get("viewer"), TITLE);
    return movePost(c, parts, actions);
  });
}
