import type { BooksReport } from "../books/index.ts";
import type { LedgerStore } from "../ledger/index.ts";
import type { Logger } from "../logger.ts";
import type { OrderStore } from "../orders/index.ts";
import type { ActionDeps } from "./actions/deps.ts";
import type { DashboardKv } from "./kv.ts";
import type { DashboardPeople } from "./people/port.ts";

/**
 * What the back office needs from the rest of the product, and nothing more: it reads the stores,
 * and moves money only through the operations the chat uses too (reversals, held top-ups,
 * complaints). The composition root builds this from the parts it already has
 * (src/system/dashboard.ts).
 */

/** The role as the bot's settings give it (ADMIN_IDS, AGENT_IDS): the same `roleOf` as the chat. */
export type PersonRole = "admin" | "agent" | "customer";
/** The roles that may open the back office. */
export type DashboardRole = Exclude<PersonRole, "customer">;

export interface DashboardDeps {
  /**
   * Link tokens, sessions and the audit log live here, under `prefix` (REDIS_PREFIX): the
   * product's Redis through `redisKv(redis)`, or `memoryKv()` in local mode without Redis. Every
   * process of a deployment must share it (a link may be opened on another instance).
   */
  kv: DashboardKv;
  prefix: string;
  /** `search`: the orders page (pages/order-search.ts), over the store's index. */
  orders: Pick<OrderStore, "get" | "search">;
  /**
   * Balances, the journal and holds; the one transfer made here is an approved float movement
   * (float-moves.ts): the other money actions go through the chat's own services.
   */
  ledger: LedgerStore;
  /**
   * The journal of [from, to) as CSV chunks for the download (GET /dashboard/books/journal.csv):
   * the very export the metrics listener streams, on a thread of its own when the process made
   * its own Redis connection (ledger/csv-off-thread.ts). Without it, `journalCsvChunks` over
   * `ledger`, here.
   */
  journalCsv?: (range: { from: number; to: number }) => AsyncIterable<string | Uint8Array>;
  /** The admin's books (src/books report): trial balance, float expected against the aggregator. */
  books: { report(): Promise<BooksReport> };
  /**
   * The alerts standing in the books' report, one line each in /books's own English words
   * (src/bot/books-alerts.ts, handed in by the composition root: the back office knows nothing of
   * the chat). Without it the books page names each standing alert by its kind only.
   */
  booksAlertLines?: (r: BooksReport) => string[];
  /** Asked on every request, so a role removed from the settings loses access at once. */
  roleOf(userId: number): PersonRole;
  now(): number;
  /** The origin people open the links on (PUBLIC_URL, else the listener's own URL). */
  publicUrl: string;
  logger: Logger;
  /** Timeouts; defaults in DEFAULT_TIMES. */
  times?: Partial<DashboardTimes>;
  /** The login entry points' rate limits; defaults in DEFAULT_RATE_LIMITS. */
  rateLimits?: Partial<RateLimits>;
  /** Customers and agents: registration, the blocked list, their orders (people/port.ts). */
  people: DashboardPeople;
  /** Money actions, alerts and the price schedule (h-actions); without them those pages say so. */
  actions?: ActionDeps;
  /** What the notifier sent for an order (notify/sent-log.ts), shown under its timeline. */
  sent?: { list(reference: string): Promise<SentMessage[]> };
}

/** One message the notifier sent for an order, and whether the messenger took it. */
export interface SentMessage {
  at: number;
  chatId: number;
  kind: string;
  status: string;
  ok: boolean;
  error?: string | undefined;
}

export interface DashboardTimes {
  /** A login link is good this long after it was sent. */
  linkMs: number;
  /** A session unused this long is over. */
  idleMs: number;
  /** A session is over this long after its login, however busy. */
  absoluteMs: number;
}

export const DEFAULT_TIMES: DashboardTimes = {
  linkMs: 10 * 60_000,
  idleMs: 30 * 60_000,
  absoluteMs: 12 * 3_600_000,
};

export const timesOf = (deps: Pick<DashboardDeps, "times">): DashboardTimes => ({
  ...DEFAULT_TIMES,
  ...deps.times,
});

/** The login entry points' fixed-window limits (rate-limit.ts). */
export interface RateLimits {
  /** The counting window of the hits per address and per token prefix. */
  windowMs: number;
  /** Hits on the entry points from one address in a window. */
  perIp: number;
  /** Hits on links whose tokens start alike (TOKEN_PREFIX_LENGTH characters) in a window. */
  perTokenPrefix: number;
  /** The window of failed logins. */
  failureWindowMs: number;
  /** Failed logins from one address in that window; more are refused before they are tried. */
  failuresPerIp: number;
}

/** Generous for people (a link is opened and confirmed: two hits), tight for a guesser. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowMs: 60_000,
  perIp: 60,
  perTokenPrefix: 10,
  failureWindowMs: 15 * 60_000,
  failuresPerIp: 20,
};

/** The role if it may open the back office, else null. */
export function dashboardRole(role: PersonRole): DashboardRole | null {
  return role === "admin" || role === "agent" ? role : null;
}

/** Where the back office is served on the public listener. */
export const DASHBOARD_PATH = "/dashboard";
