import type { Context } from "hono";
import { html } from "hono/html";
import type { z } from "zod";
import type { AccountId, LedgerStore } from "../../ledger/index.ts";
import type { AuditAction } from "../audit.ts";
import { audit } from "../auth.ts";
import { type Fragment, notice, page, rs, type Viewer } from "../html.ts";
import type { DashboardParts } from "../parts.ts";
import type { ActionDeps } from "./deps.ts";

/**
 * What the money actions share: their dependencies (or a page saying they are not configured),
 * the balances an audit entry keeps before and after, the audit entry itself, and the reasons of a
 * zod refusal as one line for the page.
 */

/** The actions' dependencies, or null (the composition root gave none: a 404 page says so). */
export const actionsOf = (parts: DashboardParts): ActionDeps | null => parts.deps.actions ?? null;

export function notConfigured(c: Context, viewer: Viewer, what: string) {
  return c.html(page(what, notice(`${what}: not configured here.`, "error"), viewer), 404);
}

/** One line of every issue, "field: message", for the page that shows the form again. */
export const reasons = (error: z.ZodError): string =>
  error.issues
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");

/** The posted balances of some accounts, by id: what an audit entry keeps before and after. */
export async function postedOf(
  ledger: LedgerStore,
  accounts: readonly AccountId[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const a of accounts) out[a] = (await ledger.balance(a)).postedPaisa;
  return out;
}

/** What the page and the audit entry show for a balance that could not be read after an action. */
export const NOT_READ = "not read";

/**
 * The posted balances after a money action that is done. The money has moved: a failed read must
 * not turn the result into a 500 that hides it and skips its audit entry (a retry finds the action
 * done and writes nothing). Logged loudly; each account then reads NOT_READ.
 */
export async function postedAfter(
  parts: DashboardParts,
  accounts: readonly AccountId[],
  what: string,
): Promise<Record<string, number | string>> {
  try {
    return await postedOf(parts.deps.ledger, accounts);
  } catch (err) {
    parts.deps.logger.error(
      { err: String(err), what, accounts },
      "an action was done but the balances after it were not read",
    );
    return Object.fromEntries(accounts.map((a) => [a, NOT_READ]));
  }
}

/** A balance row's figure: rupees, or what stands instead (NOT_READ), or "—". */
export const figure = (v: number | string | undefined): string =>
  typeof v === "number" ? rs(v) : (v ?? "—");

/** The audit entry of an action: who, when, from where, what, and the state before and after. */
export function recordAction(
  parts: DashboardParts,
  c: Context,
  who: Viewer,
  action: AuditAction,
  detail: string,
  before: Record<string, number | string>,
  after: Record<string, number | string>,
): Promise<void> {
  // The money (or the block) has moved by now: a failed audit write must not turn the result into
  // a 500 that hides it (a retry finds the action done and writes nothing). Logged loudly instead.
  return audit(parts, c, who, action, detail, { before, after }).catch((err: unknown) =>
    parts.deps.logger.error(
      { err: String(err), action, detail, before, after, userId: who.userId },
      "an action was done but its audit entry was not written",
    ),
  );
}

/** A form field as text ("" when missing or a file): the zod schema decides what is good. */
export function field(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  return typeof v === "string" ? v : "";
}

/**
 * The body of a form POST (urlencoded or multipart; app.ts refuses any other type). A body that
 * cannot be read (a malformed multipart) is an empty form: its fields are then refused with their
 * reasons, a 4xx, never a 500.
 */
export async function formOf(c: Context): Promise<Record<string, unknown>> {
  try {
    return (await c.req.parseBody()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A page's outcome section: what happened, and where to go next. */
export const outcome = (text: string, kind: "error" | "info", back: Fragment): Fragment =>
  html`${notice(text, kind)}<p>${back}</p>`;
