import type { Logger } from "../logger.ts";
import { duplicateClient, type RedisClient } from "../redis/connection.ts";
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
const SEEN_SECONDS = 7 * 86_400;
/** A message waits at most this long for an earlier one of its chat, then goes anyway. */
const MAX_WAIT_MS = 120_000;
/** A message taken by an instance that went quiet this long is taken over. */
const CLAIM_IDLE_MS = 120_000;
const GROUP = "whatsapp";
const IN_FLIGHT = 64;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createMemoryInboundQueue(logger: Logger): WaInboundQueue {
  const seen = new Set<string>();
  const chains = new Map<number, Promise<void>>();
  const backlog: InboundItem[] = [];
  let seq = 0;
  let handler: ((item: InboundItem) => Promise<void>) | undefined;
  const run = (item: InboundItem) => {
    const h = handler;
    if (!h) return void backlog.push(item);
    const before = chains.get(item.chatId) ?? Promise.resolve();
    const next = before.then(() =>
      h(item).catch((err: unknown) =>
        logger.error({ err: String(err), chatId: item.chatId }, "whatsapp message not handled"),
      ),
    );
    chains.set(item.chatId, next);
    void next.then(() => {
      if (chains.get(item.chatId) === next) chains.delete(item.chatId);
    });
  };
  return {
    async enqueue(chatId, message) {
      if (seen.has(message.wamid)) return false;
      seen.add(message.wamid);
      seq += 1;
      run({ updateId: WA_UPDATE_BASE + seq, chatId, message });
      return true;
    },
    start(handle) {
      handler = handle;
      for (const item of backlog.splice(0)) run(item);
    },
    async stop() {
      handler = undefined;
      await Promise.all([...chains.values()]);
    },
  };
}

/**
 * KEYS: seen, seq, stream, the chat's pending set. ARGV: seen seconds, chat id, message JSON.
 * The update id, or 0 when seen. One step: the message is in its chat's line before any consumer
 * can read it, so a later message never finds its predecessor missing from the line.
 */
const enqueueScript = luaScript<"seen" | "seq" | "stream" | "pending", number>(
  "waEnqueue",
  ["seen", "seq", "stream", "pending"],
  `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local id = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[4], id, id)
redis.call('PEXPIRE', KEYS[4], ARGV[1] * 1000)
redis.call('XADD', KEYS[3], '*', 'u', id, 'c', ARGV[2], 'm', ARGV[3])
return id
`,
);

type StreamEntry = [id: string, fields: string[]];

function decode(entry: StreamEntry): InboundItem | null {
  const [, f] = entry;
  const get = (name: string) => f[f.indexOf(name) + 1];
  try {
    return {
      updateId: WA_UPDATE_BASE + Number(get("u")),
      chatId: Number(get("c")),
      message: JSON.parse(get("m") ?? "") as WaInboundMessage,
    };
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
  logger.warn({ chatId: item.chatId }, "whatsapp message handled before an earlier one");
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
  let blocking: RedisClient | undefined;
  const inFlight = new Set<Promise<void>>();

  const ensureGroup = () => createGroup(redis, k.waInbound);
  const waitTurn = (item: InboundItem) =>
    waitForTurn(redis, pendingOf(item.chatId), item, () => running, logger);
  const dispatch = (
    entryId: string,
    item: InboundItem,
    handle: (i: InboundItem) => Promise<void>,
  ) => {
    const seq = String(item.updateId - WA_UPDATE_BASE);
    const p = (async () => {
      await waitTurn(item);
      try {
        await handle(item);
      } catch (err) {
        logger.error({ err: String(err), chatId: item.chatId }, "whatsapp message not handled");
      }
      await redis.zrem(pendingOf(item.chatId), seq);
      await redis.xack(k.waInbound, GROUP, entryId);
      await redis.xdel(k.waInbound, entryId);
    })().catch((err: unknown) => logger.warn({ err: String(err) }, "whatsapp queue entry"));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const take = (entries: StreamEntry[], handle: (i: InboundItem) => Promise<void>) => {
    for (const e of entries) {
      const item = decode(e);
      if (item) dispatch(e[0], item, handle);
      else void redis.xack(k.waInbound, GROUP, e[0]);
    }
  };
  const readLoop = async (handle: (i: InboundItem) => Promise<void>) => {
    await ensureGroup();
    blocking = duplicateClient(redis);
    blocking.on("error", (err: Error) => logger.warn({ err: err.message }, "whatsapp queue Redis"));
    let lastClaim = 0;
    while (running) {
      try {
        if (inFlight.size >= IN_FLIGHT) {
          await Promise.race(inFlight);
          continue;
        }
        if (Date.now() - lastClaim > 1_000) {
          lastClaim = Date.now();
          const r = (await redis.xautoclaim(
            k.waInbound,
            GROUP,
            opts.consumer,
            CLAIM_IDLE_MS,
            "0-0",
            "COUNT",
            20,
          )) as [string, StreamEntry[]];
          take((r?.[1] ?? []).filter(Boolean), handle);
        }
        // biome-ignore lint/suspicious/noExplicitAny: ioredis types XREADGROUP's variadic form loosely
        const reply = (await (blocking as any).xreadgroup(
          "GROUP",
          GROUP,
          opts.consumer,
          "COUNT",
          20,
          "BLOCK",
          500,
          "STREAMS",
          k.waInbound,
          ">",
        )) as Array<[string, StreamEntry[]]> | null;
        take(reply?.[0]?.[1] ?? [], handle);
      } catch (err) {
        if (!running) break;
        if (err instanceof Error && /NOGROUP/.test(err.message))
          await ensureGroup().catch(() => {});
        logger.warn({ err: String(err) }, "whatsapp queue read failed; retrying");
        await sleep(500);
      }
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
      loop = readLoop(handle);
    },
    async stop() {
      running = false;
      blocking?.disconnect();
      await loop?.catch(() => {});
      await Promise.allSettled([...inFlight]);
      blocking = undefined;
    },
  };
}
