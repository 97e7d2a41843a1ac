import { type Accounts, formatPhone } from "../../src/accounts/index.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { type AccountId, account } from "../../src/ledger/index.ts";
import { formatMoney } from "../../src/money.ts";

/**
 * An agent's /balance: the balance, today's cash-ins (a reversed one is not counted: its money
 * came back) and a statement of the last movements with the balance after each, so a balance that
 * rose or fell has its line (an admin's credit, a cash-in, a reversal and why).
 */

/** One statement line: plain data, so a flow can record it through `external`. */
export interface AgentLine {
  at: number;
  kind: "credit" | "cash_in" | "reversal" | "other";
  /** Change of the agent's balance: + towards the agent. */
  changePaisa: number;
  balancePaisa: number;
  /** The customer of a cash-in, or of the cash-in a reversal took back. */
  customer?: string;
  /** The transfer a reversal reversed, and why. */
  ref?: string;
  reason?: string;
}

export interface AgentBalance {
  kind: "agent";
  availablePaisa: number;
  cashIns: Array<{ at: number; amountPaisa: number; customer: string }>;
  totalTodayPaisa: number;
  /** False when the day's journal was too long to read whole: no count or total is claimed. */
  complete: boolean;
  /** Newest first; null when the statement's range was too long to read whole. */
  statement: AgentLine[] | null;
  /**
   * The agent's own balance, which pays their own orders (prepaid mode; null in staff mode, where
   * the merchant's wallet pays): a cash-in or top-up to it is told "added to your balance".
   */
  ownPaisa: number | null;
}

async function customerOf(accounts: Accounts, acc: AccountId): Promise<string> {
  const [kind, id] = acc.split(":");
  if (kind !== "customer") return acc;
  const phone = await accounts.phoneOf(Number(id));
  return phone ? formatPhone(phone) : acc;
}

const KINDS = new Set<AgentLine["kind"]>(["credit", "cash_in", "reversal"]);

export async function fetchAgentBalance(
  accounts: Accounts,
  agentUserId: number,
  /** Whether the agent's own balance pays their orders (prepaid mode): then it is shown too. */
  own: boolean,
): Promise<AgentBalance> {
  const [s, lines, ownBalance] = await Promise.all([
    accounts.agentSummary(agentUserId),
    accounts.agentStatement(agentUserId),
    own ? accounts.balanceOf(account.customer(agentUserId)) : null,
  ]);
  const cashIns = await Promise.all(
    s.cashIns.map(async (e) => ({
      at: e.at,
      amountPaisa: e.amountPaisa,
      customer: await customerOf(accounts, e.credit),
    })),
  );
  const statement =
    lines &&
    (await Promise.all(
      lines.map(async (l): Promise<AgentLine> => {
        const e = l.entry;
        const kind = KINDS.has(e.kind as AgentLine["kind"])
          ? (e.kind as AgentLine["kind"])
          : "other";
        const other = e.debit === s.balance.account ? e.credit : e.debit;
        return {
          at: e.at,
          kind,
          changePaisa: l.postedChangePaisa,
          balancePaisa: l.postedPaisa,
          ...(kind === "cash_in" || kind === "reversal"
            ? { customer: await customerOf(accounts, other) }
            : {}),
          ...(e.reference ? { ref: e.reference } : {}),
          ...(e.reason ? { reason: e.reason } : {}),
        };
      }),
    ));
  return {
    kind: "agent",
    availablePaisa: s.balance.availablePaisa,
    cashIns,
    totalTodayPaisa: cashIns.reduce((sum, c) => sum + c.amountPaisa, 0),
    complete: s.complete,
    statement,
    ownPaisa: ownBalance?.availablePaisa ?? null,
  };
}

function lineText(t: Translate, l: AgentLine): string {
  const rs = (paisa: number) => formatMoney(paisa, { locale: t.locale });
  const x = {
    time: formatOrderTime(l.at, "np", t.locale),
    amount: rs(Math.abs(l.changePaisa)),
    balance: rs(l.balancePaisa),
    customer: l.customer ?? "",
    ref: l.ref ?? "",
    reason: l.reason ?? "",
  };
  if (l.kind === "credit") return t("agent-statement-credit", x);
  if (l.kind === "cash_in") return t("agent-statement-cash-in", x);
  if (l.kind === "reversal") {
    return t(
      l.changePaisa >= 0 ? "agent-statement-reversal-in" : "agent-statement-reversal-out",
      x,
    );
  }
  return t(l.changePaisa >= 0 ? "agent-statement-in" : "agent-statement-out", x);
}

export function agentBalanceText(t: Translate, r: AgentBalance): string {
  const rs = (paisa: number) => formatMoney(paisa, { locale: t.locale });
  const lines = [t("balance-agent", { available: rs(r.availablePaisa) })];
  if (r.ownPaisa !== null) lines.push(t("balance-agent-own", { available: rs(r.ownPaisa) }));
  if (!r.complete) return [...lines, t("balance-partial")].join("\n");
  lines.push(t("balance-agent-today", { count: r.cashIns.length, total: rs(r.totalTodayPaisa) }));
  for (const c of r.cashIns.slice(0, 10)) {
    lines.push(
      t("balance-agent-line", {
        time: formatOrderTime(c.at, "np", t.locale),
        amount: rs(c.amountPaisa),
        customer: c.customer,
      }),
    );
  }
  if (r.statement && r.statement.length > 0) {
    lines.push("", t("agent-statement-title"), ...r.statement.map((l) => lineText(t, l)));
  }
  return lines.join("\n");
}
