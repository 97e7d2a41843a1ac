import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import {
  FLOAT_AUDIT_GRACE_MS,
  floatAuditMark,
  floatLine,
  proposeLine,
  repairFloatAudit,
} from "../../src/dashboard/float-audit.ts";
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
 * and any later read of the record (the books page, a later step) writes a line the step lost,
 * once the step is older than the grace (its POST may still be running): there exactly once. Real
 * Redis and HTTP (the audit's writes failing at the Redis client for the step's whole POST, as a
 * crash after the step), and the memory store (its kv failing once).
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

/** Past the grace: a read now writes what a step left unwritten. */
const pastGrace = () => {
  h.clock.now += FLOAT_AUDIT_GRACE_MS + 60_000;
};

/** The books page read `times` times (each read mends what a step left unwritten). */
async function readBooks(c: ReturnType<typeof client>, times = 2) {
  for (let i = 0; i < times; i++) expect((await c.get("/dashboard/books")).status).toBe(200);
}

describe("a float movement's step whose audit line failed (Redis, HTTP)", () => {
  it("a proposal: its line is written by the next read of the books page, once", async () => {
    const maker = await h.login(ADMIN);
    // Logged in before the fault is armed: a login writes to the audit list too.
    const viewer = await h.login(ADMIN_C);
    failAuditWrites(auditKey());
    const p = await propose(maker, { direction: "refill", amount: "700", reason: "deposit A" });
    expect(p.status).toBe(200);
    expect(p.text).toContain("Proposed:");
    const failedByPost = auditWritesFailed();
    expect(failedByPost).toBeGreaterThan(0);
    expect(await linesOf("float_propose", p.key)).toEqual([]);

    // Within the grace a read leaves the step to its POST; past it, a read whose repair fails
    // still shows the page (the failure logged).
    await readBooks(viewer);
    expect(auditWritesFailed()).toBe(failedByPost);
    pastGrace();
    await readBooks(viewer);
    expect(auditWritesFailed()).toBeGreaterThan(failedByPost);
    expect(await linesOf("float_propose", p.key)).toEqual([]);
    restoreAuditWrites();

    await readBooks(viewer);
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
    pastGrace();

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
    pastGrace();

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

/** The memory store's parts, on one clock the test moves. */
function memoryParts() {
  const kv = failingOnce(memoryKv());
  const keys = dashboardKeys("mem:");
  const audit = createAuditLog(kv, keys);
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const ledger = createMemoryLedger({ now });
  const moves = createFloatMoves({ kv, keys, ledger });
  const deps = { audit, entryOf: ledger.entryOf, same: (a: number, b: number) => a === b, now };
  const lines = async (action: string) => (await audit.all()).filter((e) => e.action === action);
  const mendAll = async () => repairFloatAudit(deps, (await moves.list()).records);
  const pass = () => {
    clock.now += FLOAT_AUDIT_GRACE_MS + 1;
  };
  return { kv, audit, clock, ledger, moves, lines, mendAll, pass };
}

const via = { role: "admin", ip: "127.0.0.1", userAgent: "test" };
const moveAt = (id: string, at: number): FloatMove => ({
  id,
  direction: "refill",
  amountPaisa: 30_000,
  reason: "deposit",
  by: 1,
  at,
  via,
});

describe("a float movement's step whose audit line failed (memory store)", () => {
  it("each step's line is written once by a read past the grace, whatever the reads", async () => {
    const { kv, audit, clock, moves, lines, mendAll, pass } = memoryParts();
    const m = moveAt("memory-proposal-0001", clock.now);
    const p = await moves.propose(m);
    if (!p.record) throw new Error("not proposed");
    kv.failNext();
    await expect(
      audit.recordOnce(proposeLine(p.record.move, via), floatAuditMark(m.id, "propose")),
    ).rejects.toThrow("failed");
    expect(await lines("float_propose")).toEqual([]);
    expect(await mendAll()).toBe(0); // its POST may still be running
    pass();
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_propose")).toHaveLength(1);

    // The approval booked, its line lost (the POST stopped after the booking): mended once.
    const approved = await moves.approve(m.id, 2, clock.now, approvalRule(undefined), {
      ...via,
      ip: "10.0.0.2",
    });
    expect(approved.ok).toBe(true);
    expect(await mendAll()).toBe(0);
    pass();
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_approve")).toEqual([
      expect.objectContaining({ userId: 2, ip: "10.0.0.2" }),
    ]);

    // A rejection whose line is lost, mended once; the mend itself failing once changes nothing.
    const other = moveAt("memory-proposal-0002", clock.now);
    await moves.propose(other);
    pass();
    await mendAll();
    expect((await moves.reject(other.id, 2, clock.now, via)).ok).toBe(true);
    pass();
    kv.failNext();
    await expect(mendAll()).rejects.toThrow("failed");
    expect(await mendAll()).toBe(1);
    expect(await mendAll()).toBe(0);
    expect(await lines("float_reject")).toHaveLength(1);
    expect(await lines("float_propose")).toHaveLength(2);
  });

  it("a read between a booking and its POST's line leaves the line to the POST (review s29)", async () => {
    const { audit, clock, ledger, moves, lines, mendAll, pass } = memoryParts();
    const m = moveAt("memory-proposal-0003", clock.now);
    await moves.propose(m);
    await audit.recordOnce(proposeLine(m, via), floatAuditMark(m.id, "propose"));
    pass();

    // The approve POST has booked; before its line, another admin's page view (or the second
    // POST of a double click) reads the records: the booking is there, its mark is not.
    const approved = await moves.approve(m.id, 2, clock.now, approvalRule(undefined), via);
    if (!approved.ok) throw new Error("not approved");
    clock.now += 50;
    expect(await mendAll()).toBe(0);

    // The POST's own line, with the balances it read, is the booking's one line.
    const { debit, credit } = approved.entry;
    const balances = async () => ({
      [debit]: (await ledger.balance(debit)).postedPaisa,
      [credit]: (await ledger.balance(credit)).postedPaisa,
    });
    const step = { via, who: 2, at: clock.now, action: "float_approve" as const };
    const own = floatLine(step, "booked", { proposal: "open" }, await balances());
    expect(await audit.recordOnce(own, floatAuditMark(m.id, "approve"))).toBe(true);
    pass();
    expect(await mendAll()).toBe(0);
    expect(await lines("float_approve")).toEqual([expect.objectContaining({ detail: "booked" })]);
  });

  it("a line a read writes is at the time it is written: a date range's export sees the lines before it", async () => {
    const { kv, audit, clock, moves, mendAll, pass } = memoryParts();
    const cutOff = moveAt("memory-proposal-0004", clock.now);
    await moves.propose(cutOff);
    kv.failNext();
    await expect(
      audit.recordOnce(proposeLine(cutOff, via), floatAuditMark(cutOff.id, "propose")),
    ).rejects.toThrow("failed");
    clock.now += 60_000;
    const next = moveAt("memory-proposal-0005", clock.now);
    await moves.propose(next);
    await audit.recordOnce(proposeLine(next, via), floatAuditMark(next.id, "propose"));
    pass();
    expect(await mendAll()).toBe(1);

    // From the second proposal's time on, a page of one line at a time: both lines.
    const range = { from: next.at, to: Number.MAX_SAFE_INTEGER };
    const ids = (await audit.between(range, 1)).map(
      (e) => /memory-proposal-\d+/.exec(String(e.detail))?.[0],
    );
    expect(ids).toEqual([cutOff.id, next.id]);
    const [late] = await audit.list(1);
    expect(late).toMatchObject({ at: clock.now, userId: 1 });
    expect(late?.detail).toContain(`the step at ${new Date(cutOff.at).toISOString()}`);
  });
});
