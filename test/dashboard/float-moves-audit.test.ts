import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import { floatAuditMark, proposeLine, repairFloatAudit } from "../../src/dashboard/float-audit.ts";
import { approvalRule, createFloatMoves, type FloatMove } from "../../src/dashboard/float-moves.ts";
import { type DashboardKv, memoryKv } from "../../src/dashboard/index.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { createMemoryLedger } from "../../src/ledger/index.ts";
import {
  auditWritesFailed,
  failAuditWrites,
  restoreAuditWrites,
} from "../support/audit-write-fault.ts";
import { ADMIN, type client, form, useActions } from "../support/dashboard-actions.ts";

/**
 * A float movement's step and its audit line (review of session 28): the line was written after
 * the step, its failure only logged, so a crash between the two (or the audit's store failing)
 * left a proposal, a rejection or a booking with no line for good. Now each step's record carries
 * who made it and from where, its line is written under a mark (the line and its mark one step),
 * and any later read of the record (the books page, a later step) writes a line the step lost:
 * there exactly once. Real Redis and HTTP (the audit's writes failing at the Redis client for the
 * step's whole POST, as a crash after the step), and the memory store (its kv failing once).
 */

const h = useActions();
const ADMIN_B = 3102;
const ADMIN_C = 3103;

beforeEach(() => {
  h.admins.clear();
  for (const a of [ADMIN, ADMIN_B, ADMIN_C]) h.admins.add(a);
});
afterEach(() => restoreAuditWrites());

const auditKey = () => `${h.deps.prefix}dash:audit`;

async function linesOf(action: string, id: string) {
  return (await h.deps.kv.lhead(auditKey(), 1000))
    .map((l) => JSON.parse(l))
    .filter((e) => e.action === action && String(e.detail).includes(id));
}

async function propose(c: ReturnType<typeof client>, fields: Record<string, string>) {
  const res = await c.get("/dashboard/books");
  const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(await res.text())?.[1];
  if (!key) throw new Error("no propose form on the books page");
  const answer = await c.post("/dashboard/books/float", {}, form({ key, ...fields }));
  return { key, status: answer.status, text: await answer.text() };
}

/** The books page read `times` times (each read mends what a step left unwritten). */
async function readBooks(c: ReturnType<typeof client>, times = 2) {
  for (let i = 0; i < times; i++) expect((await c.get("/dashboard/books")).status).toBe(200);
}

describe("a float movement's step whose audit line failed (Redis, HTTP)", () => {
  it("a proposal: its line is written by the next read of the books page, once", async () => {
    const maker = await h.login(ADMIN);
    failAuditWrites(auditKey());
    const p = await propose(maker, { direction: "refill", amount: "700", reason: "deposit A" });
    expect(p.status).toBe(200);
    expect(p.text).toContain("Proposed:");
    expect(auditWritesFailed()).toBeGreaterThan(0);
    expect(await linesOf("float_propose", p.key)).toEqual([]);
    restoreAuditWrites();

    await readBooks(await h.login(ADMIN_C));
    const lines = await linesOf("float_propose", p.key);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      userId: ADMIN,
      role: "admin",
      after: { proposal: "open", amountPaisa: 70_000 },
    });
  });

  it("a booking: its line is written by a later step, once, beside that step's own", async () => {
    const maker = await h.login(ADMIN);
    const p = await propose(maker, { direction: "up", amount: "45", reason: "commission" });
    const checker = await h.login(ADMIN_B);
    failAuditWrites(auditKey());
    const approved = await checker.post("/dashboard/books/float/approve", {}, form({ id: p.key }));
    expect(await approved.text()).toContain("Approved and booked.");
    expect(await linesOf("float_approve", p.key)).toEqual([]);
    restoreAuditWrites();

    // Another admin's approval POST (a second tab, "Book it now"): books nothing, mends the line.
    const again = await (await h.login(ADMIN_C)).post(
      "/dashboard/books/float/approve",
      {},
      form({ id: p.key }),
    );
    expect(await again.text()).toContain("this approval booked nothing more");
    await readBooks(checker);
    const lines = await linesOf("float_approve", p.key);
    expect(lines).toHaveLength(2);
    const booking = lines.filter((e) => !String(e.detail).includes("booked nothing"));
    expect(booking).toHaveLength(1);
    expect(booking[0]).toMatchObject({
      userId: ADMIN_B,
      after: { proposal: `approved by ${ADMIN_B}`, transfer: `float-move:${p.key}` },
    });
  });

  it("a rejection: its line is written by the next read, once", async () => {
    const maker = await h.login(ADMIN);
    const p = await propose(maker, { direction: "down", amount: "12", reason: "double entry" });
    const checker = await h.login(ADMIN_B);
    failAuditWrites(auditKey());
    const rejected = await checker.post("/dashboard/books/float/reject", {}, form({ id: p.key }));
    expect(await rejected.text()).toContain("The proposal was rejected.");
    expect(await linesOf("float_reject", p.key)).toEqual([]);
    restoreAuditWrites();

    await readBooks(maker);
    const lines = await linesOf("float_reject", p.key);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ userId: ADMIN_B, after: { proposal: "rejected" } });
    // The proposal's own line, written by its POST, stays one.
    expect(await linesOf("float_propose", p.key)).toHaveLength(1);
  });
});

/** The memory kv whose next audit write (lpushOnce) fails once. */
function failingOnce(kv: DashboardKv): DashboardKv & { failNext(): void } {
  let fail = false;
  return {
    ...kv,
    async lpushOnce(...args) {
      if (fail) {
        fail = false;
        throw new Error("the audit store failed");
      }
      return kv.lpushOnce(...args);
    },
    failNext: () => {
      fail = true;
    },
  };
}

describe("a float movement's step whose audit line failed (memory store)", () => {
  it("each step's line is written once by the next read, whatever the reads", async () => {
    const kv = failingOnce(memoryKv());
    const keys = dashboardKeys("mem:");
    const audit = createAuditLog(kv, keys);
    const ledger = createMemoryLedger();
    const moves = createFloatMoves({ kv, keys, ledger });
    const via = { role: "admin", ip: "127.0.0.1", userAgent: "test" };
    const deps = { audit, entryOf: ledger.entryOf, same: (a: number, b: number) => a === b };
    const lines = async (action: string) => (await audit.all()).filter((e) => e.action === action);
    const mendAll = async () => repairFloatAudit(deps, (await moves.list()).records);

    const m: FloatMove = {
      id: "memory-proposal-0001",
      direction: "refill",
      amountPaisa: 30_000,
      reason: "deposit",
      by: 1,
      at: 1_000,
      via,
    };
    const p = await moves.propose(m);
    if (!p.record) throw new Error("not proposed");
    kv.failNext();
    await expect(
      audit.recordOnce(proposeLine(p.record.move, via), floatAuditMark(m.id, "propose")),
    ).rejects.toThrow("failed");
    expect(await lines("float_propose")).toEqual([]);
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_propose")).toHaveLength(1);

    // The approval booked, its line lost (the POST stopped after the booking): mended once.
    const approved = await moves.approve(m.id, 2, 2_000, approvalRule(undefined), {
      ...via,
      ip: "10.0.0.2",
    });
    expect(approved.ok).toBe(true);
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_approve")).toEqual([
      expect.objectContaining({ userId: 2, ip: "10.0.0.2" }),
    ]);

    // A rejection whose line is lost, mended once; the mend itself failing once changes nothing.
    const other = { ...m, id: "memory-proposal-0002", at: 3_000 };
    await moves.propose(other);
    await mendAll();
    expect((await moves.reject(other.id, 2, 4_000, via)).ok).toBe(true);
    kv.failNext();
    await expect(mendAll()).rejects.toThrow("failed");
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_reject")).toHaveLength(1);
    expect(await lines("float_propose")).toHaveLength(2);
  });
});
