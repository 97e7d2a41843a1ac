import type { Logger } from "../logger.ts";
import type { Order } from "../orders/model.ts";
import type { Words } from "../telegram/words.ts";
import { recordOf } from "./model.ts";
import { cycleOf, DAY_MS, type DueReminder, planFor, windowFrom } from "./schedule.ts";
import type { ReminderStore } from "./store.ts";

/**
 * The worker that speaks first: on an interval it takes the customers whose time came (a claim
 * each, so two instances never look at one customer together), works out what is due
 * (schedule.ts), claims the day with the reminders' marks (the once-a-day and once-per-due-date
 * guarantee) and only then sends: a message lost to a crash is not sent twice, nor one whose send
 * may have arrived. A send that certainly sent nothing (`sentNothing`: refused before it went out,
 * no connection made) gives the marks back, if still its own, and is tried again in a few hours.
 * The message itself (words, buttons) and the paced send are the composition root's.
 */

/** The earliest a fresh record can be due for a reminder (a 7-day usual interval, a day early). */
const FIRST_LOOK_MS = 6 * DAY_MS;
/** When a customer whose day was taken elsewhere, or whose send sent nothing, is planned again. */
const RETRY_MS = 3 * 3_600_000;

/** Records a successful order for its reminders: two Redis commands, never a failure of the push. */
export async function rememberSuccess(store: ReminderStore, order: Order): Promise<void> {
  if (order.status !== "success") return;
  const { id, record } = recordOf(order);
  const cycle = cycleOf(record);
  // A number's usual interval is known only with its earlier times: look early, the worker plans.
  const first =
    cycle.kind === "usual" ? Math.min(cycle.remindAt, record.at + FIRST_LOOK_MS) : cycle.remindAt;
  await store.record(order.userId, id, record, windowFrom(first, record.region));
}

export interface ReminderMessage {
  text: string;
  /** The buttons (Pay again, Stop these reminders), as the Bot API takes them. */
  replyMarkup?: unknown;
  /** Its language, and its words in another or as a template without buttons carries them. */
  words?: Words;
}

export interface ReminderWorkerOptions {
  store: ReminderStore;
  /** The customer's chosen language, if any (else the order's). */
  localeOf: (userId: number) => Promise<string | null>;
  render: (locale: string, reminders: readonly DueReminder[]) => ReminderMessage;
  /** Sends through the paced path, at most once; throws when the message could not be sent. */
  send: (chatId: number, message: ReminderMessage, userId: number) => Promise<void>;
  /** Whether a send's error says nothing went out (tried again later); absent: never. */
  sentNothing?: (err: unknown) => boolean;
  /** False for a customer the merchant blocked: their reminders pass unsent. */
  mayRemind?: (userId: number) => Promise<boolean>;
  now: () => number;
  intervalMs: number;
  logger: Logger;
  /** How long a claimed customer is this worker's (default a minute). */
  leaseMs?: number;
  /** Customers looked at per tick (default 50). */
  batch?: number;
}

export function createReminderWorker(o: ReminderWorkerOptions) {
  const leaseMs = o.leaseMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  /** One customer: claimed, planned, the day claimed, sent, the next look set. */
  async function visit(userId: number, now: number): Promise<void> {
    const claimed = await o.store.claim(userId, now, leaseMs);
    if (claimed === null) return;
    let wakeAt: number | null = now + leaseMs;
    try {
      const state = await o.store.read(userId);
      const plan = planFor(state, now);
      wakeAt = plan.wakeAt;
      if (plan.forget.length > 0) await o.store.forget(userId, plan.forget);
      if (plan.send.length === 0) return;
      const marks = plan.send.map((r) => ({ id: r.id, dueAt: r.dueAt }));
      if (!(await o.store.markSent(userId, plan.day, marks))) {
        // Today's message went out from elsewhere meanwhile: these wait, planned again later.
        wakeAt = Math.min(plan.wakeAt ?? Number.POSITIVE_INFINITY, now + RETRY_MS);
        return;
      }
      if (o.mayRemind && !(await o.mayRemind(userId))) return;
      if (await sent(userId, plan.send)) return;
      // Nothing went out: the marks go back (if still ours), a look again in a few hours.
      const before = marks.map((m) => ({ ...m, before: state.sent.get(m.id) }));
      await o.store.unmarkSent(userId, { wrote: plan.day, before: state.day }, before);
      const region = plan.send[0]!.record.region;
      wakeAt = Math.min(
        plan.wakeAt ?? Number.POSITIVE_INFINITY,
        windowFrom(now + RETRY_MS, region),
      );
    } finally {
      await o.store.release(userId, claimed, wakeAt);
    }
  }

  /** Sends the message; false only when the send certainly sent nothing. */
  async function sent(userId: number, due: readonly DueReminder[]): Promise<boolean> {
    const newest = [...due].sort((a, b) => b.record.at - a.record.at)[0]!;
    const locale = (await o.localeOf(userId)) ?? newest.record.locale;
    try {
      await o.send(newest.record.chatId, o.render(locale, due), userId);
      return true;
    } catch (err) {
      const nothing = o.sentNothing?.(err) === true;
      o.logger.warn({ userId, err: String(err), again: nothing }, "reminder not sent");
      return !nothing;
    }
  }

  /** Looks at every customer due now; returns how many were looked at. */
  async function tick(): Promise<number> {
    const now = o.now();
    const users = await o.store.due(now, o.batch ?? 50);
    for (const userId of users) {
      await visit(userId, now).catch((err) =>
        o.logger.warn({ userId, err: String(err) }, "reminder visit failed"),
      );
    }
    return users.length;
  }

  /** Runs after the tick in progress; a failed tick is logged, never thrown. */
  const queue = () => {
    running = running
      .then(tick)
      .then(() => undefined)
      .catch((err) => o.logger.warn({ err: String(err) }, "reminder tick failed"));
    return running;
  };

  return {
    /** One tick now (after any in progress): tests and the composition root's first look. */
    tick: queue,
    start() {
      timer = setInterval(queue, o.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

export type ReminderWorker = ReturnType<typeof createReminderWorker>;
