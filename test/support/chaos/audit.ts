import type { BotApiEmulator } from "../../../dev/playground/emulator/index.ts";
import type { LedgerRow } from "../../../dev/sandbox/index.ts";
import { providerReference } from "../../../src/orders/execute-request.ts";
import { isFinal, type Order } from "../../../src/orders/model.ts";
import { finalPushes } from "../chat.ts";

/**
 * The checks every money test ends with, from three independent records: the orders as the
 * product stored them, the aggregator's ledger and request counts, and the chats as users see them.
 */
export interface Audit {
  orders: number;
  notFinal: string[];
  /** References the aggregator received more than one execute request for. */
  doubleExecutes: string[];
  /** References debited more than once in the ledger. */
  doubleDebits: string[];
  /** success without a kept debit, or failed with a debit that was not refunded. */
  moneyMismatches: string[];
  /** Ledger rows no stored order accounts for. */
  unaccountedDebits: string[];
  missingPushes: string[];
  duplicatePushes: string[];
  /** A push in another chat than the order's, or saying another outcome. */
  wrongPushes: string[];
  pushes: number;
}

export function audit(
  orders: readonly Order[],
  ledger: readonly LedgerRow[],
  executes: ReadonlyMap<string, number>,
  emu: BotApiEmulator,
  chats: Iterable<number>,
): Audit {
  const rows = new Map<string, LedgerRow[]>();
  for (const r of ledger) rows.set(r.referenceNo, [...(rows.get(r.referenceNo) ?? []), r]);
  const pushes = finalPushes(emu, chats);
  const known = new Set(orders.map((o) => providerReference(o)));
  const out: Audit = {
    orders: orders.length,
    notFinal: [],
    doubleExecutes: [],
    doubleDebits: [],
    moneyMismatches: [],
    unaccountedDebits: ledger.filter((r) => !known.has(r.referenceNo)).map((r) => r.referenceNo),
    missingPushes: [],
    duplicatePushes: [],
    wrongPushes: [],
    pushes: [...pushes.values()].reduce((a, p) => a + p.outcomes.length, 0),
  };
  for (const o of orders) {
    const ref = providerReference(o);
    if (!isFinal(o.status)) out.notFinal.push(`${o.reference}:${o.status}`);
    if ((executes.get(ref) ?? 0) > 1) out.doubleExecutes.push(ref);
    const r = rows.get(ref) ?? [];
    if (r.length > 1) out.doubleDebits.push(ref);
    const row = r[0];
    const kept = row !== undefined && row.status !== "failed" && row.refundPaisa === 0;
    const agrees =
      o.status === "success"
        ? kept && row.status === "success"
        : row === undefined || (row.status === "failed" && row.refundPaisa === row.debitPaisa);
    if (isFinal(o.status) && !agrees) {
      out.moneyMismatches.push(`${o.reference}:${o.status}/aggregator ${row?.status ?? "none"}`);
    }
    const p = pushes.get(o.reference);
    if (!p) out.missingPushes.push(o.reference);
    else {
      if (p.outcomes.length > 1) out.duplicatePushes.push(o.reference);
      const word = o.status === "success" ? "succeeded" : "failed";
      if (p.chatId !== o.chatId || p.outcomes.some((w) => w !== word))
        out.wrongPushes.push(o.reference);
    }
  }
  const ours = new Set(orders.map((o) => o.reference));
  for (const ref of pushes.keys()) if (!ours.has(ref)) out.wrongPushes.push(ref);
  return out;
}

/** The audit as figures (counts). */
export function auditFigures(a: Audit): Record<string, number> {
  return {
    orders: a.orders,
    "orders not final": a.notFinal.length,
    "double executes": a.doubleExecutes.length,
    "references debited twice": a.doubleDebits.length,
    "money mismatches (order vs ledger)": a.moneyMismatches.length,
    "debits no order accounts for": a.unaccountedDebits.length,
    "final pushes": a.pushes,
    "orders pushed twice": a.duplicatePushes.length,
    "orders never pushed": a.missingPushes.length,
    "pushes to the wrong chat or with the wrong outcome": a.wrongPushes.length,
  };
}

/** Every list of the audit empty, reported together so one failure shows all problems. */
export function problems(a: Audit): Record<string, string[]> {
  const all: Record<string, string[]> = {
    notFinal: a.notFinal,
    doubleExecutes: a.doubleExecutes,
    doubleDebits: a.doubleDebits,
    moneyMismatches: a.moneyMismatches,
    unaccountedDebits: a.unaccountedDebits,
    missingPushes: a.missingPushes,
    duplicatePushes: a.duplicatePushes,
    wrongPushes: a.wrongPushes,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v.length > 0));
}

/**
 * The story of every order the audit found a problem with: its pushes as the chat shows them, its
 * stored history and the log lines naming it. Printed when a chaos test fails, so a failure seen
 * once in CI can be read without a rerun.
 */
export function problemStories(
  a: Audit,
  orders: readonly Order[],
  emu: BotApiEmulator,
  logs: { matching(re: RegExp): Array<{ source: string; line: string }> },
): string {
  const refs = new Set(
    Object.values(problems(a))
      .flat()
      .map((r) => r.split(":")[0] ?? r),
  );
  const byRef = new Map(orders.map((o) => [o.reference, o]));
  const out: string[] = [];
  for (const ref of refs) {
    const o = byRef.get(ref);
    out.push(
      `--- ${ref}: ${o ? `${o.status} (chat ${o.chatId}, version ${o.version})` : "not stored"}`,
    );
    for (const e of o?.history ?? [])
      out.push(`  history ${e.at} ${e.source} ${e.status ?? "-"} ${e.note ?? ""}`);
    const chat = o ? emu.chat(o.chatId) : [];
    for (const m of chat.filter((m) => m.from === "bot" && m.text.includes(ref)))
      out.push(
        `  chat #${m.id} ${m.date}${m.edited ? ` edited ${m.editedAt}` : ""} ${m.text.replaceAll("\n", " | ").slice(0, 160)}`,
      );
    for (const { source, line } of logs.matching(new RegExp(ref)).slice(0, 60))
      out.push(`  log ${source} ${line.slice(0, 400)}`);
  }
  return out.join("\n");
}
