import { InlineKeyboard } from "grammy";
import { z } from "zod";
import { MAX_CALLBACK_BYTES, reportProblemButton } from "../../src/bot/callback-data.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import {
  BBPS_DISPOSITION,
  type Complaint,
  type ComplaintReason,
  type ComplaintStatus,
  clockOf,
  complaintRefSchema,
  spanText,
  TURNAROUND_WORKING_DAYS,
} from "../../src/complaints/index.ts";
import { formatMoney } from "../../src/money.ts";

/**
 * The complaints' words and buttons, shared by the customer's and the admins' chat and by the
 * composition root (the notices it sends after a change, the "Report a problem" button it puts
 * under a success push). Callback data: `cpo:<order reference>` (raise on that order) and
 * `cpa:<t|r|x>:<complaint number>` (an admin takes, resolves or rejects), zod-checked both ways.
 */

const REASON_KEY: Readonly<Record<ComplaintReason, string>> = {
  not_received: "complaint-reason-not-received",
  wrong_number: "complaint-reason-wrong-number",
  wrong_amount: "complaint-reason-wrong-amount",
  duplicate: "complaint-reason-duplicate",
};

const STATUS_KEY: Readonly<Record<ComplaintStatus, string>> = {
  logged: "complaint-status-logged",
  taken: "complaint-status-taken",
  resolved: "complaint-status-resolved",
  rejected: "complaint-status-rejected",
};

export const reasonText = (t: Translate, r: ComplaintReason): string => t(REASON_KEY[r]);
export const statusText = (t: Translate, s: ComplaintStatus): string => t(STATUS_KEY[s]);
/** A complaint's promised time, in Nepal time (the merchant's working days). */
export const dueText = (t: Translate, c: Complaint): string =>
  formatOrderTime(c.dueAt, "np", t.locale);
export const money = (t: Translate, paisa: number) => formatMoney(paisa, { locale: t.locale });

const fits = (data: string) => Buffer.byteLength(data, "utf8") <= MAX_CALLBACK_BYTES;

/** "Report a problem" on an order: `cpo:<reference>` (a global button: src/bot/callback-data.ts). */
export const reportButton = reportProblemButton;

const ADMIN_ACTION = z.enum(["t", "r", "x"]);
export type AdminAction = z.infer<typeof ADMIN_ACTION>;

/** An admin's Take / Resolve / Reject on a complaint: `cpa:<t|r|x>:<number>`. */
export const adminButton = {
  build: (a: AdminAction, ref: string) => `cpa:${a}:${complaintRefSchema.parse(ref)}`,
  parse(data: string | undefined): { action: AdminAction; ref: string } | null {
    const m = /^cpa:([a-z]):(.+)$/.exec(data ?? "");
    if (!m || !fits(data ?? "")) return null;
    const action = ADMIN_ACTION.safeParse(m[1]);
    const ref = complaintRefSchema.safeParse(m[2]);
    return action.success && ref.success ? { action: action.data, ref: ref.data } : null;
  },
};

/** The row under a success push (and wherever an order is shown): Report a problem. */
export function reportProblemRow(t: Translate, orderRef: string, kb = new InlineKeyboard()) {
  // A new row after what the push already offers; a fresh keyboard starts with an empty row.
  if ((kb.inline_keyboard.at(-1)?.length ?? 0) > 0) kb.row();
  return kb.text(t("complaint-report-button"), reportButton.build(orderRef));
}

/** A complaint as an admin's list shows it: who, what, its clock. */
export function adminLine(t: Translate, c: Complaint, now: number): string {
  const clock = clockOf(c, now);
  const line = t("complaints-line", {
    ref: c.reference,
    order: c.orderReference,
    reason: reasonText(t, c.reason),
    code: BBPS_DISPOSITION[c.reason],
    user: String(c.userId),
    status: statusText(t, c.status),
    age: spanText(clock.ageMs),
    due: dueText(t, c),
  });
  const when = clock.overdue
    ? t("complaints-overdue", { late: spanText(clock.leftMs) })
    : t("complaints-due-in", { left: spanText(clock.leftMs) });
  return `${line}\n${when}`;
}

export function adminButtons(t: Translate, c: Complaint): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (c.status === "logged")
    kb.text(t("complaint-take-button"), adminButton.build("t", c.reference));
  return kb
    .text(t("complaint-resolve-button"), adminButton.build("r", c.reference))
    .text(t("complaint-reject-button"), adminButton.build("x", c.reference));
}

/** What the customer reads when their complaint is registered. */
export function raisedText(t: Translate, c: Complaint): string {
  return t("complaint-raised", {
    ref: c.reference,
    order: c.orderReference,
    reason: reasonText(t, c.reason),
    due: dueText(t, c),
    days: TURNAROUND_WORKING_DAYS[c.reason],
  });
}

/** What a customer reads when the order already has an open complaint. */
export function alreadyOpenText(t: Translate, c: Complaint): string {
  return t("complaint-already-open", {
    ref: c.reference,
    order: c.orderReference,
    status: statusText(t, c.status),
    due: dueText(t, c),
  });
}

/** The customer's notice of a change an admin made (taken, resolved, rejected). */
export function changeText(
  t: Translate,
  c: Complaint,
  extra: { balancePaisa?: number } = {},
): string | null {
  const base = { ref: c.reference, order: c.orderReference };
  if (c.status === "taken") return t("complaint-taken", { ...base, due: dueText(t, c) });
  if (c.status === "rejected")
    return t("complaint-rejected", { ...base, why: c.closing?.text ?? "" });
  if (c.status !== "resolved") return null;
  const done = t("complaint-resolved", { ...base, text: c.closing?.text ?? "" });
  const refund = c.closing?.refund;
  if (!refund) return done;
  const amount = money(t, refund.amountPaisa);
  // The balance read after the booked refund may fail: then no balance line, never "Rs 0".
  const refunded =
    extra.balancePaisa === undefined
      ? t("complaint-refunded-balance-unknown", { amount })
      : t("complaint-refunded", { amount, balance: money(t, extra.balancePaisa) });
  return `${done}\n${refunded}`;
}

/** Why nothing was done, in words. */
export function refusalText(t: Translate, code: string, c?: Complaint, given = ""): string {
  const ref = c?.reference ?? given;
  switch (code) {
    case "closed":
      return t("complaint-closed-already", {
        ref,
        status: c ? statusText(t, c.status) : "",
        text: c?.closing?.text ?? "",
      });
    case "already_taken":
      return t("complaint-already-taken", { ref });
    case "unknown":
      return t("complaint-unknown", { ref });
    default:
      return t("complaint-admin-refused", { why: refundWhy(t, code) });
  }
}

/** Why no refund is possible (or was refused). */
export function refundWhy(t: Translate, code: string): string {
  if (code === "failed_returned") return t("complaint-refund-failed");
  if (code === "not_final") return t("complaint-refund-not-final");
  if (code === "already_refunded") return t("complaint-refund-already");
  if (code === "too_much") return t("complaint-refund-too-much");
  if (code === "ledger_refused") return t("complaint-refund-books");
  return t("complaint-refund-not-paid");
}
