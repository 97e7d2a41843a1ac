import type { Logger } from "../logger.ts";
import {
  type BlockingConnection,
  blockingConnection,
  type RedisClient,
} from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import type { WaInboundMessage } from "./types.ts";

/**
 * The customers' messages between the webhook and the bot: the webhook answers Meta as soon as a
 * message is written here, and the consumers hand each to the chat engine. Each wamid is queued
 * once (Meta delivers at least once, for days), numbered as an update (the number the engine's
 * once-only claim and its chat turns key on), and handled in that order per customer across
 * instances: a message waits while an earlier one of its chat is queued and not yet handled.
 */

export interface InboundItem {
  updateId: number;
  chatId: number;
  message: WaInboundMessage;
}

export interface WaInboundQueue {
  /** Queues the message once by its wamid; false when it was seen before (a redelivery). */
  enqueue(chatId: number, message: WaInboundMessage): Promise<boolean>;
  /** Hands every queued message to `handle`, in order per chat; handle's errors are logged. */
  start(handle: (item: InboundItem) => Promise<void>): void;
  stop(): Promise<void>;
}

/** Update ids of WhatsApp messages: far above Telegram's, so the engine's claims never collide. */
export const WA_UPDATE_BASE = 1_000_000_000_000_000;
/** Meta redelivers for up to 7 days: a wamid is remembered that long. */
export const SEEN_SECONDS = 7 * 86_400;
/** A message waits at most this long for an earlier one of its chat, then goes anyway. */
const MAX_WAIT_MS = 120_000;
/**
 * A message taken by an instance that went quiet this long is taken over. Well above the wait for
 * a turn: an instance keeps the messages it works on fresh (KEEP_EVERY_MS), so only a dead or
 * stopped one's are taken.
 */
const CLAIM_IDLE_MS = 300_000;
const KEEP_EVERY_MS = 30_000;
const GROUP = "whatsapp";
const IN_FLIGHT = 64;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * KEYS: seen, seq, stream, the chat's pending set. ARGV: seen seconds, chat id, message JSON.
 * The update id, or 0 when seen. One step: the message is in its chat's line before any consumer
 * can read it, so a later message never finds its predecessor missing from the line. A message
 * alone in its line when queued is marked first ('f'): ids only grow, so no earlier message can
 * join the line after it, and its first consumer need not poll for its turn.
 */
const enqueueScript = luaScript<"seen" | "seq" | "stream" | "pending", number>(
  "waEnqueue",
  ["seen", "seq", "stream", "pending"],
  `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local id = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[4], id, id)
redis.call('PEXPIRE', KEYS[4], ARGV[1] * 1000)
if redis.call('ZCARD', KEYS[4]) == 1 then
  redis.call('XADD', KEYS[3], '*', 'u', id, 'c', ARGV[2], 'm', ARGV[3], 'f', '1')
else
  redis.call('XADD', KEYS[3], '*', 'u', id, 'c', ARGV[2], 'm', ARGV[3])
end
return id
`,
);

/**
 * KEYS: the chat's pending set, the stream. ARGV: the message's seq, its entry id, "1" when it was
 * handled. The chat's line moves on; a handled message is acknowledged and deleted. One command
 * and one round trip (was ZREM, XACK and XDEL one after another).
 */
const doneScript = luaScript<"pending" | "stream", number>(
  "waInboundDone",
  ["pending", "stream"],
  `
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[3] ~= '1' then return 0 end
redis.call('XACK', KEYS[2], '${GROUP}', ARGV[2])
return redis.call('XDEL', KEYS[2], ARGV[2])
`,
);

type StreamEntry = [id: string, fields: string[]];

/** An entry's message, and whether it was alone in its chat's line when queued. */
function decode(entry: StreamEntry): { item: InboundItem; first: boolean } | null {
  const [, f] = entry;
  const at = (name: string) => {
    const i = f.indexOf(name);
    return i >= 0 ? f[i + 1] : undefined;
  };
  try {
    const item = {
      updateId: WA_UPDATE_BASE + Number(at("u")),
      chatId: Number(at("c")),
      message: JSON.parse(at("m") ?? "") as WaInboundMessage,
    };
    return { item, first: at("f") === "1" };
  } catch {
    return null;
  }
}

async function createGroup(redis: RedisClient, stream: string): Promise<void> {
  try {
    await redis.xgroup("CREATE", stream, GROUP, "0", "MKSTREAM");
  } catch (err) {
    if (!(err instanceof Error && /BUSYGROUP/.test(err.message))) throw err;
  }
}

/** Waits until no earlier message of the chat is queued (or the wait runs out). */
async function waitForTurn(
  redis: RedisClient,
  pending: string,
  item: InboundItem,
  running: () => boolean,
  logger: Logger,
): Promise<void> {
  const seq = String(item.updateId - WA_UPDATE_BASE);
  const until = Date.now() + MAX_WAIT_MS;
  for (let pollMs = 5; running() && Date.now() < until; pollMs = Math.min(100, pollMs * 2)) {
    const [first] = await redis.zrange(pending, "0", "0");
    if (first === undefined || first === seq) return;
    await sleep(pollMs);
  }
  if (running())
    logger.warn({ chatId: item.chatId }, "whatsapp message handled before an earlier one");
}

/** What the read loop works with: the queue's state, handed in. */
interface ReadLoop {
  redis: RedisClient;
  /** The connection the blocking reads wait on (its own: a BLOCK would stall every other caller). */
  own: BlockingConnection;
  stream: string;
  consumer: string;
  logger: Logger;
  running: () => boolean;
  /** Entries being worked on here. */
  busy: Set<Promise<void>>;
  working: Set<string>;
  /** fresh: first deliveries (XREADGROUP >), not entries taken over from a quiet instance. */
  take: (entries: StreamEntry[], fresh: boolean) => void;
}

const xreadgroup = (c: RedisClient, ...args: Array<string | number>) =>
  // biome-ignore lint/suspicious/noExplicitAny: ioredis types XREADGROUP's variadic form loosely
  (c as any).xreadgroup(...args) as Promise<Array<[string, StreamEntry[]]> | null>;

/** One turn of the loop: keep what is worked on claimed, take a quiet instance's, read new ones. */
async function readOnce(l: ReadLoop, clock: { claim: number; keep: number }): Promise<void> {
  const { redis } = l;
  if (l.working.size > 0 && Date.now() - clock.keep > KEEP_EVERY_MS) {
    clock.keep = Date.now();
    // JUSTID: the idle time reset without a delivery counted.
    await redis.call("XCLAIM", l.stream, GROUP, l.consumer, "0", ...l.working, "JUSTID");
  }
  if (Date.now() - clock.claim > 1_000) {
    clock.claim = Date.now();
    const r = (await redis.xautoclaim(
      l.stream,
      GROUP,
      l.consumer,
      CLAIM_IDLE_MS,
      "0-0",
      "COUNT",
      20,
    )) as [string, StreamEntry[]];
    l.take((r?.[1] ?? []).filter(Boolean), false);
  }
  const reply = await l.own.read((c) =>
    xreadgroup(c, "GROUP", GROUP, l.consumer, "COUNT", 20, "BLOCK", 500, "STREAMS", l.stream, ">"),
  );
  l.take(reply?.[0]?.[1] ?? [], true);
}

/**
 * At a stop, once nothing is worked on here: every entry still pending with this consumer (not
 * begun, delivered to a read the stop cut off, or failed) is handed back: XCLAIM's IDLE sets its
 * idle time to CLAIM_IDLE_MS, so any instance's next XAUTOCLAIM (about once a second) takes it,
 * and its seq, still first in its chat's line, keeps the chat's later messages waiting for it.
 * Before, it stayed the stopped consumer's for CLAIM_IDLE_MS while those ran ahead of it after
 * MAX_WAIT_MS (review s31-notify, 4). JUSTID: no delivery counted. One key: Cluster-safe.
 */
async function handBack(redis: RedisClient, stream: string, consumer: string, logger: Logger) {
  try {
    const rows = (await redis.xpending(stream, GROUP, "-", "+", 1_000, consumer)) as Array<
      [id: string, ...rest: unknown[]]
    >;
    const ids = rows.map(([id]) => id);
    if (ids.length === 0) return;
    await redis.call(
      "XCLAIM",
      stream,
      GROUP,
      consumer,
      "0",
      ...ids,
      "IDLE",
      CLAIM_IDLE_MS,
      "JUSTID",
    );
  } catch (err) {
    // Left as before: taken over after CLAIM_IDLE_MS.
    logger.warn({ err: String(err) }, "whatsapp queue entries not handed back at stop");
  }
}

/** Reads until stopped; a Redis that answers late (at start too) is waited for, never thrown. */
async function readEntries(l: ReadLoop): Promise<void> {
  let grouped = false;
  const clock = { claim: 0, keep: Date.now() };
  while (l.running()) {
    try {
      if (!grouped) {
        await createGroup(l.redis, l.stream);
        grouped = true;
      }
      if (l.busy.size >= IN_FLIGHT) {
        await Promise.race(l.busy);
        continue;
      }
      await readOnce(l, clock);
    } catch (err) {
      if (!l.running()) break;
      if (err instanceof Error && /NOGROUP/.test(err.message)) grouped = false;
      l.logger.warn({ err: String(err) }, "whatsapp queue read failed; retrying");
      await sleep(500);
    }
  }
}

export function createRedisInboundQueue(opts: {
  redis: RedisClient;
  prefix: string;
  consumer: string;
  logger: Logger;
}): WaInboundQueue {
  const { redis, logger } = opts;
  const k = keyspace(opts.prefix);
  const pendingOf = (chatId: number) => k.waPending(chatId);
  let running = false;
  let loop: Promise<void> | undefined;
  let blocking: BlockingConnection | undefined;
  const busy = new Set<Promise<void>>();
  const working = new Set<string>();

  /** One message: its turn, the handling, then its place in the line and the stream released. */
  const work = async (
    entryId: string,
    item: InboundItem,
    handle: (i: InboundItem) => Promise<void>,
    first: boolean,
  ) => {
    const seq = String(item.updateId - WA_UPDATE_BASE);
    // First in its line when queued and delivered for the first time: its turn without a poll. A
    // message taken over from a quiet instance polls as before (later ones may be under way).
    if (!first) await waitForTurn(redis, pendingOf(item.chatId), item, () => running, logger);
    // Stopping: a message not begun stays queued (in its chat's line, unacknowledged) and is
    // handed back at the stop (handBack) for another instance or the next start, so a chat's
    // order holds across a shutdown.
    if (!running) return;
    let handled = true;
    try {
      await handle(item);
    } catch (err) {
      handled = false;
      logger.error({ err: String(err), chatId: item.chatId }, "whatsapp message not handled");
    }
    // The chat's line moves on either way; a failed message stays unacknowledged and is taken
    // again after CLAIM_IDLE_MS (the engine's update claim drops it if it did finish).
    await doneScript.run(
      redis,
      { pending: pendingOf(item.chatId), stream: k.waInbound },
      seq,
      entryId,
      handled ? "1" : "0",
    );
  };
  const take = (
    entries: StreamEntry[],
    handle: (i: InboundItem) => Promise<void>,
    fresh: boolean,
  ) => {
    for (const e of entries) {
      const [entryId] = e;
      if (working.has(entryId)) continue;
      const decoded = decode(e);
      if (!decoded) {
        // Dropped unread; a Redis error here must not end the process (an unhandled rejection
        // does): the entry stays pending and the next reclaim meets it again (review s32-secrets).
        void redis
          .xack(k.waInbound, GROUP, entryId)
          .then(() => redis.xdel(k.waInbound, entryId))
          .catch((err: unknown) =>
            logger.warn({ err: String(err) }, "whatsapp queue entry not dropped"),
          );
        continue;
      }
      working.add(entryId);
      const p = work(entryId, decoded.item, handle, fresh && decoded.first)
        .catch((err: unknown) => logger.warn({ err: String(err) }, "whatsapp queue entry"))
        .finally(() => {
          working.delete(entryId);
          busy.delete(p);
        });
      busy.add(p);
    }
  };
  return {
    async enqueue(chatId, message) {
      const id = await enqueueScript.run(
        redis,
        {
          seen: k.waSeen(message.wamid),
          seq: k.waUpdateSeq,
          stream: k.waInbound,
          pending: pendingOf(chatId),
        },
        SEEN_SECONDS,
        chatId,
        JSON.stringify(message),
      );
      return Number(id) !== 0;
    },
    start(handle) {
      if (running) return;
      running = true;
      const own = blockingConnection(redis, (err) =>
        logger.warn({ err: err.message }, "whatsapp queue Redis"),
      );
      blocking = own;
      loop = readEntries({
        redis,
        own,
        stream: k.waInbound,
        consumer: opts.consumer,
        logger,
        running: () => running,
        busy,
        working,
        take: (entries, fresh) => take(entries, handle, fresh),
      });
    },
    async stop() {
      running = false;
      blocking?.close();
      const started = loop !== undefined;
      await loop;
      await Promise.allSettled([...busy]);
      blocking = undefined;
      loop = undefined;
      if (started) await handBack(redis, k.waInbound, opts.consumer, logger);
    },
  };
}
