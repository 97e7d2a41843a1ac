import type { Writable } from "node:stream";
import type { RedisClient } from "../redis/connection.ts";

/**
 * Holds the connection's writes until the end of the current turn of the event loop, so the
 * commands the order store sends during one turn leave in one socket write. Under load a turn
 * handles many webhooks and updates at once; each lone write to Redis is a system call that also
 * wakes Redis up, and that was most of the webhook route's CPU beyond its floor (README
 * Performance, figure 1). Commands, replies and errors are exactly those of commands sent one by
 * one (this is only the socket's cork); a command waits at most until the turn ends
 * (setImmediate), never for a timer. Commands other parts send in the same turn ride along.
 * A Redis Cluster has a socket per node and none of its own: nothing is held there.
 */
export type HoldWrites = () => void;

// Taken at load: fake timers in a test must not hold Redis commands back.
const nextTurn = setImmediate;

export function holdWritesForTurn(redis: RedisClient): HoldWrites {
  if ((redis as { isCluster?: boolean }).isCluster === true) return () => {};
  let held: Writable | null = null;
  const release = () => {
    const stream = held;
    held = null;
    stream?.uncork();
  };
  return () => {
    if (held) return;
    // Only a connection that writes at once: one still connecting queues commands in ioredis.
    const { stream, status } = redis as { stream?: Writable; status?: string };
    if (status !== "ready" || !stream || typeof stream.cork !== "function") return;
    stream.cork();
    held = stream;
    nextTurn(release);
  };
}
