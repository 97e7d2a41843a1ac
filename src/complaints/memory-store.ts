import type { MemoryLedger } from "../ledger/memory-store.ts";
import { transferInputSchema } from "../ledger/model.ts";
import { type Complaint, complaintSchema, isClosed } from "./model.ts";
import type { ComplaintStore } from "./store.ts";

/**
 * Complaints in memory (local mode, logic tests): each method reads and writes with no await in
 * between, and a refund goes through the memory ledger's synchronous decide/commit, so a
 * resolution and its refund change in one step, as the Redis script does.
 */
export function createMemoryComplaintStore(opts: { ledger: MemoryLedger }): ComplaintStore {
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
    async open(c) {
      const existing = openByOrder.get(c.orderReference);
      if (existing) return { created: false, complaint: clone(all.get(existing)!) };
      const v = complaintSchema.parse({ ...c, version: 0 });
      if (all.has(v.reference)) throw new Error(`complaint ${v.reference} exists`);
      all.set(v.reference, v);
      openByOrder.set(v.orderReference, v.reference);
      return { created: true, complaint: clone(v) };
    },
    async get(ref) {
      const c = all.get(ref);
      return c ? clone(c) : null;
    },
    async update(expectedVersion, next, refund) {
      const current = all.get(next.reference);
      if (!current || current.version !== expectedVersion) return { ok: false, reason: "version" };
      const written = complaintSchema.parse({ ...next, version: expectedVersion + 1 });
      let ledger: ReturnType<MemoryLedger["commitSync"]> | undefined;
      if (refund) {
        const prior = refunded.get(written.orderReference);
        if (prior !== undefined && prior !== written.reference) {
          return { ok: false, reason: "refunded", by: prior };
        }
        const d = opts.ledger.decideSync({
          op: "transfer",
          input: transferInputSchema.parse(refund),
        });
        if (d.type === "refused") return { ok: false, reason: "ledger", refusal: d.refusal };
        ledger = opts.ledger.commitSync(d);
        refunded.set(written.orderReference, written.reference);
      }
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
  };
}
