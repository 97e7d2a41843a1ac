import { account } from "../ledger/index.ts";
import {
  adminAlertDueAt,
  dueAt,
  MAX_ROUNDS,
  PUSH_GIVE_UP_TRIES,
  pushDueAt,
  refundWatchEnd,
  retryDelay,
  type TopUpContext,
} from "./context.ts";
import type { TopUp } from "./model.ts";
import { owedAlert, type StatusAlert } from "./state.ts";
import type { AlertReason, TopUpsOptions } from "./types.ts";

/**
 * Telling people: the customer's push of a top-up's status (at least once, once when nothing
 * crashes), the admins' alerts (held money, a refund, a refused transfer, no end in sight).
 */

/** Per send: longer than a send's bounded Bot API calls (src/telegram/policy.ts: 25 s by default). */
const PUSH_LEASE_MS = 60_000;

/** Sends an alert to the given admin chats; returns those that have it. */
async function alertChats(
  ctx: TopUpContext,
  t: TopUp,
  reason: AlertReason,
  chatIds: readonly number[],
): Promise<number[]> {
  const { opts, logger } = ctx;
  const sent: number[] = [];
  const watch = reason === "unknown_status" ? { refundWatchUntil: refundWatchEnd(opts, t) } : {};
  for (const chatId of chatIds) {
    try {
      await opts.notify({ chatId, audience: "admin", reason, topUp: t, ...watch });
      sent.push(chatId);
    } catch (err) {
      logger.warn({ err: String(err), topUp: t.id, reason }, "top-up admin alert failed");
    }
  }
  return sent;
}

/**
 * The admins' alerts of records that do not parse (owed when the reconciler sets one aside or a
 * list meets one: store.ts `setAside`, `oweUnreadable`): sent to the chats that lack it, under a
 * lease (a token the store's clock ends), each chat recorded as it gets it, the rest recorded at
 * the end; a failed send is due again with the backoff of the other alerts, until every admin has
 * it (review s23-e, 2). A record refused means the lease ran out meanwhile: the instance holding it
 * now owns the send, and only a send in flight then can reach a chat twice (review s24-e, 5).
 */
export async function tellUnreadable(ctx: TopUpContext, limit: number): Promise<void> {
  const { store, opts, logger, now } = ctx;
  const chats = opts.adminChatIds;
  for (const member of await store.unreadableAlertsDue(now(), limit)) {
    const owed = await store.leaseUnreadableAlert(
      member,
      now(),
      PUSH_LEASE_MS * Math.max(1, chats.length),
    );
    if (!owed) continue;
    const i = member.indexOf(":");
    const [gateway, paymentId] = [member.slice(0, i), member.slice(i + 1)];
    const sentTo = [...owed.sentTo];
    const send = opts.notifyUnreadable;
    let ours = true;
    for (const chatId of send ? chats.filter((c) => !sentTo.includes(c)) : []) {
      try {
        await send?.({ chatId, gateway, paymentId });
        sentTo.push(chatId);
      } catch (err) {
        logger.warn({ err: String(err), paymentId }, "unreadable top-up alert failed");
        continue;
      }
      ours = await store.recordUnreadableAlert(owed, sentTo, owed.failures, "progress");
      if (!ours) break;
    }
    // No sender configured: only logged (the reconciler's error line), nothing to owe.
    const done = !send || chats.every((c) => sentTo.includes(c));
    const failures = done ? owed.failures : owed.failures + 1;
    const retryAt = done ? null : now() + retryDelay(opts, failures);
    if (ours) ours = await store.recordUnreadableAlert(owed, sentTo, failures, retryAt);
    if (!ours)
      logger.warn({ member }, "unreadable top-up alert's lease ran out: left to its holder");
  }
}

/** True when every admin's alert was handed over. */
export async function alertAdmins(
  ctx: TopUpContext,
  t: TopUp,
  reason: AlertReason,
): Promise<boolean> {
  const chats = ctx.opts.adminChatIds;
  return (await alertChats(ctx, t, reason, chats)).length === chats.length;
}

/** How a customer's push went: handed over, failed (tried again), or failed for good. */
type PushOutcome = "sent" | "failed" | "undeliverable";

async function pushCustomer(ctx: TopUpContext, t: TopUp): Promise<PushOutcome> {
  const { ledger, opts, logger } = ctx;
  try {
    const balancePaisa = (await ledger.balance(account.customer(t.userId))).availablePaisa;
    await opts.notify({ chatId: t.chatId, audience: "customer", topUp: t, balancePaisa });
    return "sent";
  } catch (err) {
    const undeliverable = opts.undeliverable?.(err) ?? false;
    logger.warn({ err: String(err), topUp: t.id, undeliverable }, "top-up push failed");
    return undeliverable ? "undeliverable" : "failed";
  }
}

/** What a round of telling did, to record on the top-up. */
interface Told {
  /** The status pushed, and how it went; absent: no push was due. */
  push?: { status: TopUp["status"]; outcome: PushOutcome; takenPaisa?: number };
  /** The admins' alert of the status: the chats it went to this round; absent: none was due. */
  alert?: { field: StatusAlert["field"]; to: number[] };
}

/** `cur` with what `told` did recorded (and `lease` dropped if it is still ours), at `at`. */
function recorded(opts: TopUpsOptions, cur: TopUp, told: Told, lease: number, at: number): TopUp {
  const { pushLeaseUntil, ...rest } = cur;
  const next: TopUp = pushLeaseUntil === lease ? { ...rest } : { ...cur };
  if (told.alert) {
    const before = cur[told.alert.field];
    const sentTo = [...new Set([...(before?.sentTo ?? []), ...told.alert.to])];
    const done = opts.adminChatIds.every((c) => sentTo.includes(c));
    const failures = done ? (before?.failures ?? 0) : (before?.failures ?? 0) + 1;
    next[told.alert.field] = { sentTo, done, failures, at };
  }
  // A status that moved meanwhile gets a push of its own: this one's outcome is history.
  const push = told.push;
  if (!push || cur.status !== push.status) return next;
  if (push.outcome === "sent") {
    const { pushFailed: _, ...ok } = next;
    // What of a refund's later takings the customer was told (more may be taken meanwhile).
    const r = ok.refundRecovery;
    const told =
      r && push.takenPaisa !== undefined
        ? { toldPaisa: Math.max(r.toldPaisa, push.takenPaisa) }
        : {};
    const refundRecovery = r ? { refundRecovery: { ...r, ...told } } : {};
    return { ...ok, ...refundRecovery, notified: push.status, updatedAt: at };
  }
  const tries = (cur.pushFailed?.status === push.status ? cur.pushFailed.tries : 0) + 1;
  const gaveUp = push.outcome === "undeliverable" || tries >= PUSH_GIVE_UP_TRIES;
  return {
    ...next,
    pushFailed: { status: push.status, tries, at, ...(gaveUp ? { gaveUp: true } : {}) },
  };
}

/**
 * Tells the customer of the top-up's status and, when it calls for it (held, a partial refund, a
 * refund's reversal), the admins that lack it, each apart from the other (a customer who blocked
 * the bot must not keep the admins from hearing of money held or to recover; an admin whose chat
 * fails must not make the others hear it again), then records what went out. A short lease on the top-up (compare-and-set) makes
 * one caller the sender when a redirect, lookups and the reconciler arrive at once; a crash
 * leaves it to run out, after which the reconciler sends: at least once, and once when nothing
 * crashes. A failed send is tried again with a backoff (context.ts); a push that cannot be
 * delivered is given up and recorded, the admins' alert never.
 */
export async function pushStatus(ctx: TopUpContext, t: TopUp): Promise<void> {
  const { store, opts, logger, now } = ctx;
  const at = now();
  const pushAt = pushDueAt(opts, t);
  const alertAt = adminAlertDueAt(opts, t);
  const kind = owedAlert(t);
  const push = pushAt !== null && pushAt <= at;
  const alert = kind !== null && alertAt !== null && alertAt <= at;
  if ((!push && !alert) || (t.pushLeaseUntil ?? 0) > at) return;
  const owed = alert ? opts.adminChatIds.filter((c) => !t[kind.field]?.sentTo.includes(c)) : [];
  const leaseUntil = at + PUSH_LEASE_MS * ((push ? 1 : 0) + owed.length);
  const leased = { ...t, pushLeaseUntil: leaseUntil };
  if (!(await store.update(t.version, leased, undefined, dueAt(opts, leased, at))).ok) return;
  const told: Told = {};
  if (alert) told.alert = { field: kind.field, to: await alertChats(ctx, t, kind.reason, owed) };
  if (push) {
    const taken = t.refundRecovery ? { takenPaisa: t.refundRecovery.takenPaisa } : {};
    told.push = { status: t.status, outcome: await pushCustomer(ctx, t), ...taken };
  }
  let cur: TopUp | null = { ...leased, version: t.version + 1 };
  for (let round = 0; round < MAX_ROUNDS && cur; round++) {
    const next = recorded(opts, cur, told, leaseUntil, now());
    if (!(await store.update(cur.version, next, undefined, dueAt(opts, next, now()))).ok) {
      cur = await store.get(t.gateway, t.paymentId);
      continue;
    }
    const f = next.pushFailed;
    if (told.push && told.push.outcome !== "sent" && f?.status === told.push.status && f.gaveUp)
      logger.warn(
        { topUp: t.id, status: f.status, tries: f.tries, outcome: told.push.outcome },
        "top-up push given up: the customer is not told of this status",
      );
    return;
  }
}
