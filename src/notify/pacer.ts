import {
  buckets,
  memoryPaceStore,
  type PacerLimits,
  type PacerLimitsInput,
  type PaceStore,
  pacerLimitsSchema,
  SendsHeld,
  type SlotKind,
  type TakeResult,
  waitFor,
} from "./pace-store.ts";

/**
 * Proactive pacing of the notifier's Bot API calls, so Telegram never has to answer 429.
 *
 * Telegram asks bots to stay under about 30 messages per second overall and about 1 per second in
 * one chat (edits count like messages). Reacting to 429 is too late: by then Telegram has refused
 * the call and may make the bot wait for long. The pacer takes a slot BEFORE every send or edit,
 * from two buckets at once: the bot's global one and the chat's own. The buckets are GCRA
 * ("theoretical arrival time") buckets: one timestamp per bucket, a slot is free when the timestamp
 * is at most `(burst - 1) / rate` ahead of now.
 *
 * Where the buckets live decides who shares them:
 *  - memoryPaceStore() (pace-store.ts): one process; several processes would each take the whole
 *    budget;
 *  - redisPaceStore() (redis-pace-store.ts): every process of the bot shares one budget (one Lua
 *    script per slot, both buckets, members of one sorted set, checked and taken atomically). The
 *    caller's clock is passed in, so processes should be NTP-synchronised; a skew of a few ms only
 *    eats into the burst allowance.
 *
 * Two kinds of slot: a "push" (a new message: a final outcome, an admin alert) and an "edit" (a
 * receipt brought up to date). Pushes go first. Inside a process pushes and edits wait in two FIFO
 * lines and only the head of the push line, or of the edit line when no push waits, asks the
 * store, so sixteen waiters do not poll it sixteen times per slot. Across processes an edit may only
 * take a global slot while `pushReserve` slots of the burst stay free, so a push from any process
 * finds one at once while the edits of another process wait: edits get what pushes leave of the
 * budget, never more than the budget. A caller whose CHAT is not free leaves its line, sleeps until
 * its chat is, and takes its place in the line again, so one busy chat never holds up the others
 * and is not sent to the back of a long line each time. A granted slot comes with the buckets'
 * timestamps, and the process waits for what they tell before asking again (others only push them
 * later): a receipt edit and the push right after it (the chat's burst spent) ask once each
 * instead of being refused first.
 *
 * A hold (`hold`): Telegram's 429 asks for `retry_after` seconds without requests to it (more
 * prolong the flood wait), and the wait is the bot's, not one process's. The hold is written into
 * the store ("not before <time>", and the global timestamp pushed to it, never backwards), so
 * every process's pacer keeps it: an ask inside it is refused with SendsHeld, a 429 of its own
 * (its caller pauses as for Telegram's), instead of waiting minutes in the line.
 */

interface AcquireOptions {
  /** Default "push". */
  kind?: SlotKind;
  /** Gives up waiting (acquire then rejects with the signal's reason); no slot is taken. */
  signal?: AbortSignal;
}

export interface SendPacer {
  /** Resolves when a message into `chatId` may be sent now; the slot is taken. */
  acquire(chatId: number, opts?: AcquireOptions): Promise<void>;
  /** No slot before `until` in any process sharing the store (acquire rejects with SendsHeld). */
  hold(until: number): Promise<void>;
  readonly limits: PacerLimits;
}

export interface SendPacerOptions {
  store?: PaceStore;
  limits?: PacerLimitsInput;
  now?: () => number;
  /** How to wait; a test or benchmark with its own clock passes one that matches it. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Waiter {
  /** Arrival order: a waiter back from waiting for its chat takes its old place in the line. */
  seq: number;
  chatId: number;
  kind: SlotKind;
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
}

export function createSendPacer(opts: SendPacerOptions = {}): SendPacer {
  const limits = pacerLimitsSchema.parse(opts.limits ?? {});
  const store = opts.store ?? memoryPaceStore();
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const lines: Record<SlotKind, Waiter[]> = { push: [], edit: [] };
  let pumping = false;
  let arrivals = 0;
  /** Cuts short the pump's wait for an edit's slot when a push arrives. */
  let pushArrived: (() => void) | undefined;
  // What this process learnt from its own grants (lower bounds: other processes only add to them).
  let knownGlobalTat = 0;
  let knownHeldUntil = 0;
  const knownChatTat = new Map<number, number>();
  const learn = (chatId: number, r: { globalTat?: number; chatTat?: number }, t: number) => {
    if (r.globalTat !== undefined) knownGlobalTat = Math.max(knownGlobalTat, r.globalTat);
    if (r.chatTat === undefined || r.chatTat <= t) return;
    knownChatTat.set(chatId, r.chatTat);
    if (knownChatTat.size > 10_000)
      for (const [id, at] of knownChatTat) if (at <= t) knownChatTat.delete(id);
  };

  const leave = (w: Waiter) => {
    const line = lines[w.kind];
    const at = line.indexOf(w);
    if (at >= 0) line.splice(at, 1);
  };

  const join = (w: Waiter) => {
    if (w.signal?.aborted) {
      w.reject(w.signal.reason); // a second rejection of the same promise changes nothing
      return;
    }
    const line = lines[w.kind];
    // In arrival order (a newcomer goes last): with thousands of edits waiting under a long peak,
    // one back from its chat's wait must not queue behind all of them again.
    let at = line.length;
    while (at > 0 && (line[at - 1]?.seq ?? 0) > w.seq) at--;
    line.splice(at, 0, w);
    if (w.kind === "push") pushArrived?.();
    if (!pumping) void pump();
  };

  /** Serves the lines' heads one at a time, pushes first, until both lines are empty. */
  async function pump(): Promise<void> {
    pumping = true;
    try {
      for (;;) {
        const w = lines.push[0] ?? lines.edit[0];
        if (!w) return;
        if (w.signal?.aborted) {
          leave(w);
          w.reject(w.signal.reason);
          continue;
        }
        // What our own grants already tell: no ask that is sure to be refused. An edit's global
        // wait is still asked (its sleep must stay short enough for a push to cut in).
        const b = buckets(limits, w.kind);
        const t = now();
        if (knownHeldUntil > t) {
          leave(w);
          w.reject(new SendsHeld(knownHeldUntil, t));
          continue;
        }
        const known: TakeResult = {
          ok: false,
          globalWaitMs: w.kind === "push" ? waitFor(knownGlobalTat, t, b.global) : 0,
          chatWaitMs: waitFor(knownChatTat.get(w.chatId) ?? 0, t, b.chat),
        };
        let r: TakeResult = known;
        if (known.globalWaitMs === 0 && known.chatWaitMs === 0) {
          try {
            r = await store.take(w.chatId, t, limits, w.kind);
          } catch (err) {
            leave(w);
            w.reject(err);
            continue;
          }
        }
        if (!r.ok && r.heldUntil !== undefined && r.heldUntil > t) {
          knownHeldUntil = Math.max(knownHeldUntil, r.heldUntil);
          continue; // refused above, with the others waiting
        }
        if (r.ok) {
          learn(w.chatId, r, t);
          leave(w);
          w.resolve(); // given up meanwhile: that slot goes unused, harmless
          continue;
        }
        if (lines[w.kind][0] !== w) continue; // gave up while asking: nothing to wait for
        if (r.chatWaitMs > r.globalWaitMs) {
          // Its chat is the one to wait for: out of the line, back in its place when the chat is free.
          leave(w);
          void sleep(Math.max(1, r.chatWaitMs)).then(() => join(w));
          continue;
        }
        // The global bucket is the one to wait for: the head keeps its place. A push arriving
        // while an edit waits is served first (its slot is due sooner than the edit's), also one
        // that arrived while the edit was asking.
        if (w.kind === "edit" && lines.push.length > 0) continue;
        const wait = sleep(Math.max(1, r.globalWaitMs));
        if (w.kind === "edit") {
          await Promise.race([
            wait,
            new Promise<void>((resolve) => {
              pushArrived = resolve;
            }),
          ]);
          pushArrived = undefined;
        } else {
          await wait;
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    limits,
    async hold(until) {
      if (until <= Math.max(knownHeldUntil, now())) return; // known already (learnt from the store)
      knownHeldUntil = until;
      await store.hold(until, limits);
    },
    acquire(chatId, { kind = "push", signal } = {}) {
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = { seq: arrivals++, chatId, kind, resolve, reject, signal };
        if (signal) {
          // Out of the line at once, whether waiting in it or aside for its chat.
          const onAbort = () => {
            leave(w);
            reject(signal.reason);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          w.resolve = () => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          };
        }
        join(w);
      });
    },
  };
}
