import type { MemoryLedger } from "../ledger/memory-store.ts";
import { transferInputSchema } from "../ledger/model.ts";
import { limitBeside } from "./caps.ts";
import { isOpenBefore, type TopUp, topUpSchema } from "./model.ts";
import type { TopUpStore } from "./store.ts";

/**
 * Top-ups in memory (local mode, logic tests). Each method reads and writes with no await in
 * between, and the credit goes through the memory ledger's synchronous decide/commit, so the
 * top-up and its transfer change in one step, as the Redis script does; a credit's caps are
 * checked in that step too, against the user's other top-ups as they are then.
 */
export function createMemoryTopUpStore(opts: { ledger: MemoryLedger }): TopUpStore {
  const topUps = new Map<string, TopUp>();
  const due = new Map<string, number>();
  const key = (gateway: string, paymentId: string) => `${gateway}:${paymentId}`;
  const clone = <T>(v: T): T => structuredClone(v);

  return {
    async create(t, dueAt) {
      const v = topUpSchema.parse({ ...t, version: 0 });
      const k = key(v.gateway, v.paymentId);
      if (topUps.has(k)) throw new Error(`top-up ${k} exists`);
      topUps.set(k, v);
      due.set(k, dueAt);
    },
    async get(gateway, paymentId) {
      const t = topUps.get(key(gateway, paymentId));
      return t ? clone(t) : null;
    },
    async listByUser(userId, since, until = Number.POSITIVE_INFINITY) {
      const mine = [...topUps.values()]
        .filter((t) => t.userId === userId && t.createdAt >= since && t.createdAt < until)
        .sort((a, b) => b.createdAt - a.createdAt)
        .map(clone);
      // Records here are objects the schema parsed on write: none is ever unreadable.
      return { topUps: mine, unreadable: [] };
    },
    async update(expectedVersion, next, transfer, dueAt, cap) {
      const k = key(next.gateway, next.paymentId);
      const current = topUps.get(k);
      if (!current || current.version !== expectedVersion) return { ok: false, reason: "version" };
      if (cap) {
        const mine = [...topUps.values()].filter((t) => t.userId === next.userId);
        const limitPaisa = limitBeside(mine, next, cap);
        if (cap.creditPaisa > limitPaisa) return { ok: false, reason: "cap", limitPaisa };
      }
      const written = topUpSchema.parse({ ...next, version: expectedVersion + 1 });
      let ledger: ReturnType<MemoryLedger["commitSync"]> | undefined;
      if (transfer) {
        const d = opts.ledger.decideSync({
          op: "transfer",
          input: transferInputSchema.parse(transfer),
        });
        if (d.type === "refused") return { ok: false, reason: "ledger", refusal: d.refusal };
        ledger = opts.ledger.commitSync(d);
      }
      topUps.set(k, written);
      if (dueAt === null) due.delete(k);
      else due.set(k, dueAt);
      return ledger ? { ok: true, ledger } : { ok: true };
    },
    async held(limit) {
      return [...topUps.values()]
        .filter((t) => t.status === "held")
        .sort((a, b) => (a.held?.at ?? a.updatedAt) - (b.held?.at ?? b.updatedAt))
        .slice(0, limit)
        .map(clone);
    },
    async partialRefunds(limit) {
      return [...topUps.values()]
        .filter((t) => t.status === "partial_refund")
        .sort((a, b) => (a.partialRefund?.at ?? 0) - (b.partialRefund?.at ?? 0))
        .slice(0, limit)
        .map(clone);
    },
    async openSince(createdBefore, limit) {
      const open = [...topUps.values()]
        .filter((t) => isOpenBefore(t, createdBefore))
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(0, limit)
        .map(clone);
      // Records here are objects the schema parsed on write: none is ever unreadable.
      return { topUps: open, unreadable: [] };
    },
    async setAside(gateway, paymentId) {
      due.delete(key(gateway, paymentId));
      return false;
    },
    async unreadable() {
      return [];
    },
    // None is ever set aside here, so no alert of one is ever owed.
    async unreadableAlertsDue() {
      return [];
    },
    async leaseUnreadableAlert() {
      return null;
    },
    async recordUnreadableAlert() {
      return false;
    },
    async oweUnreadable() {
      return false;
    },
    async checkListed() {},
    async due(now, limit) {
      return [...due.entries()]
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([k]) => {
          const i = k.indexOf(":");
          return [k.slice(0, i), k.slice(i + 1)] as [string, string];
        });
    },
  };
}
