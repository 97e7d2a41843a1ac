import { describe, expect, it } from "vitest";
import {
  addWorkingDays,
  type Complaint,
  canChange,
  clockOf,
  createComplaints,
  createMemoryComplaintStore,
  dueAtOf,
  refundableOf,
  refundTransfer,
  spanText,
} from "../../src/complaints/index.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import { complaintRefundedOrdersKey, keyspace } from "../../src/redis/keyspace.ts";

/**
 * The complaints' rules (issue 30): the promised time in Nepal working days (Saturday off), the
 * clock admins read, which change may follow which, what a refund may be; and the service over
 * the memory store and ledger: one open complaint per order, a refund booked once with the
 * resolution, the customer told once per change.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Wednesday 25 Nov 2026, 10:00 in Nepal (04:15 UTC).
const WED = Date.UTC(2026, 10, 25, 4, 15);

const order = (over: Partial<Order>): Order =>
  ({
    reference: "1700000000001",
    userId: 42,
    status: "success",
    holdId: "order:1700000000001",
    price: { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 },
    ...over,
  }) as Order;

describe("complaint rules", () => {
  it("counts working days in Nepal, skipping Saturdays", () => {
    // Wed + 2 working days = Fri; Wed + 3 = Sun (Saturday skipped); Thu + 5 = Wed.
    expect(addWorkingDays(WED, 2)).toBe(WED + 2 * DAY);
    expect(addWorkingDays(WED, 3)).toBe(WED + 4 * DAY);
    expect(addWorkingDays(WED + DAY, 5)).toBe(WED + 7 * DAY);
    // Raised on a Saturday: counted from Sunday.
    expect(addWorkingDays(WED + 3 * DAY, 1)).toBe(WED + 5 * DAY);
    expect(dueAtOf("not_received", WED)).toBe(WED + 2 * DAY);
    expect(dueAtOf("wrong_number", WED)).toBe(WED + 6 * DAY);
  });

  it("tells age, due and overdue; a closed complaint is never overdue", () => {
    const c = { createdAt: WED, dueAt: WED + 2 * DAY, status: "taken" } as Complaint;
    expect(clockOf(c, WED + HOUR)).toMatchObject({ ageMs: HOUR, overdue: false });
    expect(clockOf(c, WED + 3 * DAY)).toMatchObject({ overdue: true, leftMs: -DAY });
    const closed = { ...c, status: "resolved", closing: { by: 1, at: WED + DAY, text: "x" } };
    expect(clockOf(closed as Complaint, WED + 3 * DAY)).toMatchObject({
      overdue: false,
      ageMs: DAY,
    });
    expect(spanText(26 * HOUR + 5 * 60_000)).toBe("1d 2h");
    expect(spanText(-(2 * HOUR + 5 * 60_000))).toBe("2h 5m");
  });

  it("takes from logged only; resolves or rejects while open; nothing after closing", () => {
    expect(canChange("logged", "take")).toBeNull();
    expect(canChange("taken", "take")).toBe("already_taken");
    expect(canChange("taken", "resolve")).toBeNull();
    expect(canChange("logged", "reject")).toBeNull();
    expect(canChange("resolved", "reject")).toBe("closed");
    expect(canChange("rejected", "take")).toBe("closed");
  });

  it("refunds at most what the customer paid, for a successful order paid from the balance", () => {
    expect(refundableOf(order({}))).toEqual({ ok: true, paisa: 10_500 });
    expect(refundableOf(order({ status: "failed" }))).toEqual({
      ok: false,
      code: "failed_returned",
    });
    expect(refundableOf(order({ status: "pending" }))).toEqual({ ok: false, code: "not_final" });
    expect(refundableOf(order({ holdId: undefined }))).toEqual({
      ok: false,
      code: "not_paid_by_customer",
    });
    const c = { reference: "C100001", orderReference: "1700000000001", userId: 42 } as Complaint;
    expect(refundTransfer(c, 10_500, "not delivered")).toMatchObject({
      id: "complaint:C100001:refund",
      debit: "merchant:sales",
      credit: "customer:42",
      kind: "reversal",
      reference: "C100001",
    });
  });
});

describe("the complaints service (memory)", () => {
  const setup = (orders: Order[]) => {
    const ledger = createMemoryLedger();
    const told: string[] = [];
    // The customers' notices and the admins' alert are queued with each change (the outbox).
    const outbox = {
      append: (ns: readonly Notification[]) => {
        for (const n of ns)
          if (n.kind === "complaint")
            told.push(
              `${n.complaint}:${n.status}${n.balancePaisa === undefined ? "" : `:${n.balancePaisa}`}`,
            );
      },
    };
    const service = createComplaints({
      store: createMemoryComplaintStore({ ledger, outbox }),
      orders: { get: async (ref) => orders.find((o) => o.reference === ref) ?? null },
      logger: createLogger({ level: "silent" }),
      now: () => WED,
      // One admin: the new complaint's alert is queued with it (its status "raised").
      admins: [1],
    });
    return { ledger, told, service };
  };
  const raise = { userId: 42, chatId: 42, locale: "en", orderReference: "1700000000001" };

  it("keeps one open complaint per order and books a refund once, with the resolution", async () => {
    const { ledger, told, service } = setup([order({})]);
    const first = await service.raise({ ...raise, reason: "not_received" });
    const second = await service.raise({ ...raise, reason: "duplicate" });
    expect(first).toMatchObject({ ok: true, created: true });
    expect(second).toMatchObject({ ok: true, created: false });
    if (!first.ok || !second.ok) return;
    expect(second.complaint.reference).toBe(first.complaint.reference);
    expect(await service.raise({ ...raise, userId: 7, reason: "duplicate" })).toEqual({
      ok: false,
      code: "unknown_order",
    });
    const ref = first.complaint.reference;
    expect(await service.resolve(ref, 1, { text: "x", refundPaisa: 10_501 })).toMatchObject({
      ok: false,
      code: "too_much",
    });
    const done = await service.resolve(ref, 1, { text: "refunded", refundPaisa: 10_500 });
    expect(done).toMatchObject({ ok: true });
    expect(await service.resolve(ref, 1, { text: "again", refundPaisa: 10_500 })).toMatchObject({
      ok: false,
      code: "closed",
    });
    expect((await ledger.balance(account.customer(42))).postedPaisa).toBe(10_500);
    expect(await ledger.entriesOf(ref)).toHaveLength(1);
    // Closed: a new complaint may be raised, but the order is not refunded twice.
    const third = await service.raise({ ...raise, reason: "duplicate" });
    expect(third).toMatchObject({ ok: true, created: true });
    if (!third.ok) return;
    expect(
      await service.resolve(third.complaint.reference, 1, { text: "x", refundPaisa: 100 }),
    ).toMatchObject({ ok: false, code: "already_refunded" });
    expect(told).toEqual([
      `${ref}:raised`,
      `${ref}:resolved:10500`,
      `${third.complaint.reference}:raised`,
    ]);
    expect((await ledger.check()).ok).toBe(true);
  });

  it("refuses a refund on a failed order (its money went back) but takes and rejects", async () => {
    const { told, service } = setup([order({ status: "failed" })]);
    const r = await service.raise({ ...raise, reason: "not_received" });
    if (!r.ok) throw new Error("not raised");
    const ref = r.complaint.reference;
    expect(await service.take(ref, 1)).toMatchObject({ ok: true });
    expect(await service.take(ref, 2)).toMatchObject({ ok: false, code: "already_taken" });
    expect(await service.resolve(ref, 1, { text: "x", refundPaisa: 100 })).toMatchObject({
      ok: false,
      code: "failed_returned",
    });
    expect(await service.reject(ref, 1, "the money is back")).toMatchObject({ ok: true });
    expect(await service.openOf("1700000000001")).toBeNull();
    expect(told).toEqual([`${ref}:raised`, `${ref}:taken`, `${ref}:rejected`]);
  });
});

describe("the complaints' Redis keys", () => {
  it("are in the {money} slot with the books, so a resolution and its refund are one script", () => {
    const k = keyspace("ra:");
    const keys = [
      k.complaintSeq,
      k.complaint("C100001"),
      k.complaintOpenByOrder,
      complaintRefundedOrdersKey("ra:"),
      k.complaintsOpen,
      k.complaintsOfOrder("1700000000001"),
      k.complaintsOfUser(42),
      k.ledgerBalances,
    ];
    for (const key of keys) expect(key.startsWith("ra:{money}:")).toBe(true);
  });
});
