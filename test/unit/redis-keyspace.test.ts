import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  dashboardAuditMarks,
  keyspace,
  waOwedKeys,
  waResendKeys,
} from "../../src/redis/keyspace.ts";

/** The keyspace's promises that no adapter test sees: one place for Lua, one slot per script. */

const SRC = join(import.meta.dirname, "../../src");
const HARNESS = ["sandbox", "playground"];

function productFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return dir === SRC && HARNESS.includes(e.name) ? [] : productFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Redis Cluster's slot key: the first non-empty {...} of the name, else the whole name. */
function hashTag(key: string): string {
  const open = key.indexOf("{");
  const close = open >= 0 ? key.indexOf("}", open + 1) : -1;
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe("redis keyspace", () => {
  it("sends Lua only through src/redis/scripts.ts: no raw eval or defineCommand in product code", () => {
    const offenders = productFiles()
      .filter((f) => !f.endsWith(join("redis", "scripts.ts")))
      .filter((f) => /\.(eval|evalsha|defineCommand)\s*\(/.test(readFileSync(f, "utf8")))
      .map((f) => f.slice(SRC.length + 1));
    expect(offenders).toEqual([]);
  });

  it("builds no Redis key from the prefix outside the keyspace module", () => {
    const offenders = productFiles()
      .filter((f) => !f.endsWith(join("redis", "keyspace.ts")))
      .filter((f) => /\$\{(opts\.)?(redisP|p)refix\}/.test(readFileSync(f, "utf8")))
      .map((f) => f.slice(SRC.length + 1));
    expect(offenders).toEqual([]);
  });

  it("puts the keys of one user's reserve, the pacer's take and the idle deadlines in one slot each", () => {
    const k = keyspace("ra:");
    const slot = (...keys: string[]) => new Set(keys.map(hashTag));
    expect(slot(k.spendDay(7, "2025-03-10"), k.countHour(7, 485_000), k.reserved(7, "x"))).toEqual(
      new Set(["user:7"]),
    );
    expect(hashTag(k.spendDay(8, "2025-03-10"))).not.toBe(hashTag(k.spendDay(7, "2025-03-10")));
    expect(slot(k.paceBuckets)).toEqual(new Set(["pace"]));
    expect(slot(k.idleDue, k.idleInfo, k.idleNoticed)).toEqual(new Set(["idle"]));
    expect(slot(k.accountPhones, k.accountUsers)).toEqual(new Set(["accounts"]));
    // The late resends' scripts (whatsapp/late-resend-store.ts) touch all three.
    const resend = waResendKeys("ra:");
    expect(
      slot(resend.due, resend.entries, resend.done("wamid.1"), resend.carry("wamid.2")),
    ).toEqual(new Set(["waresend"]));
    // The owed answers' scripts (whatsapp/owed-replies.ts) touch the due set and a chat's List.
    const owed = waOwedKeys("ra:");
    expect(slot(owed.due, owed.chat(9_779_841_000_001))).toEqual(new Set(["waowed"]));
  });

  it("puts every key of the money path's scripts and transactions in the one {money} slot", () => {
    const k = keyspace("ra:");
    const slot = (...keys: string[]) => new Set(keys.map(hashTag));
    const ledger = [k.ledgerBalances, k.ledgerTransfers, k.ledgerPending, k.ledgerJournal];
    // Order create and update, with the hold and its post/void and the outbox.
    const orderScripts = [
      k.idempotency("i"),
      k.order("1700000000001"),
      k.byUser(7),
      k.open,
      k.alias("a"),
      k.byTransaction,
      k.outbox,
      k.orderSearch,
    ];
    // The notifier's transactions, the books' crossings, the top-ups with their credit.
    const others = [
      k.attempts,
      k.dead,
      k.crossing("low_float"),
      k.topUp("khalti", "p"),
      k.topUpsByUser(7),
      k.topUpsDue,
      k.topUpsHeld,
    ];
    expect(slot(...ledger, ...orderScripts, ...others)).toEqual(new Set(["money"]));
  });

  it("leaves the chats' own state untagged, so a Cluster spreads it by key", () => {
    const k = keyspace("ra:");
    for (const key of [`${k.sessionPrefix}1`, `${k.conversationPrefix}1`, k.update(1), k.sent("s")])
      expect(key).not.toContain("{");
  });

  it("keeps every key under the prefix", () => {
    const k = keyspace("dep1:");
    const keys = [
      k.referenceSeq,
      k.order("r"),
      k.idempotency("i"),
      k.alias("a"),
      k.byTransaction,
      k.byUser(1),
      k.open,
      k.unmatched,
      k.lease("l"),
      k.outbox,
      k.attempts,
      k.dead,
      k.sent("s"),
      k.inactiveChat(1),
      k.paceBuckets,
      k.spendDay(1, "d"),
      k.countHour(1, 1),
      k.reserved(1, "o"),
      k.update(1),
      k.sessionPrefix,
      k.conversationPrefix,
      k.floodPrefix,
      k.ledgerBalances,
      k.ledgerTransfers,
      k.ledgerPending,
      k.ledgerJournal,
      k.orderSearch,
    ];
    for (const key of keys) expect(key.startsWith("dep1:")).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keeps the audit lines' marks in the audit list's slot, under the prefix (one script writes both)", () => {
    // A plain prefix (the list untagged), and a prefix whose own tag puts every key in one slot.
    for (const prefix of ["ra:", "dep1:", "{shop}:ra:"]) {
      const list = keyspace(prefix).dashboardAudit;
      const marks = dashboardAuditMarks(prefix);
      expect(marks.startsWith(prefix)).toBe(true);
      expect(marks).not.toBe(list);
      expect(hashTag(marks)).toBe(hashTag(list));
    }
  });
});
