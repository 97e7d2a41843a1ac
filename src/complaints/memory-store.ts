import type { MemoryLedger } from "../ledger/memory-store.ts";
import { transferInputSchema } from "../ledger/model.ts";
import type { MemoryOutbox } from "../orders/memory-store.ts";
import { notificationSchema } from "../orders/model.ts";
import { type Complaint, complaintSchema, isClosed } from "./model.ts";
import type { ComplaintStore } from "./store.ts";

/**
 * Complaints in memory (local mode, logic tests): each method reads and writes with no await in
 * between, and a refund goes through the memory ledger's synchronous decide/commit, so a
 * resolution, its refund and its notice (appended to the outbox) change in one step, as the Redis
 * script does.
 */
export function createMemoryComplaintStore(opts: {
  ledger: MemoryLedger;
  /** The notifier's queue (the local mode's outbox): the customers' notices go there. */
  outbox: MemoryOutbox;
}): ComplaintStore {
  const all = new Map<string, Complaint>();
  const openByOrder = new Map<string, string>();
  /** Order -> the complaint whose refund was booked on it (as the Redis store's hash). */
  const refunded = new Map<string, string>();
  let seq = 100_000;
  const clone = <T>(v: T): T => structuredClone(v);
  const newestFirst = (a: Complaint, b: Complaint) =>
    b.createdAt - a.createdAt || b.reference.localeCompare(a.reference);

  return {
    async nextReference() {
      seq += 1;
      return `C${seq}`;
    },
    async open(c, alerts = []) {
      const existing = openByOrder.get(c.orderReference);
      if (existing) return { created: false, complaint: clone(all.get(existing)!) };
      const v = complaintSchema.parse({ ...c, version: 0 });
      if (all.has(v.reference)) throw new Error(`complaint ${v.reference} exists`);
      all.set(v.reference, v);
      openByOrder.set(v.orderReference, v.reference);
      if (alerts.length > 0) opts.outbox.append(alerts.map((a) => notificationSchema.parse(a)));
      return { created: true, complaint: clone(v) };
    },
    async get(ref) {
      const c = all.get(ref);
      return c ? clone(c) : null;
    },
    async update(expectedVersion, next, refund, notice) {
      const current = all.get(next.reference);
      if (!current || current.version !== expectedVersion) return { ok: false, reason: "version" };
      const written = complaintSchema.parse({ ...next, version: expectedVersion + 1 });
      let ledger: ReturnType<MemoryLedger["commitSync"]> | undefined;
      let told = notice;
      if (refund) {
        const prior = refunded.get(written.orderReference);
        if (prior !== undefined && prior !== written.reference) {
          return { ok: false, reason: "refunded", by: prior };
        }
        const input = transferInputSchema.parse(refund);
        const d = opts.ledger.decideSync({ op: "transfer", input });
        if (d.type === "refused") return { ok: false, reason: "ledger", refusal: d.refusal };
        ledger = opts.ledger.commitSync(d);
        refunded.set(written.orderReference, written.reference);
        if (told) told = { ...told, balancePaisa: opts.ledger.availableSync(input.credit) };
      }
      if (told) opts.outbox.append([notificationSchema.parse(told)]);
      all.set(written.reference, written);
      if (
        isClosed(written.status) &&
        openByOrder.get(written.orderReference) === written.reference
      ) {
        openByOrder.delete(written.orderReference);
      }
      return ledger ? { ok: true, ledger } : { ok: true };
    },
    async listOpen(limit) {
      return [...all.values()]
        .filter((c) => !isClosed(c.status))
        .sort((a, b) => a.dueAt - b.dueAt || a.createdAt - b.createdAt)
        .slice(0, limit)
        .map(clone);
    },
    async countOpen() {
      return [...all.values()].filter((c) => !isClosed(c.status)).length;
    },
    async ofOrder(orderRef) {
      return [...all.values()]
        .filter((c) => c.orderReference === orderRef)
        .sort(newestFirst)
        .map(clone);
    },
    async ofUser(userId, limit) {
      return [...all.values()]
        .filter((c) => c.userId === userId)
        .sort(newestFirst)
        .slice(0, limit)
        .map(clone);
    },
    async refundOf(orderRef) {
      return refunded.get(orderRef) ?? null;
    },
    async refundsOf(orderRefs) {
      return orderRefs.map((r) => refunded.get(r) ?? null);
    },
  };
}
