import {
  type AccessFactsReader,
  createMemoryAccounts,
  createMemoryBlocked,
  createRedisAccounts,
  createRedisBlocked,
  memoryAccessFacts,
  redisAccessFacts,
} from "../accounts/index.ts";
import { createMemoryLinks, createRedisLinks, type LinkStore } from "../accounts/links.ts";
import {
  createMemoryNumberChanges,
  createRedisNumberChanges,
  type NumberChanges,
} from "../accounts/number-changes.ts";
import { createMemoryCrossings, createRedisCrossings } from "../books/index.ts";
import { type ChatStateEraser, memoryChatState, redisChatState } from "../bot/chat-state.ts";
import { type IdleDeadlines, memoryIdleDeadlines, redisIdleDeadlines } from "../bot/idle.ts";
import { createMemoryComplaintStore, createRedisComplaintStore } from "../complaints/index.ts";
import { createMemoryLedger, createRedisLedger, type LedgerStore } from "../ledger/index.ts";
import {
  createMemoryNotificationQueue,
  createRedisNotificationQueue,
  memoryPaceStore,
  memorySentLog,
  redisPaceStore,
  redisSentLog,
} from "../notify/index.ts";
import {
  createMemoryLease,
  createMemoryOrderStore,
  createRedisLease,
  createRedisOrderStore,
  type LimitSettings,
  type MemoryOwed,
  memoryLimits,
  redisLimits,
} from "../orders/index.ts";
import { holdWritesForTurn } from "../orders/redis-batch.ts";
import { createMemoryTopUpStore, createRedisTopUpStore } from "../payments/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import { createRedis, redisAnswers } from "../redis/connection.ts";
import { memoryReminders, type ReminderStore, redisReminders } from "../reminders/index.ts";
import { createMemorySaved, createRedisSaved, type SavedStore } from "../saved/index.ts";
import type { Base } from "./base.ts";

/** The Redis connection: the one given (tests), one of our own (REDIS_URL), or none (memory). */
export function wireRedis(base: Base, given: RedisClient | undefined): RedisClient | undefined {
  const { config, logger, stops, health } = base;
  const own = !given && config.mode.redis ? createRedis(config.redis) : undefined;
  if (own) {
    own.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
    stops.add(async () => {
      await own.quit().catch(() => own.disconnect());
    });
  }
  const redis = given ?? own;
  if (redis) health.push({ name: "redis", check: () => redisAnswers(redis) });
  return redis;
}

/** Every store of the process, on Redis when there is one, in memory otherwise. */
export function wireStores(base: Base, redis: RedisClient | undefined) {
  const { now, logger } = base;
  const prefix = base.config.redis.prefix;
  if (redis) {
    const idle = redisIdleDeadlines(redis, prefix);
    return {
      store: createRedisOrderStore({ redis, prefix, now }),
      // The same keys the order store's scripts hold and settle in (ledger/lua.ts).
      ledger: createRedisLedger({ redis, prefix, now }),
      /** Phones and receipts beside the books (accounts/store.ts). */
      accounts: createRedisAccounts({ redis, prefix, logger }),
      /** Proven links between channels and their one-time codes (accounts/links.ts). */
      links: createRedisLinks({ redis, prefix }) as LinkStore,
      queue: createRedisNotificationQueue({ redis, prefix, logger }),
      sentLog: redisSentLog(redis, prefix),
      limits: (s: LimitSettings) => redisLimits(redis, prefix, s),
      idle,
      /** Ends a chat's flow when it changes hands (bot/chat-state.ts). */
      chatState: redisChatState(redis, prefix, idle),
      // Telegram's flood limits are per bot: with Redis every process draws on one shared budget.
      paceStore: redisPaceStore(redis, prefix),
      lease: createRedisLease(redis, prefix),
      crossings: createRedisCrossings(redis, prefix),
      // Its update script books the credit in the same {ledger} keys, in the same step.
      topUps: createRedisTopUpStore({ redis, prefix, now, logger }),
      /** Saved numbers and billers, per user (saved/store.ts). */
      saved: createRedisSaved({ redis, prefix }) as SavedStore,
      /** Who the merchant blocked (accounts/blocked.ts). */
      blocked: createRedisBlocked({ redis, prefix, logger }),
      /** WhatsApp customers who changed number, for the back office (accounts/number-changes.ts). */
      numberChanges: createRedisNumberChanges({ redis, prefix }) as NumberChanges,
      /** What the chat's access check reads: the flags that follow the registry (access-flags.ts). */
      accessFacts: redisAccessFacts({ redis, prefix }) as AccessFactsReader,
      /** What successful orders leave for their reminders, and the reminders' schedule. */
      reminders: redisReminders(redis, prefix) as ReminderStore,
      /** Complaints on orders: in {money}, a resolution books its refund in the same script. */
      complaints: createRedisComplaintStore({ redis, prefix, now }),
      /** Holds the connection's writes to the end of the turn: reads begun together leave in one. */
      holdWrites: holdWritesForTurn(redis) as (() => void) | undefined,
    };
  }
  // In memory the queue is the order store's outbox: a status and its notifications in one step.
  const queue = createMemoryNotificationQueue({ now });
  // The order store takes and settles holds in this ledger, in the same synchronous step.
  const ledger = createMemoryLedger({ now });
  const accounts = createMemoryAccounts();
  const blocked = createMemoryBlocked();
  const idle = memoryIdleDeadlines() as IdleDeadlines;
  // The orders owed an hourly alert's count: marked by the order store, taken by the crossings.
  const owed: MemoryOwed = new Map();
  return {
    store: createMemoryOrderStore({ outbox: queue, ledger, now, owed }),
    ledger: ledger as LedgerStore,
    accounts,
    links: createMemoryLinks(now) as LinkStore,
    queue,
    limits: (s: LimitSettings) => memoryLimits(s),
    idle,
    chatState: memoryChatState(idle) as ChatStateEraser,
    paceStore: memoryPaceStore(),
    sentLog: memorySentLog(),
    lease: createMemoryLease(now),
    // The books' alerts go to the same outbox as the orders' notifications.
    crossings: createMemoryCrossings(queue, owed),
    topUps: createMemoryTopUpStore({ ledger }),
    saved: createMemorySaved() as SavedStore,
    blocked,
    numberChanges: createMemoryNumberChanges() as NumberChanges,
    accessFacts: memoryAccessFacts({
      phoneOf: (id) => accounts.phoneOf(id),
      profileOf: (id) => accounts.profileOf(id),
      isBlocked: (id) => blocked.isBlocked(id),
    }),
    reminders: memoryReminders(),
    complaints: createMemoryComplaintStore({ ledger, outbox: queue }),
    holdWrites: undefined as (() => void) | undefined,
  };
}

export type Stores = ReturnType<typeof wireStores>;
