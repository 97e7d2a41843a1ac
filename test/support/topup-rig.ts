import { afterAll, beforeAll } from "vitest";
import { topUpNoticeText } from "../../conversations/top-up/notices.ts";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import {
  createMemoryTopUpStore,
  createRedisTopUpStore,
  type TopUp,
  type TopUpNotice,
  type TopUpStore,
  type TopUps,
  type UnreadableNotice,
} from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { serveKhaltiStandIn, topUpService } from "./khalti.ts";
import { loggedLines } from "./log-lines.ts";
import { testRedis } from "./redis.ts";

/**
 * The rig of the top-up tests that build the service by hand against the Khalti stand-in over
 * loopback (test/support/khalti.ts): the stand-in for a describe or a file, the memory and Redis
 * stores, a top-up started (and paid) as a customer would, a record as the store keeps it, and the
 * readings those tests make. (test/support/topup-system.ts starts the whole product instead.)
 */

export type KhaltiStandIn = Awaited<ReturnType<typeof serveKhaltiStandIn>>;

/**
 * The Khalti stand-in on a loopback port, served before the enclosing describe's (or file's)
 * tests and closed after; its fields are read lazily, so tests use them as the stand-in's own.
 */
export function useKhaltiStandIn(): Omit<KhaltiStandIn, "close"> {
  let served: KhaltiStandIn | undefined;
  beforeAll(async () => {
    served = await serveKhaltiStandIn();
  });
  afterAll(async () => {
    await served?.close();
  });
  const current = (): KhaltiStandIn => {
    if (!served) throw new Error("the Khalti stand-in is served in beforeAll");
    return served;
  };
  return {
    get standIn() {
      return current().standIn;
    },
    get url() {
      return current().url;
    },
    get apiUrl() {
      return current().apiUrl;
    },
  };
}

/** A Redis connection and key prefix of the file's own (testRedis), its keys deleted after. */
export function useTestRedis(name: string) {
  const env = testRedis(name);
  afterAll(async () => {
    await env.cleanup();
  });
  return env;
}

/**
 * The rig of a file on both stores: the stand-in, a Redis prefix of its own (deleted after), and
 * the table of its describes over memory and Redis (`describe.each(storeKinds)`).
 */
export function useKhaltiRig(name: string) {
  const khalti = useKhaltiStandIn();
  const redisEnv = useTestRedis(name);
  return { khalti, redisEnv, storeKinds: topUpStoreKinds(redisEnv) };
}

/** Where a test's top-ups live: a store per process (`store()`) over one set of books. */
export interface TopUpStores {
  store: () => TopUpStore;
  ledger: LedgerStore;
}

/** The memory store and books: every `store()` is the one store (one process's memory). */
export function memoryTopUpStores(): TopUpStores {
  const ledger = createMemoryLedger();
  const store = createMemoryTopUpStore({ ledger });
  return { store: () => store, ledger };
}

/**
 * The Redis store and books under `prefix` (the env's own by default): each `store()` on a
 * connection of its own, as another process would have.
 */
export function redisTopUpStores(
  env: Pick<ReturnType<typeof testRedis>, "connect" | "prefix">,
  prefix = env.prefix,
): TopUpStores {
  return {
    store: () => createRedisTopUpStore({ redis: env.connect(), prefix }),
    ledger: createRedisLedger({ redis: env.connect(), prefix }),
  };
}

/**
 * The tables of the tests run on both stores (`describe.each`): memory, and Redis on `env` under
 * `prefix()` (the env's own unless given, e.g. one per test).
 */
export function topUpStoreKinds(
  env: Pick<ReturnType<typeof testRedis>, "connect" | "prefix">,
  prefix: () => string = () => env.prefix,
): Array<[string, () => TopUpStores]> {
  return [
    ["memory", memoryTopUpStores],
    ["redis", () => redisTopUpStores(env, prefix())],
  ];
}

/** A top-up of `userId` (who is also the chat) started in English; a refusal fails the test. */
export async function startTopUp(
  topUps: Pick<TopUps, "start">,
  userId: number,
  amountPaisa: number,
): Promise<TopUp> {
  const r = await topUps.start({ userId, chatId: userId, locale: "en", amountPaisa });
  if (!r.ok) throw new Error(`start refused: ${JSON.stringify(r)}`);
  return r.topUp;
}

/** The notices' words as the bot sends them (English, no categories needed). */
const i18n = createChatI18n([]);
export const noticeText = (n: TopUpNotice) => topUpNoticeText(i18n, n);

/** What `userId` has in the books, posted (holds not counted against it). */
export const postedOf = async (ledger: Pick<LedgerStore, "balance">, userId: number) =>
  (await ledger.balance(account.customer(userId))).postedPaisa;

/**
 * A Rs `rupees` top-up of `userId` paid at the stand-in and not looked up yet (nothing credited),
 * on a service whose clock the test moves (`later`) and whose notices it keeps.
 */
export async function paidTopUp(
  khalti: Pick<KhaltiStandIn, "apiUrl" | "standIn">,
  s: TopUpStores,
  userId: number,
  rupees: number,
) {
  let offset = 0;
  const notices: TopUpNotice[] = [];
  const svc = (store: TopUpStore, caps: { maxPaisa?: number } = {}) =>
    topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger: s.ledger,
      notices,
      now: () => Date.now() + offset,
      ...caps,
    });
  const one = svc(s.store());
  const pidx = (await startTopUp(one.topUps, userId, rupees * 100)).paymentId;
  khalti.standIn.act(pidx, "pay");
  return {
    s,
    userId,
    pidx,
    notices,
    topUps: one.topUps,
    /** A second process over the same stores (with other caps, if given). */
    other: (caps: { maxPaisa?: number } = {}) => svc(s.store(), caps).topUps,
    later: (ms: number) => {
      offset += ms;
    },
    balance: () => postedOf(s.ledger, userId),
    customer: () => notices.filter((n) => n.audience === "customer").map(noticeText),
    admin: () => notices.filter((n) => n.audience === "admin"),
    close: () => one.gateway.close(),
  };
}

/** A top-up record as the store keeps it (Khalti, English, its link open 30 minutes). */
export function topUpRecord(
  r: Pick<TopUp, "id" | "paymentId" | "userId" | "amountPaisa" | "status" | "createdAt"> &
    Partial<TopUp>,
): TopUp {
  return {
    gateway: "khalti",
    paymentUrl: `http://127.0.0.1:9/pay?pidx=${r.paymentId}`,
    chatId: r.userId,
    locale: "en",
    updatedAt: r.createdAt,
    expiresAt: r.createdAt + 1_800_000,
    version: 0,
    ...r,
  };
}

/** The two admins of the unreadable-record tests (each is owed the alert). */
export const UNREADABLE_ADMINS = [3001, 3002];

/**
 * The rig of the tests of unreadable top-up records on Redis, two processes over one prefix: the
 * stand-in, a Redis prefix of the file's own (deleted after), a fresh prefix per test, a process
 * (`instance`) and a record that does not parse (`damagedDue`).
 */
export function useUnreadableRig(name: string) {
  const khalti = useKhaltiStandIn();
  const env = useTestRedis(name);
  let n = 0;
  const nextPrefix = () => `${env.prefix}${++n}:`;
  return {
    env,
    nextPrefix,
    /**
     * One process's top-up service under `prefix` (connections of its own), its clock `now`,
     * sending the admins' alert of an unreadable record with `send`; its log lines kept.
     */
    instance(prefix: string, now: () => number, send: (n: UnreadableNotice) => Promise<void>) {
      const { logger, lines } = loggedLines();
      const { topUps, gateway } = topUpService({
        apiUrl: khalti.apiUrl,
        store: createRedisTopUpStore({ redis: env.connect(), prefix, logger }),
        ledger: createRedisLedger({ redis: env.connect(), prefix }),
        notices: [],
        notify: async () => {},
        notifyUnreadable: send,
        adminChatIds: UNREADABLE_ADMINS,
        logger,
        now,
      });
      return { topUps, lines, close: () => gateway.close() };
    },
    /** A Khalti record that does not parse, first due on the schedule, under a fresh prefix. */
    async damagedDue(paymentId: string): Promise<string> {
      const prefix = nextPrefix();
      const k = keyspace(prefix);
      await env.redis.hset(k.topUp("khalti", paymentId), "v", "2", "j", "{not json");
      await env.redis.zadd(k.topUpsDue, "1", `khalti:${paymentId}`);
      return prefix;
    },
  };
}
