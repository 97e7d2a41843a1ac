import type { Hono } from "hono";
import type { CatalogOptions } from "../../src/catalog/index.ts";
import type { LedgerRow, TransactionView } from "./engine.ts";
import type { Faults, FaultsPatch } from "./faults.ts";
import type { Delivery, WebhookPolicy, WebhookTarget } from "./webhooks.ts";

export interface SandboxLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface SandboxAccountOptions {
  token: string;
  /** Starting wallet balance in paisa; default 100_000_00 (Rs 1,00,000). */
  balancePaisa?: number;
  /** Webhook configured at start (as if set on the dashboard). */
  webhook?: WebhookTarget;
}

export interface SandboxOptions {
  accounts: SandboxAccountOptions[];
  /** queued -> pending after toPendingMs, pending -> final after a further toFinalMs. 500 / 1500. */
  delays?: { toPendingMs?: number; toFinalMs?: number };
  /** Requests per second per token; 0 turns the limit off. Default 50. */
  rateLimitPerSecond?: number;
  /** Upper bound of NTC mobile amounts in rupees (spec 3000, a sample comment 5000). Default 3000. */
  ntcMobileMaxAmount?: number;
  waterOperatorId?: number;
  electricityOperatorId?: number;
  electricityOperatorTypeId?: number;
  /** India operator ids by key (the product's INDIA_OPERATOR_IDS), overriding the defaults. */
  indiaOperatorIds?: CatalogOptions["indiaOperatorIds"];
  indiaMobileOperatorTypeId?: number;
  indiaDthOperatorTypeId?: number;
  /**
   * The aggregator's own rate for India orders, Nepal rupees per 1 Indian rupee in ten-thousandths
   * (default 16 000, the peg 1.6): the wallet is in Nepal rupees, so an India execute of ₹ amount
   * debits that amount converted, rounded up to the paisa (fees.ts).
   */
  inrToNprRateE4?: number;
  /** Faults switched on at start, per token. */
  faults?: Record<string, Partial<Faults>>;
  /** Protects /_sandbox/*. Default: the first account's token. */
  adminToken?: string;
  /** For webhook deliveries; default the global fetch. */
  fetch?: typeof fetch;
  /** Clock of transaction times and timestamps (epoch ms); default Date.now. */
  now?: () => number;
  /**
   * Clock of the rate-limit window (ms); default performance.now, independent of `now` so that a
   * frozen test clock does not freeze the window.
   */
  rateLimitClock?: () => number;
  /** Source of the fault dice in [0, 1); default Math.random. */
  random?: () => number;
  logger?: SandboxLogger;
  /** Webhook retry policy, key mode and (for test vectors) fixed IVs. */
  webhook?: WebhookPolicy;
  /** Deliver events only once "connect" succeeded (spec 6.1). Default false: whenever a URL is set. */
  requireConnect?: boolean;
  /** How commit-then-drop drops: "reset" destroys the socket (default), "hang" never answers. */
  dropMode?: "reset" | "hang";
  /** A hanging drop answers 504 after this long if the client has not given up. Default 120 s. */
  hangMs?: number;
}

export interface AccountSummary {
  token: string;
  balance_paisa: number;
  webhook: { url: string; connected: boolean; secret_set: boolean } | null;
  faults: Faults;
  transactions: number;
}

export type ForceResult =
  | { ok: true; transaction: TransactionView }
  | { ok: false; message: string };

/** What the admin API drives; the Sandbox object implements it. */
export interface SandboxControl {
  tokens(): string[];
  summary(token: string): AccountSummary;
  setWebhook(token: string, target: WebhookTarget): void;
  connectWebhook(token: string): Promise<boolean>;
  setFaults(token: string, faults: FaultsPatch): void;
  clearFaults(token: string): void;
  faults(token: string): Faults;
  ledger(token: string): LedgerRow[];
  balance(token: string): number;
  setBalance(token: string, paisa: number): void;
  deliveries(token: string): Delivery[];
  transactions(token: string): TransactionView[];
  forceStatus(
    token: string,
    transactionId: string,
    status: "pending" | "success" | "failed",
  ): ForceResult;
  settle(): Promise<void>;
  /** The provider stops offering an operator: gone from the lookups, refused by every endpoint. */
  withdrawOperator(operatorId: number): void;
  restoreOperator(operatorId: number): void;
  withdrawnOperators(): number[];
}

export interface Sandbox extends SandboxControl {
  /** The provider API at its root ("/np/recharge/execute", ...) plus the admin API under /_sandbox. */
  app: Hono;
  /** The admin API alone, at its root ("/ledger", "/faults", ...); also mounted in app at /_sandbox. */
  admin: Hono;
  /** The admin token in force (the first account's token unless set). */
  adminToken: string;
  /** Cancels every timer and releases hanging requests. */
  close(): void;
}
