import { z } from "zod";
import type { Order, OrderStatus } from "./model.ts";

/**
 * Order search (the back office, issue 29): by reference, provider transaction id, number or
 * account (connectionNo), customer, status, category, operator and a date range, newest first,
 * one page at a time.
 *
 * The index: ONE sorted set per deployment (keyspace `orderSearch`, in the {money} slot), every
 * member with score 0 so Redis orders them by bytes, three members per order, written by the
 * create script in the same atomic step as the order (one ZADD with three members):
 *   t:<createdAt, 15 digits>:<reference>                       every order, by time
 *   c:<length of connectionNo>:<connectionNo>:<createdAt>:<ref> one number or account, by time
 *   u:<userId>:<createdAt>:<ref>                               one customer, by time
 * A page is one prefix read backwards (ZREVRANGEBYLEX), from the upper end of the date range (or
 * the cursor) down to its lower end, so "this number, newest first" or "this week" costs
 * O(log N + page) however many orders there are. Reference and transaction id are single-key
 * reads (the order key, the alias, by-tx). Status, category and operator (and the customer, when
 * a number is given too) are filters applied to the orders the index yields, with a bound: a page
 * looks at SEARCH_SCAN_BOUND index entries at most, so a rare status over a long range answers
 * with a short (even empty) page and a `next` cursor instead of scanning everything at once.
 *
 * Both adapters run the same `runSearch` over their own index, so their pages are equal (the
 * store contract suite checks it on both).
 */

export interface OrderSearch {
  /** Our reference or the execute reference (alias): a single read. */
  reference?: string | undefined;
  /** The aggregator's transaction id: a single read. */
  transactionId?: string | undefined;
  /** The number or account as the order carries it (exact). */
  connectionNo?: string | undefined;
  userId?: number | undefined;
  status?: OrderStatus | undefined;
  category?: string | undefined;
  operatorId?: number | undefined;
  /** Placed at or after this time (epoch ms). */
  from?: number | undefined;
  /** Placed before this time (epoch ms, exclusive). */
  to?: number | undefined;
  /** At most this many orders (1..SEARCH_MAX_LIMIT). */
  limit: number;
  /** A previous page's `next`: go on after it. */
  after?: string | undefined;
}

export interface OrderSearchPage {
  /** Newest first. */
  orders: Order[];
  /** There may be more: pass this as `after` (the next page may still come out empty). */
  next?: string;
  /** Index entries (orders) looked at for this page. */
  scanned: number;
}

/** Index entries one page looks at, at most (each a read of its order when filters apply). */
export const SEARCH_SCAN_BOUND = 2000;
export const SEARCH_MAX_LIMIT = 100;
/** Index entries read (and orders loaded, one pipeline) per round trip while filtering. */
const CHUNK = 250;

/** The cursor: the last index entry looked at, without its prefix (`<createdAt>:<reference>`). */
export const searchCursorSchema = z
  .string()
  .regex(/^\d{15}:[1-9]\d{0,14}$/, "not a cursor from a previous page");

const MAX_TIME = 999_999_999_999_999;
/** A time as the index writes it: 15 digits, so byte order is time order. */
export const indexTime = (ms: number): string =>
  String(Math.min(MAX_TIME, Math.max(0, Math.trunc(ms)))).padStart(15, "0");

export const INDEX_ALL = "t:";
/** The length first: no number can end in another's prefix, whatever characters it has. */
export const connectionPrefix = (connectionNo: string): string =>
  `c:${connectionNo.length}:${connectionNo}:`;
export const userPrefix = (userId: number): string => `u:${userId}:`;

/** What the create script needs to write an order's three members: the time and the prefixes. */
export function indexArgs(o: Pick<Order, "createdAt" | "connectionNo" | "userId">): string[] {
  return [
    indexTime(o.createdAt),
    INDEX_ALL,
    connectionPrefix(o.connectionNo),
    userPrefix(o.userId),
  ];
}

/** How many arguments indexArgs gives (the create script's last ones). */
export const SEARCH_ARGC = 4;

/** The members of an order (as the script builds them from indexArgs and the reference). */
export function indexMembers(o: Order): string[] {
  const [time, ...prefixes] = indexArgs(o);
  return prefixes.map((p) => `${p}${time}:${o.reference}`);
}

const referenceOf = (member: string): string => member.slice(member.lastIndexOf(":") + 1);

/** What an adapter gives the search: its single reads and its index. */
export interface SearchSource {
  get(reference: string): Promise<Order | null>;
  getByTransactionId(transactionId: string): Promise<Order | null>;
  /** Members m with min <= m < maxExclusive (bytes), highest first, at most n. */
  range(min: string, maxExclusive: string, n: number): Promise<string[]>;
  /** The orders that exist among these references (any order). */
  loadMany(references: string[]): Promise<Order[]>;
}

/** Every criterion, checked on an order (the index ones included: they hold, so it costs nothing). */
export function matchesSearch(o: Order, q: OrderSearch): boolean {
  if (
    q.reference !== undefined &&
    o.reference !== q.reference &&
    o.executeReference !== q.reference
  )
    return false;
  if (q.transactionId !== undefined && o.transactionId !== q.transactionId) return false;
  if (q.connectionNo !== undefined && o.connectionNo !== q.connectionNo) return false;
  if (q.userId !== undefined && o.userId !== q.userId) return false;
  if (q.status !== undefined && o.status !== q.status) return false;
  if (q.category !== undefined && o.category !== q.category) return false;
  if (q.operatorId !== undefined && o.operatorId !== q.operatorId) return false;
  if (q.from !== undefined && o.createdAt < q.from) return false;
  if (q.to !== undefined && o.createdAt >= q.to) return false;
  return true;
}

function plan(q: OrderSearch) {
  const prefix =
    q.connectionNo !== undefined
      ? connectionPrefix(q.connectionNo)
      : q.userId !== undefined
        ? userPrefix(q.userId)
        : INDEX_ALL;
  const min = prefix + (q.from === undefined ? "" : indexTime(q.from));
  // ';' sorts right after the digits: above every member of the prefix.
  let max = prefix + (q.to === undefined ? ";" : indexTime(q.to));
  if (q.after !== undefined && prefix + q.after < max) max = prefix + q.after;
  const filtered =
    q.status !== undefined ||
    q.category !== undefined ||
    q.operatorId !== undefined ||
    (q.connectionNo !== undefined && q.userId !== undefined);
  return { prefix, min, max, filtered };
}

async function single(src: SearchSource, q: OrderSearch): Promise<OrderSearchPage> {
  const o =
    q.reference !== undefined
      ? await src.get(q.reference)
      : await src.getByTransactionId(q.transactionId ?? "");
  return { orders: o && matchesSearch(o, q) ? [o] : [], scanned: o ? 1 : 0 };
}

/** One page of a search over an adapter's source (the same steps on both adapters). */
export async function runSearch(src: SearchSource, q: OrderSearch): Promise<OrderSearchPage> {
  if (q.reference !== undefined || q.transactionId !== undefined) return single(src, q);
  const limit = Math.min(SEARCH_MAX_LIMIT, Math.max(1, Math.trunc(q.limit)));
  const { prefix, min, filtered, max: top } = plan(q);
  let max = top;
  const orders: Order[] = [];
  let scanned = 0;
  while (orders.length < limit && scanned < SEARCH_SCAN_BOUND) {
    const want = Math.min(filtered ? CHUNK : limit - orders.length, SEARCH_SCAN_BOUND - scanned);
    // One more than we look at: it tells whether anything is left after the page.
    const members = await src.range(min, max, want + 1);
    const looked = members.slice(0, want);
    const byRef = new Map(
      (await src.loadMany(looked.map(referenceOf))).map((o) => [o.reference, o]),
    );
    let used = 0;
    for (const m of looked) {
      used++;
      scanned++;
      max = m;
      const o = byRef.get(referenceOf(m));
      if (o && matchesSearch(o, q)) orders.push(o);
      if (orders.length >= limit) break;
    }
    if (members.length <= used) return { orders, scanned };
  }
  return { orders, next: max.slice(prefix.length), scanned };
}
