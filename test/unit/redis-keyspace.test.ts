import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";

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

  it("puts the keys of one user's reserve, the pacer's take and the notifier's transactions in one slot", () => {
    const k = keyspace("ra:");
    const slot = (...keys: string[]) => new Set(keys.map(hashTag));
    expect(slot(k.spendDay(7, "2025-03-10"), k.countHour(7, 485_000), k.reserved(7, "x"))).toEqual(
      new Set(["user:7"]),
    );
    expect(slot(k.byUser(7))).toEqual(new Set(["user:7"]));
    expect(hashTag(k.spendDay(8, "2025-03-10"))).not.toBe(hashTag(k.spendDay(7, "2025-03-10")));
    expect(slot(k.paceGlobal, k.paceChat(1), k.paceChat(2))).toEqual(new Set(["pace"]));
    expect(slot(k.outbox, k.attempts, k.dead)).toEqual(new Set(["notify"]));
    expect(hashTag(k.order("1700000000001"))).toBe("order:1700000000001");
    expect(slot(k.ledgerBalances, k.ledgerTransfers, k.ledgerPending, k.ledgerJournal)).toEqual(
      new Set(["ledger"]),
    );
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
      k.sending("s"),
      k.inactiveChats,
      k.paceGlobal,
      k.paceChat(1),
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
    ];
    for (const key of keys) expect(key.startsWith("dep1:")).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
