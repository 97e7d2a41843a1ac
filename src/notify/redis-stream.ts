import type { Logger } from "../logger.ts";
import { type Notification, notificationSchema, orderSchema } from "../orders/model.ts";
import { blockingConnection, connectCount, type RedisClient } from "../redis/connection.ts";
import { type keyspace, NOTIFIER_GROUP } from "../redis/keyspace.ts";
import { DEAD_CAP, type Delivery, type QueueConsumer } from "./queue.ts";

/**
 * The Redis queue's reading side: the outbox stream's consumer group, the entries' decoding, and
 * one consumer (XREADGROUP, XAUTOCLAIM, XDEL as acknowledgement, XCLAIM JUSTID to keep entries).
 */

type StreamEntry = [id: string, fields: string[]];

interface StreamDeps {
  redis: RedisClient;
  k: ReturnType<typeof keyspace>;
  log: Logger | undefined;
}

/** The order an entry carries (field "o"), with the entry's time; none if absent or unreadable. */
function writtenOrder(id: string, fields: string[]): Delivery["written"] {
  const at = fields.indexOf("o");
  const raw = at >= 0 ? fields[at + 1] : undefined;
  if (raw === undefined) return undefined;
  try {
    return { order: orderSchema.parse(JSON.parse(raw)), at: Number(id.split("-")[0]) };
  } catch {
    return undefined;
  }
}

function isNoGroup(err: unknown): boolean {
  return err instanceof Error && /NOGROUP/.test(err.message);
}

/** The notifier's consumer group on the outbox stream, created when first needed. */
export function createStreamGroup(deps: StreamDeps) {
  const { redis, k, log } = deps;
  /** The group starts at "0" so entries written before the first notifier ever ran are delivered. */
  async function ensureGroup(): Promise<void> {
    try {
      await redis.xgroup("CREATE", k.outbox, NOTIFIER_GROUP, "0", "MKSTREAM");
    } catch (err) {
      if (!(err instanceof Error && /BUSYGROUP/.test(err.message))) throw err;
    }
  }
  let groupReady: Promise<void> | undefined;
  const ready = () => {
    groupReady ??= ensureGroup().catch((err) => {
      groupReady = undefined;
      throw err;
    });
    return groupReady;
  };

  /**
   * Entries whose body cannot be read are dead-lettered raw and acknowledged, never retried.
   * `connects`: the connect count taken before the read (Delivery.connects).
   */
  async function decode(entries: StreamEntry[], connects?: number): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const entry of entries) {
      if (!Array.isArray(entry)) continue;
      const [id, fields] = entry;
      const at = fields?.indexOf("n") ?? -1;
      const raw = at >= 0 ? fields[at + 1] : undefined;
      let notification: Notification | undefined;
      try {
        notification = notificationSchema.parse(JSON.parse(raw ?? ""));
      } catch {
        notification = undefined;
      }
      if (notification) {
        const written = writtenOrder(id, fields);
        out.push({
          id,
          notification,
          ...(written ? { written } : {}),
          ...(connects === undefined ? {} : { connects }),
        });
      } else {
        log?.error({ id }, "unreadable notification entry dead-lettered");
        await redis
          .multi()
          .lpush(
            k.dead,
            JSON.stringify({
              raw: String(raw).slice(0, 2000),
              reason: "unreadable",
              at: Date.now(),
            }),
          )
          .ltrim(k.dead, 0, DEAD_CAP - 1)
          .xack(k.outbox, NOTIFIER_GROUP, id)
          .xdel(k.outbox, id)
          .exec();
      }
    }
    return out;
  }

  return {
    ready,
    /** The stream or group vanished (Redis lost its data): created again on the next ready(). */
    reset() {
      groupReady = undefined;
    },
    decode,
  };
}

export type StreamGroup = ReturnType<typeof createStreamGroup>;

type Reply = Array<[string, StreamEntry[]]> | null;

/** One consumer of the group; a blocking read gets a connection of its own. */
export function redisConsumer(name: string, group: StreamGroup, deps: StreamDeps): QueueConsumer {
  const { redis, k, log } = deps;
  // Blocking reads get their own connection: a BLOCK on the shared one would stall every caller.
  // ioredis reconnects by itself and a read that failed is retried by the notifier's loop.
  const blocking = blockingConnection(redis, (err) =>
    log?.warn({ err: err.message }, "notifier's blocking Redis connection"),
  );
  let closed = false;
  /**
   * Where the next XAUTOCLAIM scan starts. Redis looks at no more than COUNT×10 pending entries
   * per call, and the receipt edits kept fresh in the lanes sit at the head of the pending list:
   * always starting at "0-0" would never reach a dead consumer's entries behind 10×COUNT of them.
   * Carried between calls, so every pending entry is visited in turn; "0-0" again once Redis says
   * the scan went round (it answers "0-0"), and after an error.
   */
  let claimCursor = "0-0";
  const readOnce = async (count: number, blockMs: number) => {
    const args: Array<string | number> = ["GROUP", NOTIFIER_GROUP, name, "COUNT", count];
    if (blockMs > 0) args.push("BLOCK", blockMs);
    args.push("STREAMS", k.outbox, ">");
    // biome-ignore lint/suspicious/noExplicitAny: ioredis types XREADGROUP's variadic form loosely
    const send = (c: RedisClient) => (c as any).xreadgroup(...args) as Promise<Reply>;
    const reply = blockMs > 0 ? await blocking.read(send) : await send(redis);
    return reply?.[0]?.[1] ?? [];
  };
  return {
    name,
    async read(count, blockMs) {
      if (closed) return [];
      await group.ready();
      const connects = connectCount(redis);
      let entries: StreamEntry[];
      try {
        entries = await readOnce(count, blockMs);
      } catch (err) {
        if (closed) return [];
        if (!isNoGroup(err)) throw err;
        // The stream or group vanished (Redis lost its data): recreate and read again.
        group.reset();
        await group.ready();
        entries = await readOnce(count, 0);
      }
      return closed ? [] : group.decode(entries, connects);
    },
    async claimStale(minIdleMs, count) {
      if (closed) return [];
      await group.ready();
      const connects = connectCount(redis);
      let reply: unknown[];
      try {
        reply = (await redis.xautoclaim(
          k.outbox,
          NOTIFIER_GROUP,
          name,
          Math.max(0, Math.floor(minIdleMs)),
          claimCursor,
          "COUNT",
          count,
        )) as unknown[];
        claimCursor = typeof reply?.[0] === "string" ? reply[0] : "0-0";
      } catch (err) {
        claimCursor = "0-0";
        if (!isNoGroup(err)) throw err;
        group.reset();
        return [];
      }
      const taken = await group.decode(
        ((reply?.[1] as StreamEntry[]) ?? []).filter(Boolean),
        connects,
      );
      return taken.map((d) => ({ ...d, reclaimed: true as const }));
    },
    async ack(id, counted = true) {
      // One XDEL, no XACK: the group's pending entry left behind points at nothing, and the
      // XAUTOCLAIM scan that next passes it (claimStale, about once a second) drops it from the pending list
      // whatever its idle time (Redis 7 checks that an entry exists before its idle time), so
      // nothing is delivered twice or kept. One command per delivery instead of two.
      if (!counted) {
        await redis.xdel(k.outbox, id);
        return;
      }
      const replies = (await redis.pipeline().xdel(k.outbox, id).hdel(k.attempts, id).exec()) ?? [];
      const failed = replies.find(([err]) => err);
      if (failed?.[0]) throw failed[0];
    },
    async keep(ids) {
      if (ids.length === 0) return;
      // JUSTID: the idle time is reset without counting a delivery.
      // (`call`: the typed xclaim's overloads do not resolve on the Redis | Cluster union.)
      await redis.call("XCLAIM", k.outbox, NOTIFIER_GROUP, name, "0", ...ids, "JUSTID");
    },
    async noteAttempt(id) {
      return redis.hincrby(k.attempts, id, 1);
    },
    async close() {
      closed = true;
      blocking.close();
    },
  };
}
