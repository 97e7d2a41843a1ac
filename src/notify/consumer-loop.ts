import type { Logger } from "../logger.ts";
import { type Channel, channelOf } from "./channel.ts";
import type { Handle } from "./handle.ts";
import type { DeliveryOutcome, NotifierSettings } from "./options.ts";
import type { Delivery, NotificationQueue, QueueConsumer } from "./queue.ts";
import type { ReceiptEditLane } from "./receipt-edits.ts";
import type { RunState } from "./run-state.ts";

/**
 * The notifier's consumer loop: reads the queue (stale entries first, a few times per claim idle
 * time), and dispatches each delivery as it is read, not batch by batch: a push read while an
 * earlier one waits for its slot (or for Telegram) is prepared meanwhile instead of waiting for the
 * whole batch, which under load turned arrivals into bursts. One chat's deliveries run in order;
 * at most `concurrency` run at once; at most `batchSize` are in flight. A 429 pauses its channel
 * (channel.ts): that channel's deliveries are turned back unsent while the others' go on, and the
 * reading stops only while every channel served is paused. The deliveries a pause turned back are
 * run again, in the order read, once it ends (up to PAUSE_RERUNS times each, at most
 * MAX_AFTER_PAUSE at once), instead of waiting the claim idle time (30 s) for the reclaim.
 */

/** How often one delivery turned back by a 429's pause is run again when it ends. */
const PAUSE_RERUNS = 3;

/**
 * Deliveries kept to run again after a pause. The reading goes on while one channel is paused (up
 * to an hour): past this many, the others turned back are left to the reclaim, as after
 * PAUSE_RERUNS, so memory stays bounded however long the backlog.
 */
const MAX_AFTER_PAUSE = 5_000;

export interface ConsumerLoopDeps {
  queue: NotificationQueue;
  consumerName: string;
  handle: Handle;
  edits: ReceiptEditLane;
  settings: NotifierSettings;
  state: RunState;
  logger: Logger | undefined;
  now: () => number;
  sleep: ((ms: number) => Promise<void>) | undefined;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** At most `concurrency` tasks run at once; the others wait their turn in order. */
function createPermits(concurrency: number) {
  let handling = 0;
  const waiters: Array<() => void> = [];
  return async function withPermit<T>(f: () => Promise<T>): Promise<T> {
    if (handling >= concurrency) await new Promise<void>((r) => waiters.push(r));
    else handling++;
    try {
      return await f();
    } finally {
      const next = waiters.shift();
      if (next) next();
      else handling--;
    }
  };
}

const channelOfDelivery = (d: Delivery): Channel => channelOf(d.notification.chatId);

/**
 * The deliveries a 429's pause turned back ("retry" while their channel's stood), to run again
 * once it is over: each at most PAUSE_RERUNS times, then it is left to the reclaim.
 */
function createAfterPause(state: RunState) {
  /** In the order turned back (a Map keeps it): one chat's deliveries run again in order. */
  const waiting = new Map<string, { c: QueueConsumer; d: Delivery }>();
  /** How often each was run again so far (forgotten once it ends any other way). */
  const reruns = new Map<string, number>();
  return {
    note(c: QueueConsumer, d: Delivery, outcome: DeliveryOutcome) {
      const runs = reruns.get(d.id) ?? 0;
      const room = waiting.has(d.id) || waiting.size < MAX_AFTER_PAUSE;
      const paused = state.pauseLeft(channelOfDelivery(d)) > 0;
      if (outcome === "retry" && paused && runs < PAUSE_RERUNS && room) {
        waiting.set(d.id, { c, d });
        reruns.set(d.id, runs + 1);
      } else {
        reruns.delete(d.id);
      }
    },
    /** The deliveries of consumer `c` whose channel's pause is over, to run again now. */
    due(c: QueueConsumer): Delivery[] {
      if (waiting.size === 0) return [];
      const due: Delivery[] = [];
      for (const [id, x] of waiting) {
        if (state.pauseLeft(channelOfDelivery(x.d)) > 0) continue;
        waiting.delete(id);
        if (x.c === c) due.push(x.d);
      }
      return due;
    },
  };
}

/**
 * Milliseconds until one of `channels` is no longer paused (zero or less: one is not). One
 * channel's pause alone does not stop the reading: the other's pushes keep going.
 */
const pausedAll = (state: RunState, channels: readonly Channel[]) =>
  Math.min(...channels.map((ch) => state.pauseLeft(ch)));

export function createConsumerLoop(deps: ConsumerLoopDeps) {
  const { queue, handle, edits, settings, state, now } = deps;
  const { batchSize, blockMs, claimIdleMs } = settings;
  const log = deps.logger;
  const withPermit = createPermits(settings.concurrency);
  const chatTails = new Map<number, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  let consumer: QueueConsumer | undefined;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let roomMade: (() => void) | undefined;
  const afterPause = createAfterPause(state);

  const getConsumer = () => {
    consumer ??= queue.consumer(deps.consumerName);
    return consumer;
  };

  /** Waits `ms` (through deps.sleep when given), or less when stop() wakes it. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(t);
        wake = undefined;
        resolve();
      };
      const t = deps.sleep ? undefined : setTimeout(finish, ms);
      if (deps.sleep) void deps.sleep(ms).then(finish, finish);
      wake = finish;
    });

  /** Resolves when a delivery finished (or stop() was called). */
  const room = () =>
    new Promise<void>((resolve) => {
      roomMade = () => {
        roomMade = undefined;
        resolve();
      };
      wake = roomMade;
    });

  /** Starts one delivery after its chat's previous one. */
  function dispatch(c: QueueConsumer, d: Delivery): Promise<DeliveryOutcome> {
    const chatId = d.notification.chatId;
    // Turned back unsent while its channel is paused; the other channel's chats go on.
    const run = (chatTails.get(chatId) ?? Promise.resolve()).then(() =>
      state.pauseLeft(channelOfDelivery(d)) > 0 ? "retry" : withPermit(() => handle(c, d)),
    );
    // The chat's next delivery waits for this one, whatever became of it.
    const tail = run.then(
      (outcome) => afterPause.note(c, d, outcome),
      () => afterPause.note(c, d, "dropped"),
    );
    chatTails.set(chatId, tail);
    inFlight.add(tail);
    void tail.then(() => {
      if (chatTails.get(chatId) === tail) chatTails.delete(chatId);
      inFlight.delete(tail);
      roomMade?.();
    });
    return run;
  }

  /** One read: stale entries (when `claim`), then new ones; dispatched, not awaited. */
  async function readAndDispatch(waitMs: number, claim: boolean) {
    const c = getConsumer();
    const again = afterPause.due(c);
    const rerun = new Set(again.map((d) => d.id));
    // Entries waiting in the edit lane are ours already (claimIdleMs 0 takes them back at once).
    const stale = claim
      ? (await c.claimStale(claimIdleMs, batchSize)).filter(
          (d) => !edits.holds(d.id) && !rerun.has(d.id),
        )
      : [];
    const taken = again.length + stale.length;
    const room = batchSize - inFlight.size - taken;
    const fresh = room > 0 ? await c.read(room, taken ? 0 : waitMs) : [];
    return [...again, ...stale, ...fresh].map((d) => dispatch(c, d));
  }

  async function run(): Promise<void> {
    let failures = 0;
    let lastClaim = Number.NEGATIVE_INFINITY;
    while (!state.stopped) {
      try {
        // Every channel served paused by a 429 (up to an hour): slept a piece at a time.
        const pause = pausedAll(state, settings.channels);
        if (pause > 0) await sleep(Math.min(pause, settings.maxPauseMs));
        if (state.stopped || pausedAll(state, settings.channels) > 0) continue;
        if (inFlight.size >= batchSize) {
          await room();
          continue;
        }
        // Stale entries only appear after claimIdleMs: looking a few times per idle time is enough.
        const claim = now() - lastClaim >= Math.min(claimIdleMs / 4, 1_000);
        if (claim) lastClaim = now();
        const started = await readAndDispatch(blockMs, claim);
        for (const p of started)
          p.catch((err) =>
            log?.warn({ err: message(err) }, "notification failed; the queue will redeliver it"),
          );
        failures = 0;
      } catch (err) {
        if (state.stopped) break;
        failures++;
        log?.warn({ err: message(err), failures }, "notifier loop error; backing off");
        await sleep(Math.min(200 * 2 ** Math.min(failures, 6), 10_000));
      }
    }
    await Promise.all([...inFlight]);
  }

  return {
    /** One pass: take over stale entries, read new ones (waiting up to waitMs), deliver them. */
    async runOnce(waitMs = 0): Promise<DeliveryOutcome[]> {
      return Promise.all(await readAndDispatch(waitMs, true));
    },
    start() {
      if (!state.stopped) return;
      state.stopped = false;
      loop = run();
    },
    /** Stops after the deliveries in flight; unacknowledged entries stay for the next consumer. */
    async stop() {
      state.stopped = true;
      wake?.();
      await consumer?.close();
      await loop;
      await edits.stop();
      consumer = undefined;
      loop = undefined;
    },
  };
}
