import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import {
  type IdleDeadlines,
  idleText,
  memoryIdleDeadlines,
  redisIdleDeadlines,
} from "../../src/bot/idle.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * ONE contract for the idle deadlines, run against memory and Redis: a deadline is handed out once
 * (to the sweeper that claims it, or to the flow that disarms it), never to both.
 */
interface Harness {
  make(): IdleDeadlines;
  close(): Promise<void>;
}

const adapters: Array<[string, () => Harness]> = [
  [
    "memory",
    () => {
      const one = memoryIdleDeadlines();
      return { make: () => one, close: async () => {} };
    },
  ],
  [
    "redis",
    () => {
      const t = testRedis("idle");
      let first = true;
      return {
        make: () => {
          const conn = first ? t.redis : t.connect();
          first = false;
          return redisIdleDeadlines(conn, t.prefix);
        },
        close: () => t.cleanup(),
      };
    },
  ],
];

describe.each(adapters)("idle deadlines contract: %s", (_name, makeHarness) => {
  let h: Harness;
  beforeEach(() => {
    h = makeHarness();
  });
  afterEach(() => h.close());

  it("claims only what is due, each once, with what the notice needs", async () => {
    const a = h.make();
    const b = h.make();
    await a.arm(1, 1_000, { locale: "ne", flow: "mobile" });
    await a.arm(2, 5_000, { locale: "en" });
    expect(await a.claimDue(999, 10)).toEqual([]);
    const [x, y] = await Promise.all([a.claimDue(1_000, 10), b.claimDue(1_000, 10)]);
    expect([...x, ...y]).toEqual([{ chatId: 1, info: { locale: "ne", flow: "mobile" } }]);
    // Claimed: the flow learns the notice went out.
    expect(await a.disarm(1, 1_000)).toBe(false);
    // Not yet due: the flow's disarm wins and the sweeper gets nothing.
    expect(await b.disarm(2, 5_000)).toBe(true);
    expect(await a.claimDue(10_000, 10)).toEqual([]);
  });

  it("reports a notice only for the arm it was sent for: a deadline already removed is no notice", async () => {
    const a = h.make();
    await a.arm(4, 1_000, { locale: "en" });
    // A process disarmed it and died before its step was saved: the replay disarms again.
    expect(await a.disarm(4, 1_000)).toBe(true);
    expect(await a.disarm(4, 1_000)).toBe(true);
    // A notice for an older question does not end the flow waiting on a newer one.
    await a.arm(5, 1_000, { locale: "en" });
    expect(await a.claimDue(1_000, 10)).toHaveLength(1);
    await a.arm(5, 9_000, { locale: "en" });
    expect(await a.disarm(5, 9_000)).toBe(true);
  });

  it("re-arming replaces what the notice says, and a disarmed deadline leaves nothing to claim", async () => {
    const a = h.make();
    await a.arm(6, 1_000, { locale: "en", flow: "mobile" });
    expect(await a.disarm(6, 1_000)).toBe(true);
    await a.arm(6, 2_000, { locale: "ne", flow: "dth" });
    expect(await a.claimDue(5_000, 10)).toEqual([
      { chatId: 6, info: { locale: "ne", flow: "dth" } },
    ]);
    expect(await a.disarm(6, 2_000)).toBe(false);
    await a.arm(7, 1_000, { locale: "hi" });
    expect(await a.disarm(7, 1_000)).toBe(true);
    expect(await a.claimDue(5_000, 10)).toEqual([]);
  });

  it("re-arming moves the deadline", async () => {
    const a = h.make();
    await a.arm(3, 1_000, { locale: "hi" });
    await a.arm(3, 9_000, { locale: "hi" });
    expect(await a.claimDue(5_000, 10)).toEqual([]);
    expect(await a.claimDue(9_000, 10)).toHaveLength(1);
  });

  it("an arm without info keeps what the chat's last arm said, from another process too", async () => {
    const a = h.make();
    const b = h.make();
    await a.arm(11, 1_000, { locale: "ne", flow: "dth" });
    expect(await a.disarm(11, 1_000)).toBe(true);
    // The flow's next questions: the deadline only.
    await b.arm(11, 2_000);
    expect(await a.disarm(11, 2_000)).toBe(true);
    await b.arm(11, 3_000);
    expect(await a.claimDue(3_000, 10)).toEqual([
      { chatId: 11, info: { locale: "ne", flow: "dth" } },
    ]);
    expect(await b.disarm(11, 3_000)).toBe(false);
  });

  it("names an arm by its time: the notice of an earlier arm of the chat is not this one's", async () => {
    const a = h.make();
    await a.arm(12, 1_000, { locale: "en" });
    expect(await a.claimDue(1_000, 10)).toHaveLength(1);
    // A flow that never saw that notice (its own arm was later, and removed) goes on.
    expect(await a.disarm(12, 1_500)).toBe(true);
    // The flow that was noticed still learns it, once.
    expect(await a.disarm(12, 1_000)).toBe(false);
    expect(await a.disarm(12, 1_000)).toBe(true);
  });

  it("a notice's arm is not told apart without its time: no arm named, no notice reported", async () => {
    const a = h.make();
    await a.arm(13, 1_000, { locale: "en" });
    expect(await a.claimDue(1_000, 10)).toHaveLength(1);
    expect(await a.disarm(13)).toBe(true);
  });

  // Left s33, 2: a WhatsApp question a rate limit held reaches the customer late; its deadline
  // moves to the idle time from then, and a notice of it still ends the flow that armed it.
  it("a postponed deadline is due at its new time and still names the arm that set it", async () => {
    const a = h.make();
    const b = h.make();
    expect(await a.postpone(15, 5_000)).toBe(false);
    expect(await a.claimDue(10_000, 10)).toEqual([]);
    await a.arm(15, 90_000, { locale: "en" });
    expect(await b.postpone(15, 5_000)).toBe(true);
    expect(await b.postpone(15, 6_000)).toBe(true);
    expect(await a.claimDue(5_999, 10)).toEqual([]);
    expect(await b.claimDue(6_000, 10)).toEqual([{ chatId: 15, info: { locale: "en" } }]);
    // The flow waiting on that arm learns its notice went out, once.
    expect(await a.disarm(15, 6_000)).toBe(true);
    expect(await a.disarm(15, 90_000)).toBe(false);
    // A later arm of the chat is named by its own time, whatever the old move said.
    await a.arm(15, 6_000, { locale: "en" });
    expect(await a.claimDue(6_000, 10)).toHaveLength(1);
    expect(await a.disarm(15, 6_000)).toBe(false);
    // A postponed deadline the flow disarms first leaves nothing to claim.
    await a.arm(16, 90_000, { locale: "en" });
    expect(await a.postpone(16, 2_000)).toBe(true);
    expect(await b.disarm(16, 90_000)).toBe(true);
    expect(await a.claimDue(10_000, 10)).toEqual([]);
  });

  it("says the fallback when no info was ever written for the chat", async () => {
    const a = h.make();
    await a.arm(14, 1_000);
    expect(await a.claimDue(1_000, 10)).toEqual([{ chatId: 14, info: { locale: "en" } }]);
  });
});

describe("idle deadlines in Redis", () => {
  it("still notices a deadline armed before the per-chat info keys, with its info", async () => {
    const t = testRedis("idle-legacy");
    try {
      const k = keyspace(t.prefix);
      const info = { locale: "ne", flow: "mobile", token: "old" };
      await t.redis.zadd(k.idleDue, 1_000, "9");
      await t.redis.hset(k.idleInfo, "9", JSON.stringify(info));
      const d = redisIdleDeadlines(t.redis, t.prefix);
      expect(await d.claimDue(1_000, 10)).toEqual([
        { chatId: 9, info: { locale: "ne", flow: "mobile" } },
      ]);
      expect(await t.redis.hlen(k.idleInfo)).toBe(0);
      expect(await d.disarm(9, 1_000)).toBe(false);
    } finally {
      await t.cleanup();
    }
  });

  it("keeps an arm's info past its deadline, then lets it go by itself", async () => {
    const t = testRedis("idle-ttl");
    try {
      const k = keyspace(t.prefix);
      const d = redisIdleDeadlines(t.redis, t.prefix);
      await d.arm(10, Date.now() + 60_000, { locale: "en" });
      const ttl = await t.redis.pttl(k.idleInfoOf(10));
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(60_000 + 86_400_000);
      // An arm without info writes the deadline alone: the info and its expiry stay as they were.
      await t.redis.pexpire(k.idleInfoOf(10), 120_000);
      await d.arm(10, Date.now() + 90_000);
      expect(await t.redis.zscore(k.idleDue, "10")).not.toBeNull();
      expect(await t.redis.pttl(k.idleInfoOf(10))).toBeLessThanOrEqual(120_000);
      expect(JSON.parse((await t.redis.get(k.idleInfoOf(10))) ?? "null")).toEqual({ locale: "en" });
    } finally {
      await t.cleanup();
    }
  });
});

describe("idle notice text", () => {
  const i18n = createI18n(() => "en" as const);
  it("names whole minutes as minutes and anything else in seconds", () => {
    const en = translator(i18n, "en");
    expect(idleText(en, 600_000)).toContain("after 10 minutes");
    expect(idleText(en, 60_000)).toContain("after 1 minute ");
    expect(idleText(en, 20_000)).toContain("after 20 seconds");
    expect(idleText(en, 90_000)).toContain("after 90 seconds");
  });
});
