import { Hono } from "hono";
import { createCatalog } from "../../src/catalog/index.ts";
import { createAdminRoutes } from "./admin.ts";
import {
  type Account,
  createEngine,
  DEFAULT_BALANCE_PAISA,
  ledgerRow,
  newAccount,
  transactionView,
} from "./engine.ts";
import { faultsPatchSchema, NO_FAULTS } from "./faults.ts";
import { createProviderRoutes } from "./routes.ts";
import { createScheduler } from "./scheduler.ts";
import type { Sandbox, SandboxLogger, SandboxOptions } from "./types.ts";
import { createWebhookSender } from "./webhooks.ts";

/**
 * The recharge aggregator of the spec, runnable locally: a Hono app serving the provider API at its
 * root (main mounts it at /sandbox/api/v1, `npm run sandbox` at /api/v1), an admin API under
 * /_sandbox, wallets, transactions on timers, encrypted webhooks and faults on demand. It shares the
 * catalogue and the webhook codec with the product, nothing else: it is an independent
 * implementation of the spec that the provider client is tested against.
 */

export {
  DEFAULT_BALANCE_PAISA,
  type LedgerRow,
  outcomeFor,
  type TransactionView,
} from "./engine.ts";
export {
  type Faults,
  type FaultsPatch,
  NO_FAULTS,
  parseFaultsEnv,
} from "./faults.ts";
export { FEE_RULES, feesFor, SANDBOX_INR_TO_NPR_RATE_E4 } from "./fees.ts";
export { NOTHING_DUE_SUFFIX, UNKNOWN_CUSTOMER_SUFFIX } from "./lookups.ts";
export { loadSandboxSettings, type SandboxSettings } from "./settings.ts";
export type * from "./types.ts";
export type { Delivery, DeliveryAttempt, WebhookPolicy, WebhookTarget } from "./webhooks.ts";

const silent: SandboxLogger = { info() {}, warn() {}, debug() {} };

export function createSandbox(opts: SandboxOptions): Sandbox {
  if (opts.accounts.length === 0) throw new Error("createSandbox: at least one account is needed");
  const logger = opts.logger ?? silent;
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const rules = createCatalog({
    ntcMobileMaxAmount: opts.ntcMobileMaxAmount ?? 3000,
    ...(opts.waterOperatorId === undefined ? {} : { waterOperatorId: opts.waterOperatorId }),
    ...(opts.electricityOperatorId === undefined
      ? {}
      : { electricityOperatorId: opts.electricityOperatorId }),
    ...(opts.electricityOperatorTypeId === undefined
      ? {}
      : { electricityOperatorTypeId: opts.electricityOperatorTypeId }),
    ...(opts.indiaOperatorIds === undefined ? {} : { indiaOperatorIds: opts.indiaOperatorIds }),
    ...(opts.indiaMobileOperatorTypeId === undefined
      ? {}
      : { indiaMobileOperatorTypeId: opts.indiaMobileOperatorTypeId }),
    ...(opts.indiaDthOperatorTypeId === undefined
      ? {}
      : { indiaDthOperatorTypeId: opts.indiaDthOperatorTypeId }),
  });
  // Operators withdrawn at runtime (admin API): unknown to every endpoint, absent from the lookups.
  const withdrawn = new Set<number>();
  const catalog: typeof rules = {
    ...rules,
    operator: (id) => (withdrawn.has(id) ? undefined : rules.operator(id)),
  };
  const scheduler = createScheduler((err) => logger.warn({ err }, "sandbox timer failed"));
  const webhooks = createWebhookSender({
    fetch: opts.fetch ?? globalThis.fetch,
    scheduler,
    now,
    policy: opts.webhook ?? {},
    logger,
  });
  const engine = createEngine({
    now,
    scheduler,
    webhooks,
    delays: {
      toPendingMs: opts.delays?.toPendingMs ?? 500,
      toFinalMs: opts.delays?.toFinalMs ?? 1500,
    },
    requireConnect: opts.requireConnect ?? false,
    logger,
    ...(opts.inrToNprRateE4 === undefined ? {} : { inrToNprRateE4: opts.inrToNprRateE4 }),
  });

  const accounts = new Map<string, Account>();
  for (const a of opts.accounts) {
    if (a.token === "") throw new Error("createSandbox: an account token is empty");
    accounts.set(
      a.token,
      newAccount(a.token, a.balancePaisa ?? DEFAULT_BALANCE_PAISA, a.webhook ?? null),
    );
  }
  for (const [token, patch] of Object.entries(opts.faults ?? {})) {
    const acct = accounts.get(token);
    if (!acct) throw new Error("createSandbox: faults given for an unknown token");
    acct.faults = { ...acct.faults, ...faultsPatchSchema.parse(patch) };
  }
  const adminToken = opts.adminToken ?? opts.accounts[0]!.token;

  function get(token: string): Account {
    const acct = accounts.get(token);
    if (!acct) throw new Error("sandbox: unknown account token");
    return acct;
  }

  const hangs = new Set<() => void>();
  const control = {
    tokens: () => [...accounts.keys()],
    summary(token: string) {
      const a = get(token);
      return {
        token: a.token,
        balance_paisa: a.balancePaisa,
        webhook: a.webhook
          ? { url: a.webhook.url, connected: a.connected, secret_set: a.webhook.secret !== "" }
          : null,
        faults: { ...a.faults },
        transactions: a.transactions.size,
      };
    },
    setWebhook(token: string, target: { url: string; secret: string }) {
      const a = get(token);
      a.webhook = { url: target.url, secret: target.secret };
      a.connected = false;
    },
    connectWebhook: (token: string) => engine.connect(get(token)),
    setFaults(token: string, faults: Parameters<Sandbox["setFaults"]>[1]) {
      const a = get(token);
      a.faults = { ...a.faults, ...faultsPatchSchema.parse(faults) };
    },
    clearFaults(token: string) {
      get(token).faults = { ...NO_FAULTS };
    },
    faults: (token: string) => ({ ...get(token).faults }),
    ledger: (token: string) => [...get(token).transactions.values()].map(ledgerRow),
    balance: (token: string) => get(token).balancePaisa,
    setBalance(token: string, paisa: number) {
      if (!Number.isSafeInteger(paisa) || paisa < 0) throw new Error("balance must be paisa >= 0");
      get(token).balancePaisa = paisa;
    },
    deliveries: (token: string) => [...get(token).deliveries],
    transactions: (token: string) => [...get(token).transactions.values()].map(transactionView),
    forceStatus(token: string, transactionId: string, status: "pending" | "success" | "failed") {
      const r = engine.force(get(token), transactionId, status);
      return r.ok
        ? { ok: true as const, transaction: transactionView(r.tx) }
        : { ok: false as const, message: r.message };
    },
    settle: () => scheduler.settle(),
    withdrawOperator(id: number) {
      if (!rules.operator(id)) throw new Error(`sandbox: no operator ${id}`);
      withdrawn.add(id);
    },
    restoreOperator(id: number) {
      withdrawn.delete(id);
    },
    withdrawnOperators: () => [...withdrawn].sort((a, b) => a - b),
  };

  const admin = createAdminRoutes(control, adminToken);
  const provider = createProviderRoutes({
    accounts,
    engine,
    catalog,
    now,
    random,
    rateLimitPerSecond: opts.rateLimitPerSecond ?? 50,
    rateLimitClock: opts.rateLimitClock ?? (() => performance.now()),
    dropMode: opts.dropMode ?? "reset",
    hangMs: opts.hangMs ?? 120_000,
    hangs,
    logger,
  });

  const app = new Hono();
  app.route("/_sandbox", admin);
  app.route("/", provider);
  // A catch-all route rather than notFound(): it also applies where the app is mounted in another.
  app.all("*", (c) => c.json({ error: true, message: "Not found" }, 404));
  app.onError((err, c) => {
    logger.warn({ err: err.message }, "sandbox handler failed");
    return c.json({ error: true, message: "Internal server error" }, 500);
  });

  return {
    ...control,
    app,
    admin,
    adminToken,
    close() {
      scheduler.close();
      for (const release of [...hangs]) release();
    },
  };
}
