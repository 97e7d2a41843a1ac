import { AsyncLocalStorage } from "node:async_hooks";
import type { TurnWrite } from "../redis/chat-turns.ts";

/**
 * Writes an update makes that the chat's turn release carries (one Redis node: chat-order.ts,
 * redis/chat-turns.ts `leaveTurnWriting`). The conversation state and a question's idle deadline
 * were each a command, a socket write and a round trip of their own before the release's: now they
 * go in the release's script, in the order they were made, before its done mark. Redis socket
 * writes are the largest single cost of an update (docs/performance.md, the bot's profile).
 *
 * Nothing read in the update may depend on a carried write having happened: a write is carried only
 * where the update never reads the key back (its state was read as it started; the idle deadline
 * is armed right before the wait that ends the update, and the next update disarms it). A disarm
 * sent in the same update as a carried arm would run before it: a flow must not do that.
 */
export interface Carrier {
  writes: TurnWrite[];
  /** False once the update's middleware settled: work it left running writes for itself. */
  open: boolean;
}

const running = new AsyncLocalStorage<Carrier>();

/**
 * Hands `writes` (all or none) to the running update's release; false when there is none to
 * carry them (no chat turn, a Cluster, the update already past its middleware): write them then.
 * A carried write that fails fails the update, after its turn was freed (chat-order.ts): the user
 * gets the generic error and the update counts as handled (error-boundary.ts: no redelivery).
 */
export function carryWithRelease(writes: readonly TurnWrite[]): boolean {
  const carrier = running.getStore();
  if (carrier === undefined || !carrier.open) return false;
  carrier.writes.push(...writes);
  return true;
}

/** A carrier for one update's writes (chat-order.ts opens it around the update). */
export function newCarrier(): Carrier {
  return { writes: [], open: true };
}

/** Runs `next` with `carrier` taking its writes, closed to new ones once `next` settled. */
export async function carrying(carrier: Carrier, next: () => Promise<void>): Promise<void> {
  try {
    await running.run(carrier, next);
  } finally {
    carrier.open = false;
  }
}
