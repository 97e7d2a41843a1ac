import { afterAll, describe, expect, it } from "vitest";
import { auditToCsv } from "../../src/dashboard/actions/audit-csv.ts";
import { AUDIT_KEPT, type AuditEntry, createAuditLog } from "../../src/dashboard/audit.ts";
import { memoryKv, redisKv } from "../../src/dashboard/index.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The audit log forgets only what changed nothing: past AUDIT_KEPT exports, the oldest go; a
 * reversal, a held top-up's decision, a block, an unblock or a login written before them all
 * stays, in Redis and in memory, in the page's list and in the export.
 */

const t = testRedis("audit-kept");
afterAll(async () => {
  await t.cleanup();
});

const entry = (at: number, action: AuditEntry["action"], detail?: string): AuditEntry => ({
  at,
  userId: 3001,
  role: "admin",
  action,
  ip: "127.0.0.1",
  userAgent: "test",
  ...(detail ? { detail } : {}),
});

const KEPT_ACTIONS = [
  "reverse",
  "topup_credit",
  "topup_reject",
  "block",
  "unblock",
  "login",
  "logout",
  "denied",
  "revoked",
  "acknowledge",
] as const;

describe.each([
  ["redis", () => redisKv(t.redis)],
  ["memory", () => memoryKv()],
])("the audit log (%s)", (name, kvOf) => {
  it(`keeps every money and access action past ${AUDIT_KEPT} newer exports`, async () => {
    const keys = dashboardKeys(`${t.prefix}${name}:`);
    const log = createAuditLog(kvOf(), keys);
    let at = 1_700_000_000_000;
    for (const action of KEPT_ACTIONS) await log.record(entry(at++, action, `${action} first`));
    // In batches on one connection: the pushes reach Redis in the order they were made.
    for (let i = 0; i <= AUDIT_KEPT; i += 1000) {
      const batch = [];
      for (let j = i; j <= Math.min(i + 999, AUDIT_KEPT); j++) {
        batch.push(log.record(entry(at++, "export", `export ${j}`)));
      }
      await Promise.all(batch);
    }
    await log.record(entry(at++, "export", "the newest"));

    const all = await log.all();
    for (const action of KEPT_ACTIONS) {
      expect(all.find((e) => e.action === action)?.detail).toBe(`${action} first`);
    }
    // The exports are capped: the oldest two are gone, the newest kept.
    const views = all.filter((e) => e.action === "export");
    expect(views).toHaveLength(AUDIT_KEPT);
    expect(all.some((e) => e.detail === "export 0")).toBe(false);
    expect(all.some((e) => e.detail === "export 1")).toBe(false);
    expect(all.some((e) => e.detail === "export 2")).toBe(true);
    expect(all).toHaveLength(AUDIT_KEPT + KEPT_ACTIONS.length);
    // Newest first across both lists.
    expect(all[0]?.detail).toBe("the newest");
    expect(all.at(-1)?.detail).toBe("reverse first");
    // The page's list: the newest 3.
    expect((await log.list(3)).map((e) => e.detail)).toEqual([
      "the newest",
      `export ${AUDIT_KEPT}`,
      `export ${AUDIT_KEPT - 1}`,
    ]);
  }, 120_000);
});

describe.each([
  ["redis", () => redisKv(t.redis)],
  ["memory", () => memoryKv()],
])("the audit export's read (%s)", (name, kvOf) => {
  it("pages down to the range's start only, and gives the CSV the whole log gives", async () => {
    const base = kvOf();
    let read = 0;
    const counted = <T extends unknown[]>(f: (...a: T) => Promise<string[]>) => {
      return async (...a: T) => {
        const got = await f(...a);
        read += got.length;
        return got;
      };
    };
    const kv = { ...base, lhead: counted(base.lhead), lslice: counted(base.lslice) };
    const log = createAuditLog(kv, dashboardKeys(`${t.prefix}${name}:export:`));
    const t0 = 1_700_000_000_000;
    // 4,000 entries a second apart, a login and an export in turn (the two lists).
    for (let i = 0; i < 4_000; i += 500) {
      const batch = [];
      for (let j = i; j < i + 500; j++) {
        batch.push(log.record(entry(t0 + j * 1_000, j % 2 ? "export" : "login", `n ${j}`)));
      }
      await Promise.all(batch);
    }
    const whole = await log.all();
    for (const [from, to] of [
      [t0 + 3_500_000, t0 + 3_800_000],
      [t0 + 3_999_000, t0 + 9_000_000],
      [t0 - 1_000, t0 + 1_500],
      [t0 - 9_000, t0 - 1_000],
    ] as const) {
      const range = { from, to };
      read = 0;
      const paged = await log.between(range, 100);
      expect(auditToCsv(paged, range)).toBe(auditToCsv(whole, range));
      expect(paged).toEqual(whole.filter((e) => e.at >= from && e.at < to));
      if (from === t0 + 3_500_000) {
        expect(paged).toHaveLength(300);
        // 500 entries are as new as the range's start or newer; each list reads one page past them.
        expect(read).toBeLessThanOrEqual(500 + 2 * 100);
      }
    }
  }, 120_000);
});
