import type { Redis } from "ioredis";
import { tellMove } from "../../conversations/cash/move-notices.ts";
import { tellReversal } from "../../conversations/cash/reversal-notices.ts";
import {
  type Accounts,
  createAccounts,
  createRedisAccounts,
  createRedisBlocked,
  createRedisNumberChanges,
} from "../../src/accounts/index.ts";
import { type Books, createFloatWatch, createRedisCrossings } from "../../src/books/index.ts";
import { createI18n } from "../../src/bot/i18n.ts";
import {
  type Complaints,
  createComplaints,
  createRedisComplaintStore,
} from "../../src/complaints/index.ts";
import {
  createDashboard,
  type DashboardDeps,
  dashboardAccess,
  redisKv,
} from "../../src/dashboard/index.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { OrderStore } from "../../src/orders/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import {
  createRedisTopUpStore,
  type TopUp,
  type TopUpNotice,
  type TopUps,
} from "../../src/payments/index.ts";
import { parsePriceSchedule } from "../../src/pricing/index.ts";
import { adminAlerts } from "../../src/system/dashboard.ts";
import { booksOnRedis } from "./books.ts";
import { ADMIN, AGENT, client } from "./dashboard.ts";
import { serveFetch } from "./http.ts";
import { serveKhaltiStandIn, topUpService } from "./khalti.ts";
import { expectBooksBalanced } from "./ledger.ts";
import { testRedis } from "./redis.ts";
import { useStarted } from "./use-started.ts";

/**
 * The back office with its money actions (h-actions) over the product's real Redis-backed stores
 * under a prefix of its own: the ledger, the accounts service the chat's /reverse uses, the top-up
 * service /topups uses (over the Khalti stand-in on a loopback port), the order store and the
 * books; served by @hono/node-server on port 0.
 */
export { ADMIN, AGENT, client };

export interface ActionsHarness {
  url: string;
  /** The harness's own Redis connection (its keys under `deps.prefix`). */
  redis: Redis;
  ledger: LedgerStore;
  store: OrderStore;
  accounts: Accounts;
  topUps: TopUps;
  khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
  deps: DashboardDeps;
  /** The aggregator's wallet as the books read it (paisa). */
  wallet: { paisa: number };
  /** The books the back office reads, with the scheduled check (`check(adminChatIds)`). */
  books: Books;
  /** The admins (ADMIN_IDS): ADMIN alone unless a test adds more (maker-checker). */
  admins: Set<number>;
  /** An order's answer reading the aggregator's wallet at `paisa` (the low-float watch). */
  walletRead(paisa: number): Promise<void>;
  /** The chat messages the reversal notices sent (the chat's own telling), in order. */
  told: Array<{ chatId: number; text: string }>;
  /** Chats whose send throws, as for a person who blocked the bot. */
  unreachable: Set<number>;
  /** The complaints service /complaints uses; its customers' notices go to the outbox. */
  complaints: Complaints;
  clock: { now: number };
  login(userId: number): Promise<ReturnType<typeof client>>;
  /** The one-time login link the chat's /dashboard would send. */
  linkFor(userId: number): Promise<string>;
  /** Funds agent `agentId` (an admin's credit) and books a cash-in of `paisa` to `customerId`. */
  cashIn(agentId: number, customerId: number, paisa: number): Promise<string>;
  /** A top-up of `userId` held because the gateway reports another amount. */
  heldTopUp(userId: number, askedPaisa: number, reportedPaisa: number): Promise<TopUp>;
  /** A credited top-up of `userId` that Khalti then reports partially refunded. */
  partialRefundTopUp(userId: number, paisa: number): Promise<TopUp>;
  /** A top-up of `userId` that Khalti reports partially refunded before any credit. */
  uncreditedPartialTopUp(userId: number, paisa: number): Promise<TopUp>;
  /** What the top-up service told (customers and admins), in order. */
  topUpNotices: TopUpNotice[];
  close(): Promise<void>;
}

let seq = 0;
/** LOW_FLOAT_ALERT in the harness: Rs 5,000. */
const LOW_FLOAT_PAISA = 500_000;

export const SCHEDULE = parsePriceSchedule(
  {
    default: { fee: { flat: "2" } },
    categories: {
      mobile: {
        discount: { percent: "1.5", max: "10" },
        operators: { "46": { fee: { flat: "3.50" } } },
      },
      india: { fee: { flat: "1.50" } },
    },
  },
  "test",
);

export async function startActions(): Promise<ActionsHarness> {
  const t = testRedis("dash-actions");
  const store = createRedisOrderStore({ redis: t.redis, prefix: t.prefix });
  const ledger = createRedisLedger({ redis: t.redis, prefix: t.prefix });
  const wallet = { paisa: 10_000_000 };
  const books = booksOnRedis(t.redis, t.prefix, () => wallet.paisa, {
    lowFloatPaisa: LOW_FLOAT_PAISA,
  });
  // The low-float watch an order's answer feeds (system/money-path.ts), on the same crossings.
  const crossings = createRedisCrossings(t.redis, t.prefix);
  const observeFloat = createFloatWatch({
    thresholdPaisa: LOW_FLOAT_PAISA,
    adminChatIds: [ADMIN],
    crossings,
  });
  let readings = 0;
  const accounts = createAccounts({
    ledger,
    store: createRedisAccounts({ redis: t.redis, prefix: t.prefix }),
  });
  const khalti = await serveKhaltiStandIn();
  const notices: TopUpNotice[] = [];
  const { topUps, gateway } = topUpService({
    apiUrl: khalti.apiUrl,
    store: createRedisTopUpStore({ redis: t.redis, prefix: t.prefix }),
    ledger,
    notices,
  });
  const clock = { now: Date.now() };
  const admins = new Set([ADMIN]);
  const told: ActionsHarness["told"] = [];
  const unreachable = new Set<number>();
  const logger = createLogger({ level: "silent", secrets: [] });
  const complaints = createComplaints({
    store: createRedisComplaintStore({ redis: t.redis, prefix: t.prefix, now: () => clock.now }),
    orders: store,
    logger,
    now: () => clock.now,
    // The customers' notices go to the notifier's outbox (in the complaint's script); only the
    // admins' alert of a new complaint is told directly, and the back office raises none.
  });
  const teller = {
    accounts,
    i18n: createI18n(() => "en"),
    fallbackLocale: "en",
    send: async (chatId: number, text: string) => {
      if (unreachable.has(chatId)) throw new Error("403: Forbidden: bot was blocked");
      told.push({ chatId, text });
    },
    logger,
  };
  let app: ReturnType<typeof createDashboard> | undefined;
  const server = await serveFetch((req, env) =>
    app ? app.fetch(req, env) : new Response("starting", { status: 503 }),
  );
  const deps: DashboardDeps = {
    kv: redisKv(t.redis),
    prefix: t.prefix,
    orders: store,
    ledger,
    books,
    roleOf: (id) => (admins.has(id) ? "admin" : id === AGENT ? "agent" : "customer"),
    now: () => clock.now,
    publicUrl: server.url,
    people: {
      phoneOf: (id) => accounts.phoneOf(id),
      userByPhone: (phone) => accounts.userByPhone(phone),
      profileOf: (id) => accounts.profileOf(id),
      localeOf: (id) => accounts.localeOf(id),
      blocked: createRedisBlocked({ redis: t.redis, prefix: t.prefix }),
      ordersOf: (id, limit) => store.listByUser(id, limit),
    },
    logger,
    actions: {
      accounts,
      topUps,
      orders: store,
      stuckAfterMs: 3_600_000,
      priceSchedule: SCHEDULE,
      accessMode: "prepaid",
      complaints,
      admins: { ids: () => [...admins], same: (a, b) => a === b },
      // The root's own: admin alerts queued in the outbox through the books' crossings.
      alertAdmins: adminAlerts({ crossings }, () => clock.now),
      // The composition root's wiring: the chat's own telling, on a sender that records.
      tellReversed: (r) => tellReversal(teller, r),
      tellMoved: (r) => tellMove(teller, r),
      numberChanges: createRedisNumberChanges({ redis: t.redis, prefix: t.prefix }),
    },
  };
  app = createDashboard(deps);
  const access = dashboardAccess(deps);

  return {
    url: server.url,
    ledger,
    store,
    accounts,
    topUps,
    khalti,
    deps,
    wallet,
    books,
    admins,
    async walletRead(paisa) {
      readings += 1;
      await observeFloat({
        reference: "880000000000000",
        status: Promise.resolve("success"),
        at: readings,
        creditAvailablePaisa: paisa,
        refused: false,
      });
    },
    redis: t.redis,
    told,
    unreachable,
    complaints,
    clock,
    async linkFor(userId) {
      const link = await access.issueLink(userId);
      if (!link) throw new Error(`no link for ${userId}`);
      return link.url;
    },
    async login(userId) {
      const link = await access.issueLink(userId);
      if (!link) throw new Error(`no link for ${userId}`);
      const c = client(server.url);
      const res = await c.post(new URL(link.url).pathname);
      if (res.status !== 303) throw new Error(`login answered ${res.status}`);
      return c;
    },
    async cashIn(agentId, customerId, paisa) {
      const n = ++seq;
      const credit = await accounts.creditAgent({
        id: `credit-t${n}`,
        adminUserId: ADMIN,
        agentUserId: agentId,
        amountPaisa: paisa,
      });
      if (!credit.ok) throw new Error("credit refused");
      const id = `cash_in-t${n}`;
      const r = await accounts.cashIn({
        id,
        agentUserId: agentId,
        customerUserId: customerId,
        amountPaisa: paisa,
      });
      if (!r.ok) throw new Error("cash-in refused");
      return id;
    },
    async heldTopUp(userId, askedPaisa, reportedPaisa) {
      const started = await topUps.start({
        userId,
        chatId: userId,
        locale: "en",
        amountPaisa: askedPaisa,
      });
      if (!started.ok) throw new Error("start refused");
      const pidx = started.topUp.paymentId;
      khalti.standIn.misreport(pidx, { totalAmount: reportedPaisa });
      khalti.standIn.act(pidx, "pay");
      const held = await topUps.confirm("khalti", pidx);
      if (held?.status !== "held") throw new Error(`not held: ${held?.status}`);
      return held;
    },
    async partialRefundTopUp(userId, paisa) {
      const started = await topUps.start({
        userId,
        chatId: userId,
        locale: "en",
        amountPaisa: paisa,
      });
      if (!started.ok) throw new Error("start refused");
      const pidx = started.topUp.paymentId;
      khalti.standIn.act(pidx, "pay");
      if ((await topUps.confirm("khalti", pidx))?.status !== "completed")
        throw new Error("not credited");
      khalti.standIn.refund(pidx, true);
      const partial = await topUps.confirm("khalti", pidx);
      if (partial?.status !== "partial_refund") throw new Error(`not partial: ${partial?.status}`);
      return partial;
    },
    async uncreditedPartialTopUp(userId, paisa) {
      const started = await topUps.start({
        userId,
        chatId: userId,
        locale: "en",
        amountPaisa: paisa,
      });
      if (!started.ok) throw new Error("start refused");
      const pidx = started.topUp.paymentId;
      khalti.standIn.act(pidx, "pay");
      khalti.standIn.refund(pidx, true);
      const partial = await topUps.confirm("khalti", pidx);
      if (partial?.status !== "partial_refund" || !partial.partialRefund?.uncredited)
        throw new Error(`not an uncredited partial refund: ${partial?.status}`);
      return partial;
    },
    topUpNotices: notices,
    async close() {
      await server.close();
      await gateway.close();
      await khalti.close();
      await t.cleanup();
    },
  };
}

/** Both sides' balances (posted paisa) and the books' own check. */
export async function balancesOf(ledger: LedgerStore, customerId: number, agentId: number) {
  return {
    customer: (await ledger.balance(account.customer(customerId))).postedPaisa,
    agent: (await ledger.balance(account.agent(agentId))).postedPaisa,
  };
}

export { expectBooksBalanced };

/** A form body. */
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The harness of a file (or describe): started before its tests, closed after (useStarted). */
export const useActions = (): ActionsHarness =>
  useStarted("the back office's harness", startActions, (h) => h.close());
