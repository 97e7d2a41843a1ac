import { randomUUID } from "node:crypto";
import {
  CarriedWritesFailed,
  carriedFailure,
  leave,
  type MarkOnRelease,
  type TurnWrite,
} from "./chat-turn-release.ts";
import { renewTurn, type TakeReply, takeTurn } from "./chat-turn-take.ts";
import type { RedisClient } from "./connection.ts";
import { keyspace } from "./keyspace.ts";

// What a release carries and how it fails are part of `HeldTurn.release`'s contract: importers
// keep finding them here.
export { CarriedWritesFailed, type MarkOnRelease, type TurnWrite };

/**
 * One chat's updates one at a time and in update_id order, across every instance on one Redis.
 *
 * grammY's sequentialize orders a chat's updates within one process only. Behind a balancer the
 * next update of a chat may reach another instance while the first is still being handled (the
 * webhook is answered after a few seconds, so Telegram sends the next one): both then read the
 * same conversation state, and a double tap gave two receipts, a quickly typed amount was read as
 * the number. So each chat has a queue in Redis:
 *  - a sorted set of the update ids waiting for the chat, scored by update_id (Telegram numbers a
 *    bot's updates in the order they happened, and hands a chat's next update out only after the
 *    previous one was answered, so every earlier update is queued before a later one arrives);
 *  - a hash: update id -> until when its waiter is alive (each poll extends it), so a waiter whose
 *    instance died leaves the queue by itself;
 *  - the turn: a lease naming the update being handled, renewed while it works, so an instance that
 *    dies mid-update frees the chat within `leaseMs`.
 * An update takes the turn only when it is the lowest update id alive in the queue and nobody
 * holds the turn; the decision is one script, with Redis's clock. Nothing ever waits for two
 * chats, so there is no deadlock; a waiter gives up waiting after `maxWaitMs` (the caller decides
 * what then).
 */
export interface ChatTurns {
  /** Waits for the chat's turn; resolves with the held turn (release it!) or "timeout". */
  /**
   * `read`: keys to read in the same script as the take, once the turn is taken (one Redis node
   * only; `HeldTurn.read`): what the update reads as it starts, current by construction.
   */
  take(
    chat: string,
    updateId: number,
    opts?: { signal?: AbortSignal; read?: readonly string[] },
  ): Promise<HeldTurn>;
  /** The update id whose handler holds the chat's turn now, if any (one GET). */
  holder(chat: string): Promise<number | undefined>;
}

export interface HeldTurn {
  /** False when the wait ran out (`maxWaitMs`): the update goes on without the turn. */
  held: boolean;
  /**
   * The chat's epoch when the turn was taken: an opaque value of the turn key (the value the last
   * release wrote, never written before; "0" for none). A read of the chat's state made before
   * the take holds only if it saw the same value (nobody finished an update in between). A holder
   * that died after its take and before its release leaves the key to expire, so a read older
   * than one lease can match again: the reads that compare are made just before the take.
   */
  epoch: string;
  /** How many polls it took (1: the turn was free at once). */
  tries: number;
  /**
   * The values of the take's `read` keys (null: no such key), read right after the turn was taken
   * in the same script; undefined when none were asked for or the wait ran out.
   */
  read?: Array<Buffer | null>;
  /**
   * Frees the turn; `mark`, when given, is set in the same script (one Redis node only), and so
   * are `writes` (one node only), in their order, before the mark and the release, and only while
   * the turn is ours: a failed write leaves the rest and the mark unwritten, frees the turn all
   * the same, and rejects (`CarriedWritesFailed`), as does a turn lost before the release (its
   * writes not made). A release resent after a reconnect makes no write again.
   */
  release(mark?: MarkOnRelease, writes?: readonly TurnWrite[]): Promise<void>;
}

export interface ChatTurnSettings {
  /**
   * The turn's lease; renewed every third of it while held. Default 5 s. **Every instance on one
   * Redis must use the same value**: a take tried as free or a lost release that finds another
   * holder's token puts it back with its own lease (the holder's remaining one is gone with the
   * `SET … GET`; a `PTTL` first would cost every take and release a command). A shorter lease here
   * than the holder's would let its token expire before its next renewal, and the chat's turn be
   * handed out twice.
   */
  leaseMs?: number;
  /** A waiter not heard from for this long has left the queue. Default 5 s. */
  aliveMs?: number;
  /** Poll interval while waiting (first polls faster). Default 100 ms. */
  pollMs?: number;
  /** The longest wait for a turn. Default 120 s (an execute and its lookups, with margin). */
  maxWaitMs?: number;
}

/**
 * The key whose value a read of the chat's state takes along, to compare with `HeldTurn.epoch`
 * (as a string, "0" for none): the turn key itself.
 */
export const epochKey = (prefix: string, chat: string): string =>
  keyspace(prefix).chatTurn(chat).turn;

/** The epoch outlives by far any read it is compared with (an expired one reads "0"). */
const EPOCH_TTL_MS = 24 * 3600 * 1000;
/** How many chats an instance remembers freeing last (each a few dozen bytes). */
const FREED_KEPT = 50_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export function redisChatTurns(
  redis: RedisClient,
  prefix: string,
  s: ChatTurnSettings = {},
): ChatTurns {
  const leaseMs = s.leaseMs ?? 5_000;
  const aliveMs = s.aliveMs ?? 5_000;
  const pollMs = s.pollMs ?? 100;
  const maxWaitMs = s.maxWaitMs ?? 120_000;
  const instance = randomUUID();
  // Each release writes an epoch no release wrote before: this instance's id and a count.
  let releases = 0;
  // The chats whose turn this instance freed last (a bounded set, oldest dropped first).
  const freedHere = new Set<string>();
  const rememberFreed = (chat: string) => {
    freedHere.delete(chat);
    freedHere.add(chat);
    if (freedHere.size > FREED_KEPT) {
      const oldest = freedHere.values().next().value;
      if (oldest !== undefined) freedHere.delete(oldest);
    }
  };
  const ks = keyspace(prefix);
  return {
    async holder(chat) {
      const value = await redis.get(ks.chatTurn(chat).turn);
      // A holder's token is `<instance uuid>:<update id>`; a freed turn's value starts with "f:".
      if (value === null || value.startsWith("f:")) return undefined;
      const token = value.endsWith("|q") ? value.slice(0, -2) : value;
      const id = Number(token.slice(token.lastIndexOf(":") + 1));
      return Number.isSafeInteger(id) ? id : undefined;
    },
    async take(chat, updateId, opts = {}) {
      const keys = ks.chatTurn(chat);
      // Our token names the update too: a redelivery of it elsewhere is someone else.
      const token = `${instance}:${updateId}`;
      const giveUpAt = Date.now() + maxWaitMs;
      let tries = 0;
      let taken: TakeReply | null = null;
      // Freed by us last: tried as free at the first poll (one command less), once.
      let asFree = freedHere.delete(chat);
      const read = opts.read ?? [];
      for (;;) {
        tries++;
        const args = [updateId, token, leaseMs, aliveMs, asFree ? "1" : "0", EPOCH_TTL_MS] as const;
        // Binary values read: the reply's bulk strings as Buffers.
        taken =
          read.length === 0
            ? await takeTurn.run(redis, keys, ...args)
            : await takeTurn.runBuffer<TakeReply | null>(
                redis,
                keys,
                ...args,
                read.length,
                ...read,
              );
        asFree = false;
        if (taken !== null || Date.now() > giveUpAt || opts.signal?.aborted) break;
        await sleep(Math.min(pollMs, 10 * tries), opts.signal);
      }
      const held = taken !== null;
      // Only an update taken at the first try without the queue is not in it.
      const queued = !held || tries > 1 || Number(taken?.[1]) === 1;
      const epoch = taken === null ? "" : String(taken[0]);
      const values =
        taken !== null && read.length > 0 ? (taken.slice(2) as Array<Buffer | null>) : undefined;
      const renewal = held
        ? setInterval(
            () => void renewTurn.run(redis, { turn: keys.turn }, token, leaseMs).catch(() => {}),
            Math.max(50, Math.floor(leaseMs / 3)),
          )
        : undefined;
      let released = false;
      return {
        held,
        epoch,
        tries,
        ...(values ? { read: values } : {}),
        async release(mark, writes = []) {
          if (released) return;
          released = true;
          clearInterval(renewal);
          const args = [
            updateId,
            token,
            `f:${instance}:${++releases}`,
            EPOCH_TTL_MS,
            queued ? "1" : "0",
            leaseMs,
          ] as const;
          const [ours, failed, outcome] = await leave(redis, keys, args, mark, writes);
          // Freed by us, unmarked unless someone queued: the next take here tries it as free.
          if (ours === 1) rememberFreed(chat);
          const failure = carriedFailure(failed, outcome);
          if (failure) throw failure;
        },
      };
    },
  };
}
