import type { Server } from "node:http";
import type { Redis } from "ioredis";
import { expect } from "vitest";
import {
  type AccountsStore,
  type BlockedUsers,
  createRedisAccounts,
  createRedisBlocked,
} from "../../src/accounts/index.ts";
import {
  createDashboard,
  type DashboardDeps,
  dashboardAccess,
  memoryKv,
  redisKv,
} from "../../src/dashboard/index.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { holdIdOf, type Order, type OrderStore, transition } from "../../src/orders/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { booksOnRedis } from "./books.ts";
import { serveFetch } from "./http.ts";
import { placedOrder } from "./orders.ts";
import { testRedis } from "./redis.ts";
import { useStarted } from "./use-started.ts";

/**
 * The back office over the product's real Redis-backed stores (orders, ledger, books) under a
 * prefix of its own, served by @hono/node-server on a loopback port, with roles and a clock the
 * test changes at will.
 */
export const ADMIN = 3001;
export const AGENT = 2001;

export interface DashboardHarness {
  url: string;
  /** The HTTP listener: what the server sees of a browser (a socket's end) before it answers. */
  server: Server;
  /** The Redis the stores use (and the back office, unless started on memory). */
  redis: Redis;
  store: OrderStore;
  ledger: LedgerStore;
  /** Phones and registrations, and the blocked list (customers and agents pages). */
  accounts: AccountsStore;
  blocked: BlockedUsers;
  deps: DashboardDeps;
  access: ReturnType<typeof dashboardAccess>;
  roles: { admins: Set<number>; agents: Set<number> };
  clock: { now: number };
  /** A successful prepaid order of `userId` with its hold, post, float debit and fee booked. */
  successfulOrder(userId: number): Promise<Order>;
  close(): Promise<void>;
}

let seq = 0;

/** `memory`: the back office keeps its links and sessions in memory (local mode without Redis). */
export async function startDashboard(opts: { memory?: boolean } = {}): Promise<DashboardHarness> {
  const t = testRedis("dashboard");
  const store = createRedisOrderStore({ redis: t.redis, prefix: t.prefix });
  const ledger = createRedisLedger({ redis: t.redis, prefix: t.prefix });
  const books = booksOnRedis(t.redis, t.prefix, () => 1_000_000);
  const accounts = createRedisAccounts({ redis: t.redis, prefix: t.prefix });
  const blocked = createRedisBlocked({ redis: t.redis, prefix: t.prefix });
  const roles = { admins: new Set([ADMIN]), agents: new Set([AGENT]) };
  const clock = { now: Date.now() };
  let app: ReturnType<typeof createDashboard> | undefined;
  const server = await serveFetch((req, env) =>
    app ? app.fetch(req, env) : new Response("starting", { status: 503 }),
  );
  const deps: DashboardDeps = {
    kv: opts.memory ? memoryKv() : redisKv(t.redis),
    prefix: t.prefix,
    orders: store,
    ledger,
    books,
    roleOf: (id) => (roles.admins.has(id) ? "admin" : roles.agents.has(id) ? "agent" : "customer"),
    now: () => clock.now,
    publicUrl: server.url,
    logger: createLogger({ level: "silent", secrets: [] }),
    people: {
      phoneOf: (id) => accounts.phoneOf(id),
      userByPhone: (phone) => accounts.userByPhone(phone),
      profileOf: (id) => accounts.profileOf(id),
      localeOf: (id) => accounts.localeOf(id),
      blocked,
      ordersOf: (id, limit) => store.listByUser(id, limit),
    },
  };
  app = createDashboard(deps);

  async function successfulOrder(userId: number): Promise<Order> {
    const reference = `${Date.now()}${String(++seq).padStart(2, "0")}`.slice(0, 15);
    const credit = await ledger.transfer({
      id: `dash-credit-${reference}`,
      debit: account.merchant.funding,
      credit: account.customer(userId),
      amountPaisa: 10_300,
      kind: "credit",
    });
    if (!credit.ok) throw new Error("credit refused");
    const at = Date.now();
    await store.create(
      placedOrder({
        reference,
        idempotencyKey: `dash-${reference}`,
        userId,
        chatId: userId,
        amountPaisa: 10_000,
        price: { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 200, totalPaisa: 10_300 },
        holdId: holdIdOf(reference),
        history: [{ source: "system", status: "placed", at }],
        createdAt: at,
        updatedAt: at,
      }),
    );
    const wallet = {
      amountPaisa: 10_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 0,
      debitAmountPaisa: 9_900,
      creditAvailablePaisa: 990_100,
    };
    const r = await store.update(reference, (cur) => {
      const next = transition(cur, {
        source: "webhook",
        status: "success",
        at: Date.now(),
        transactionId: `TX-${reference}`,
        note: "<b>operator said ok</b>",
        wallet,
      });
      return next.changed ? { order: next.order, notifications: next.notifications } : null;
    });
    if (!r) throw new Error("no order");
    return r.order;
  }

  return {
    url: server.url,
    server: server.server,
    redis: t.redis,
    store,
    ledger,
    accounts,
    blocked,
    deps,
    access: dashboardAccess(deps),
    roles,
    clock,
    successfulOrder,
    async close() {
      await server.close();
      await t.cleanup();
    },
  };
}

/**
 * The back office of a file (or describe): started before its tests, closed after. What it
 * returns stands for the harness and is read only in the tests (it is started in beforeAll).
 */
export function useDashboard(opts: { memory?: boolean } = {}): DashboardHarness {
  return useStarted(
    "the back office",
    () => startDashboard(opts),
    (h) => h.close(),
  );
}

/** A browser-like client: keeps the session cookie, sends our Origin on POSTs, never follows. */
export function client(base: string) {
  let cookie: string | undefined;
  const jar = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = (pair ?? "").split("=");
      if (name === "__Host-dashboard") cookie = value ? `${name}=${value}` : undefined;
    }
    return res;
  };
  return {
    get cookie() {
      return cookie;
    },
    set cookie(v: string | undefined) {
      cookie = v;
    },
    get: async (path: string, headers: Record<string, string> = {}) =>
      jar(
        await fetch(`${base}${path}`, {
          redirect: "manual",
          headers: { ...(cookie ? { cookie } : {}), ...headers },
        }),
      ),
    post: async (path: string, headers: Record<string, string> = {}, body = "") =>
      jar(
        await fetch(`${base}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: {
            origin: base,
            "content-type": "application/x-www-form-urlencoded",
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
          body,
        }),
      ),
  };
}

/**
 * A browser-like client logged in as `userId` through a fresh one-time link (the POST answers 303
 * and sets the session cookie); `userAgent` is what the audit log then records.
 */
export async function loggedIn(
  h: Pick<DashboardHarness, "access" | "url">,
  userId: number,
  userAgent?: string,
) {
  const link = await h.access.issueLink(userId);
  if (!link) throw new Error(`no link for ${userId}`);
  const c = client(h.url);
  const res = await c.post(
    new URL(link.url).pathname,
    userAgent ? { "user-agent": userAgent } : {},
  );
  expect(res.status).toBe(303);
  expect(c.cookie).toBeDefined();
  return c;
}

/** The one-time login link in a chat message (/dashboard's answer), if there is one. */
export const linkIn = (text: string) =>
  /(http:\/\/\S+\/dashboard\/login\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
