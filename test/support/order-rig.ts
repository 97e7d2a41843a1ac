import { expect } from "vitest";
import { createSandbox, type Sandbox } from "../../dev/sandbox/index.ts";
import type { SandboxOptions } from "../../dev/sandbox/types.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { account, type LedgerStore } from "../../src/ledger/index.ts";
import { createRedisLease } from "../../src/orders/lease.ts";
import {
  holdIdOf,
  type Notification,
  notificationSchema,
  type Order,
} from "../../src/orders/model.ts";
import { createReconciler, type ReconcilerOptions } from "../../src/orders/reconciler.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type Orders, type OrdersOptions } from "../../src/orders/service.ts";
import { createProviderClient, type ProviderClient } from "../../src/provider/index.ts";
import type { RedisClient } from "../../src/redis/connection.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { serveFetch } from "./http.ts";
import { waitUntil } from "./wait.ts";

/**
 * The rig of the order tests on real Redis against the sandbox aggregator over loopback: the
 * sandbox served at the root of a port (optionally behind a front that rewrites or counts), the
 * product's provider client to it, orders and a reconciler on a test's key prefix, and the
 * readings those tests make of the ledger and the outbox. (test/support/sandbox.ts serves the
 * sandbox under /api/v1 for the sandbox's own tests; test/support/system.ts starts the whole app.)
 */

/** Where a test keeps its orders: a Redis connection and its key prefix (testRedis gives both). */
export interface OnRedis {
  redis: RedisClient;
  prefix: string;
}

/** Pending within 10 ms, final only after an hour of real time: never, in a test. */
export const KEPT_PENDING = { toPendingMs: 10, toFinalMs: 3_600_000 } as const;

export interface SandboxAggregatorOptions {
  token: string;
  balancePaisa: number;
  delays: { toPendingMs: number; toFinalMs: number };
  faults?: SandboxOptions["faults"];
  /** The provider client's retries of a failed call. */
  maxRetries: number;
  /** In front of the sandbox (answers rewritten, queries counted or refused); default: none. */
  front?: (req: Request, env: unknown, sandbox: Sandbox) => Response | Promise<Response>;
}

export interface SandboxAggregator {
  sandbox: Sandbox;
  client: ProviderClient;
  /** Closes the client, the sandbox and its port, in that order. */
  close(): Promise<void>;
}

/** The sandbox aggregator (no rate limit) on a loopback port and a provider client to it. */
export async function startSandboxAggregator(
  opts: SandboxAggregatorOptions,
): Promise<SandboxAggregator> {
  const sandbox = createSandbox({
    accounts: [{ token: opts.token, balancePaisa: opts.balancePaisa }],
    delays: opts.delays,
    ...(opts.faults === undefined ? {} : { faults: opts.faults }),
    rateLimitPerSecond: 0,
  });
  const { front } = opts;
  const server = await serveFetch((req, env) =>
    front === undefined ? sandbox.app.fetch(req, env) : front(req, env, sandbox),
  );
  const client = createProviderClient({
    baseUrl: server.url,
    token: opts.token,
    executeTimeoutMs: 2_000,
    lookupTimeoutMs: 2_000,
    maxRetries: opts.maxRetries,
  });
  return {
    sandbox,
    client,
    async close() {
      await client.close();
      sandbox.close();
      await server.close();
    },
  };
}

/** The sandbox's usual set-up in the order tests: Rs 50,000, pending in 10 ms, final in 20, one retry. */
export function startQuickSandbox(
  token: string,
  more: Pick<SandboxAggregatorOptions, "front" | "faults"> = {},
): Promise<SandboxAggregator> {
  return startSandboxAggregator({
    token,
    balancePaisa: 5_000_000,
    delays: { toPendingMs: 10, toFinalMs: 20 },
    maxRetries: 1,
    ...more,
  });
}

/**
 * A front that passes every request to the sandbox and hands the execute's answers (either
 * region's path) to `rewrite`, with the request as it was sent.
 */
export function frontOnExecute(
  rewrite: (res: Response, req: Request) => Response | Promise<Response>,
): NonNullable<SandboxAggregatorOptions["front"]> {
  return async (req, env, sandbox) => {
    const execute =
      req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute");
    const sent = execute ? req.clone() : undefined;
    const res = await sandbox.app.fetch(req, env);
    return sent === undefined ? res : rewrite(res, sent);
  };
}

/** The orders service over a Redis order store under `at`'s prefix, with every category. */
export function ordersOnRedis(at: OnRedis, opts: Omit<OrdersOptions, "store" | "categories">) {
  return createOrders({
    categories: CATEGORY_MODULES,
    store: createRedisOrderStore({ redis: at.redis, prefix: at.prefix }),
    ...opts,
  });
}

/**
 * The product's reconciler with a lease on `at`'s Redis, set to ask every order at once (ticks of
 * 1 ms, no minimum age, the client's 2 s execute timeout, no admins) unless `opts` says otherwise.
 */
export function reconcilerOnRedis(
  at: OnRedis,
  opts: Omit<
    ReconcilerOptions,
    "lease" | "intervalMs" | "minAgeMs" | "executeTimeoutMs" | "adminChatIds"
  > &
    Partial<ReconcilerOptions>,
) {
  return createReconciler({
    lease: createRedisLease(at.redis, at.prefix),
    intervalMs: 1,
    minAgeMs: 0,
    executeTimeoutMs: 2_000,
    adminChatIds: [],
    ...opts,
  });
}

/**
 * Runs the product's reconciler (every order asked at once, `maxAgeMs` an hour) until the order is
 * in `status`, within 10 s; the order as it then is.
 */
export async function reconcileUntil(
  at: OnRedis,
  orders: Orders,
  provider: ProviderClient,
  reference: string,
  status: Order["status"],
  opts: Partial<ReconcilerOptions> = {},
): Promise<Order> {
  const reconciler = reconcilerOnRedis(at, { orders, provider, maxAgeMs: 3_600_000, ...opts });
  let order = null as Order | null;
  await waitUntil(
    async () => {
      await reconciler.runOnce();
      order = await orders.get(reference);
      return order?.status === status;
    },
    `the order ${status}`,
    { timeoutMs: 10_000, intervalMs: 30 },
  );
  if (order === null) throw new Error(`no order ${reference}`);
  return order;
}

/** Credits a prepaid customer from the merchant's funding; the transfer must be accepted. */
export async function creditCustomer(
  ledger: Pick<LedgerStore, "transfer">,
  userId: number,
  amountPaisa: number,
  id = `credit-${userId}`,
): Promise<void> {
  const credited = await ledger.transfer({
    id,
    debit: account.merchant.funding,
    credit: account.customer(userId),
    amountPaisa,
    kind: "credit",
  });
  expect(credited.ok).toBe(true);
}

/** What the customer may spend (their balance less what is held). */
export const availableOf = async (ledger: Pick<LedgerStore, "balance">, userId: number) =>
  (await ledger.balance(account.customer(userId))).availablePaisa;

/** The journal lines of one order (its hold, the hold's post or void, its bookings). */
export async function orderJournal(ledger: Pick<LedgerStore, "journal">, reference: string) {
  const { entries } = await ledger.journal({ limit: 1000 });
  return entries.filter((e) => e.reference === reference || e.pendingId === holdIdOf(reference));
}

/** Every notification in the outbox under `at`'s prefix, oldest first. */
export async function outboxOf(at: OnRedis): Promise<Notification[]> {
  const entries = await at.redis.xrange(keyspace(at.prefix).outbox, "-", "+");
  return entries.map(([, f]) => notificationSchema.parse(JSON.parse(f[1] ?? "")));
}

/** The admin alerts in the outbox under `at`'s prefix about one order, oldest first. */
export async function adminAlertsOf(at: OnRedis, reference: string): Promise<Notification[]> {
  return (await outboxOf(at)).filter((n) => n.kind === "admin_alert" && n.reference === reference);
}
