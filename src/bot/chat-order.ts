import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../logger.ts";
import {
  CarriedWritesFailed,
  type ChatTurns,
  epochKey,
  type HeldTurn,
  type MarkOnRelease,
  type TurnWrite,
} from "../redis/chat-turns.ts";
import { type Carrier, carrying, newCarrier } from "./carried-writes.ts";
import type { UpdateClaims } from "./dedupe.ts";
import type { Prefetch } from "./prefetch.ts";

/**
 * Each update once, decided in the chat's turn (replaces the update's own lease, dedupe.ts, for
 * updates with a chat): the turn already keeps a second handler of the chat out, so a redelivery
 * of an update being handled waits for the turn like any later update, then finds its done mark.
 * The mark is written as the turn is freed (one script on one Redis node, `doneMark`; stored
 * first on a Cluster, `markFirst`), so whoever takes the turn next and reads it finds it. A
 * handler that died wrote no mark: its redelivery is handled once the turn's lease runs out, as
 * with the lease. A handler whose lease lapsed while it worked (a stall beyond `leaseMs`) may be
 * joined by its redelivery, as with the lease; on a Cluster also when the redelivery takes the
 * turn between the mark and the release (two nodes: they cannot be one step).
 */
export interface OnceInTurn<C extends Context> {
  /** Where the done marks are (dedupe.ts's keys and their day). */
  claims: UpdateClaims;
  /** Whether the update is already done, asked once the turn is held (or the wait ran out). */
  isDone(ctx: C, turn: HeldTurn): Promise<boolean>;
  /** A failure a redelivery cannot fix is marked done too (dedupe.ts's `settles`). */
  settles?: (err: unknown) => boolean;
  /** Wait for the mark before freeing the turn (a Cluster: the two keys may be on two nodes). */
  markFirst?: boolean;
  /** The mark as the release writes it in its own script (one Redis node; not with markFirst). */
  doneMark?: (updateId: number) => MarkOnRelease;
}

/**
 * A chat's updates one at a time, in update_id order, across every instance (redis/chat-turns.ts):
 * the update waits for its chat's turn, holds it while the rest of the stack runs (the
 * conversation is saved before the turn is released), then frees it. grammY's sequentialize,
 * before this, keeps the order within the process for free; this keeps it between processes.
 *
 * `onTaken` is told how the turn was taken: anything read for the update before it (the
 * prefetched session and conversation state) may be stale when it had to wait or the chat's epoch
 * moved since the read. A wait that runs out (a holder
 * stuck far beyond any bound of the handlers) is logged and the update handled anyway: a chat
 * never stays blocked (a redelivery of the update the holder is on is dropped then, `once`).
 */
export function chatOrder<C extends Context>(
  turns: ChatTurns,
  chatOf: (ctx: C) => string | undefined,
  opts: {
    logger: Logger;
    onTaken?: (ctx: C, turn: HeldTurn) => Promise<void>;
    once?: OnceInTurn<C>;
    /**
     * What the update reads as it starts, read by the take's script once the turn is taken (one
     * Redis node): `keys` asked for, `supply` told the values (undefined when the wait ran out).
     * Current by construction, so no `onTaken` check is needed for it.
     */
    early?: {
      keys(ctx: C): readonly string[] | undefined;
      supply(ctx: C, values: Array<Buffer | null> | undefined): void;
    };
    /**
     * The release carries the update's writes (carried-writes.ts; one Redis node, where `once`
     * has its `doneMark` and no `markFirst`).
     */
    carry?: boolean;
  },
): MiddlewareFn<C> {
  const { logger, once } = opts;
  return async (ctx, next) => {
    const chat = chatOf(ctx);
    if (chat === undefined) return next();
    const id = ctx.update.update_id;
    const read = opts.early?.keys(ctx);
    const turn = await turns.take(chat, id, read ? { read } : {});
    opts.early?.supply(ctx, turn.held ? turn.read : undefined);
    if (!turn.held) {
      logger.warn(
        { chat, updateId: id },
        "the chat's turn was not free in time: handled out of turn",
      );
    }
    let done = false;
    let failed = false;
    // Only a held turn carries writes: its release runs them only while the turn is ours
    // (redis/chat-turns.ts); out of turn they are written at once, as without a turn.
    const carrier = opts.carry && turn.held ? newCarrier() : undefined;
    // Released whatever happens once taken: a held turn is renewed until released, so one left
    // behind would block the chat for good (every later update waiting maxWaitMs).
    try {
      await opts.onTaken?.(ctx, turn);
      if (once && (await handledElsewhere(once, turns, ctx, chat, turn))) {
        logger.debug({ chat, updateId: id }, "redelivered update dropped");
        return;
      }
      await (carrier ? carrying(carrier, next) : next());
      done = true;
    } catch (err) {
      failed = true;
      if (once?.settles?.(err)) done = true;
      throw err;
    } finally {
      await finish(once && done ? once : undefined, turn, { id, chat, logger, carrier, failed });
    }
  };
}

/** Done already, or (the wait for the turn ran out) being handled by the turn's holder now. */
async function handledElsewhere<C extends Context>(
  once: OnceInTurn<C>,
  turns: ChatTurns,
  ctx: C,
  chat: string,
  turn: HeldTurn,
): Promise<boolean> {
  if (await once.isDone(ctx, turn)) return true;
  return !turn.held && (await turns.holder(chat)) === ctx.update.update_id;
}

/**
 * The done mark (when the update is done), then the turn freed; neither fails the update. The
 * writes the update left to the release (`carrier`) do: a failed one rejects, unless the update
 * failed already (its own error stands; this one is logged). The user then gets the generic error
 * (error-boundary.ts) and Telegram is answered: no redelivery runs it again.
 */
async function finish<C extends Context>(
  once: OnceInTurn<C> | undefined,
  turn: HeldTurn,
  at: { id: number; chat: string; logger: Logger; carrier?: Carrier | undefined; failed: boolean },
): Promise<void> {
  const warn = (what: string) => (err: unknown) =>
    at.logger.warn(
      { chat: at.chat, updateId: at.id, err: err instanceof Error ? err.message : String(err) },
      what,
    );
  const writes = at.carrier?.writes ?? [];
  if (writes.length > 0) {
    const carried = releaseCarrying(once, turn, at.id, writes, warn).finally(() => {
      // Work the update left running keeps its async context, and so the carrier, alive.
      writes.length = 0;
    });
    return at.failed ? carried.catch(warn("the update's writes with its release failed")) : carried;
  }
  const released = (mark?: MarkOnRelease) =>
    turn.release(mark).catch(warn("the chat's turn was not released (it runs out by itself)"));
  if (once === undefined) return released();
  // One node: the mark and the release are one script, nothing runs between them.
  if (once.doneMark && !once.markFirst) return released(once.doneMark(at.id));
  // Called before the release: on one connection Redis gets the mark first.
  const mark = once.claims.complete(at.id).catch(warn("the update's done mark was not written"));
  if (once.markFirst) await mark;
  await Promise.all([mark, released()]);
}

/**
 * The release carrying `writes`. When it failed without the script's answer (the connection's
 * error: the script may have run), the done mark tells: the script writes it only together with
 * every write, while the turn was ours, so a mark there means the update is done (one GET).
 */
async function releaseCarrying<C extends Context>(
  once: OnceInTurn<C> | undefined,
  turn: HeldTurn,
  id: number,
  writes: TurnWrite[],
  warn: (what: string) => (err: unknown) => void,
): Promise<void> {
  const mark = once?.doneMark?.(id);
  try {
    await turn.release(mark, writes);
  } catch (err) {
    if (err instanceof CarriedWritesFailed || once === undefined || mark === undefined) throw err;
    const state = await once.claims.state(id).catch(() => undefined);
    if (state !== "done") throw err;
    warn("the release's answer was lost; its done mark is there: the update is done")(err);
  }
}

/**
 * `onTaken` for a bot whose session and conversation state are read early (prefetch.ts, which
 * must read `epochKey` of the chat with them): the early read holds only if the turn was free at
 * once and no turn of the chat ended between the read and the take (same epoch); else it is
 * dropped and the adapters read Redis.
 */
export function dropStaleReads<C extends Context>(
  prefetch: Prefetch,
  prefix: string,
  chatOf: (ctx: C) => string | undefined,
): (ctx: C, turn: HeldTurn) => Promise<void> {
  return async (ctx, turn) => {
    const chat = chatOf(ctx);
    const read = chat === undefined ? undefined : await prefetch.take(epochKey(prefix, chat));
    if (turn.tries > 1 || read === undefined || String(read ?? "0") !== turn.epoch)
      prefetch.stale(ctx.update.update_id);
  };
}
