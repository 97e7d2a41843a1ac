import { afterAll, describe, expect, it } from "vitest";
import {
  checkNickname,
  createMemorySaved,
  createRedisSaved,
  SAVED_PER_CATEGORY,
  type SavedInput,
  type SavedStore,
  savedId,
} from "../../src/saved/index.ts";
import { testRedis } from "../support/redis.ts";

/** One contract for saved numbers and billers, kept by the memory and the Redis store. */

const redis = testRedis("saved");
afterAll(() => redis.cleanup());

const mobile = (number: string, usedAt: number): SavedInput => ({
  category: "mobile",
  number,
  usedAt,
});
const electricity = (usedAt: number, phone = "9841000001"): SavedInput => ({
  category: "electricity",
  number: "C-100",
  biller: {
    operatorId: 118,
    officeCode: "201",
    holder: "Ram Bahadur",
    scNo: "012.34",
    phone,
  },
  usedAt,
});

describe.each([
  ["memory", () => createMemorySaved()],
  [
    "redis",
    () => createRedisSaved({ redis: redis.redis, prefix: `${redis.prefix}${Math.random()}:` }),
  ],
])("saved store (%s)", (_name, make: () => SavedStore) => {
  it("keeps entries per user and category, newest used first", async () => {
    const s = make();
    expect(await s.list(1)).toEqual([]);
    await s.remember(1, mobile("9841000001", 10));
    await s.remember(1, mobile("9841000002", 30));
    await s.remember(1, {
      category: "dth",
      number: "1234567890",
      biller: { operatorId: 9 },
      usedAt: 20,
    });
    await s.remember(2, mobile("9841000009", 5));
    const mine = await s.list(1);
    expect(mine.map((e) => [e.category, e.number])).toEqual([
      ["mobile", "9841000002"],
      ["dth", "1234567890"],
      ["mobile", "9841000001"],
    ]);
    expect((await s.list(2)).map((e) => e.number)).toEqual(["9841000009"]);
    // Paying a number again moves it to the front; the id stays the same.
    const again = await s.remember(1, mobile("9841000001", 40));
    expect(again).toMatchObject({ id: savedId(mobile("9841000001", 0)), usedAt: 40 });
    expect((await s.list(1))[0]?.number).toBe("9841000001");
    // The same number in another category is another entry.
    await s.remember(1, { category: "datapack", number: "9841000001", usedAt: 50 });
    expect((await s.list(1)).filter((e) => e.number === "9841000001")).toHaveLength(2);
  });

  it("names, renames and deletes; a refreshed entry keeps its name and takes the new phone", async () => {
    const s = make();
    const e = await s.remember(3, electricity(10));
    expect(e.biller).toMatchObject({ officeCode: "201", scNo: "012.34" });
    expect(await s.rename(3, e.id, "Home")).toMatchObject({ id: e.id, nickname: "Home" });
    const refreshed = await s.remember(3, electricity(20, "9841000002"));
    expect(refreshed).toMatchObject({ id: e.id, nickname: "Home", usedAt: 20 });
    expect(refreshed.biller?.phone).toBe("9841000002");
    // An older use (a push delivered late) does not move it back.
    expect(await s.remember(3, electricity(15, "9841000003"))).toMatchObject({
      usedAt: 20,
      biller: { phone: "9841000002" },
    });
    expect(await s.rename(3, e.id, "Pasal")).toMatchObject({ nickname: "Pasal" });
    expect(await s.rename(3, "0000000000", "X")).toBeNull();
    expect(await s.remove(3, e.id)).toBe(true);
    expect(await s.remove(3, e.id)).toBe(false);
    expect(await s.list(3)).toEqual([]);
  });

  it(`keeps at most ${SAVED_PER_CATEGORY} per category, dropping the oldest unnamed first`, async () => {
    const s = make();
    const first = await s.remember(4, mobile("9841100000", 1));
    await s.rename(4, first.id, "Aama");
    await s.remember(4, mobile("9841100001", 2));
    for (let i = 2; i <= SAVED_PER_CATEGORY + 1; i++)
      await s.remember(4, mobile(`98411000${String(i).padStart(2, "0")}`, i + 1));
    await s.remember(4, { category: "landline", number: "014123456", usedAt: 0 });
    const list = await s.list(4);
    const mobiles = list.filter((e) => e.category === "mobile");
    expect(mobiles).toHaveLength(SAVED_PER_CATEGORY);
    // The oldest unnamed two went; the oldest of all is named and stays.
    expect(mobiles.map((e) => e.number)).toContain("9841100000");
    expect(mobiles.map((e) => e.number)).not.toContain("9841100001");
    expect(mobiles.map((e) => e.number)).not.toContain("9841100002");
    // Other categories are not counted against it.
    expect(list.filter((e) => e.category === "landline")).toHaveLength(1);
  });

  it("loses no change when two chats save at the same time", async () => {
    const s = make();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => s.remember(5, mobile(`98412000${i}0`, i))),
    );
    expect(await s.list(5)).toHaveLength(8);
  });
});

describe("saved store (redis): a list this process remembers", () => {
  const two = () => {
    const prefix = `${redis.prefix}${Math.random()}:`;
    return [
      createRedisSaved({ redis: redis.redis, prefix }),
      createRedisSaved({ redis: redis.redis, prefix }),
      prefix,
    ] as const;
  };

  it("never overwrites a change another process made after this one read the list", async () => {
    const [a, b] = two();
    await a.remember(1, mobile("9841000001", 10));
    expect(await b.list(1)).toHaveLength(1); // b remembers the list with one entry
    await a.remember(1, mobile("9841000002", 20));
    await b.remember(1, mobile("9841000003", 30)); // starts from what it remembers: refused, read again
    expect((await a.list(1)).map((e) => e.number)).toEqual([
      "9841000003",
      "9841000002",
      "9841000001",
    ]);
  });

  it("never takes a list deleted and written again up to the same version for the one it remembers", async () => {
    const [a, b, prefix] = two();
    await a.remember(1, mobile("9841000001", 10));
    expect(await b.list(1)).toHaveLength(1); // version 1, one entry
    await redis.redis.del(`${prefix}{user:1}:saved`);
    await a.remember(1, mobile("9841000009", 20)); // version 1 again, another entry
    await b.remember(1, mobile("9841000003", 30));
    expect((await a.list(1)).map((e) => e.number)).toEqual(["9841000003", "9841000009"]);
  });

  it("renames and deletes an entry another process added after this one read the list", async () => {
    const [a, b] = two();
    expect(await b.list(1)).toEqual([]);
    const added = await a.remember(1, mobile("9841000001", 10));
    expect(await b.rename(1, added.id, "Aama")).toMatchObject({ nickname: "Aama" });
    const other = await a.remember(1, mobile("9841000002", 20));
    expect(await b.remove(1, other.id)).toBe(true);
    expect((await a.list(1)).map((e) => [e.number, e.nickname])).toEqual([["9841000001", "Aama"]]);
  });
});

describe("nicknames", () => {
  it("accepts 1 to 24 characters on one line, and says why not otherwise", () => {
    expect(checkNickname("  Aama  ")).toEqual({ ok: true, value: "Aama" });
    expect(checkNickname("Shop\nlandline")).toEqual({ ok: true, value: "Shop landline" });
    expect(checkNickname("आमा")).toEqual({ ok: true, value: "आमा" });
    expect(checkNickname("   ")).toEqual({ ok: false, reason: "empty" });
    expect(checkNickname("x".repeat(25))).toEqual({ ok: false, reason: "too_long" });
    expect(checkNickname("x".repeat(24)).ok).toBe(true);
    expect(checkNickname("a\u0007b")).toEqual({ ok: false, reason: "control" });
  });
});
