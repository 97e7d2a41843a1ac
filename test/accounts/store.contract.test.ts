import { afterAll, describe, expect, it } from "vitest";
import {
  type AccountsStore,
  createMemoryAccounts,
  createRedisAccounts,
  type Phone,
  type Receipt,
} from "../../src/accounts/index.ts";
import { account } from "../../src/ledger/index.ts";
import { testRedis } from "../support/redis.ts";

/** One contract for the phone registry and the receipts, kept by the memory and the Redis store. */

const redis = testRedis("accounts");
afterAll(() => redis.cleanup());

const phone = (p: string) => p as Phone;
const receipt = (id: string, amountPaisa: number): Receipt => ({
  id,
  kind: "cash_in",
  debit: account.agent(7),
  credit: account.customer(5),
  amountPaisa,
  by: 7,
  partyUserId: 5,
  at: 1,
});

describe.each([
  ["memory", () => createMemoryAccounts()],
  [
    "redis",
    () => createRedisAccounts({ redis: redis.redis, prefix: `${redis.prefix}${Math.random()}:` }),
  ],
])("accounts store (%s)", (_name, make: () => AccountsStore) => {
  it("binds a phone to its latest owner, both ways", async () => {
    const s = make();
    expect(await s.userByPhone(phone("9779800000001"))).toBeNull();
    await s.register(1, phone("9779800000001"));
    expect(await s.userByPhone(phone("9779800000001"))).toBe(1);
    expect(await s.phoneOf(1)).toBe("9779800000001");
    // A recycled number moves to its new owner; the old owner is no longer registered.
    await s.register(2, phone("9779800000001"));
    expect(await s.userByPhone(phone("9779800000001"))).toBe(2);
    expect(await s.phoneOf(1)).toBeNull();
    // A new number of the same user frees the old one.
    await s.register(2, phone("9779800000002"));
    expect(await s.userByPhone(phone("9779800000001"))).toBeNull();
    expect(await s.phoneOf(2)).toBe("9779800000002");
    // Registering again with the same number changes nothing.
    await s.register(2, phone("9779800000002"));
    expect(await s.userByPhone(phone("9779800000002"))).toBe(2);
  });

  it("gives a phone's owner and their language, else the language of the user named", async () => {
    const s = make();
    expect(await s.ownerAndLocale(phone("9779800000011"), 12)).toEqual({
      owner: null,
      locale: null,
      waUserId: null,
    });
    await s.setLocale(12, "hi");
    expect(await s.ownerAndLocale(phone("9779800000011"), 12)).toEqual({
      owner: null,
      locale: "hi",
      waUserId: null,
    });
    await s.register(11, phone("9779800000011"));
    expect(await s.ownerAndLocale(phone("9779800000011"), 12)).toEqual({
      owner: 11,
      locale: null,
      waUserId: null,
    });
    await s.setLocale(11, "ne");
    await s.adoptWaUser(11, "NP.eleven");
    expect(await s.ownerAndLocale(phone("9779800000011"), 12)).toEqual({
      owner: 11,
      locale: "ne",
      waUserId: "NP.eleven",
    });
  });

  it("keeps the first Meta user id of an account (trust on first use), the registration's first", async () => {
    const s = make();
    expect(await s.adoptWaUser(21, "NP.first")).toBe("NP.first");
    expect(await s.adoptWaUser(21, "NP.second")).toBe("NP.first");
    await s.putProfile(22, { name: "Asha", channel: "whatsapp", waUserId: "NP.kept" }, 1);
    await s.putProfile(22, { name: "Asha", channel: "whatsapp", waUserId: "NP.later" }, 2);
    expect((await s.profileOf(22))?.waUserId).toBe("NP.kept");
    expect(await s.adoptWaUser(22, "NP.later")).toBe("NP.kept");
  });

  it("holds another Meta user id until an admin decides: accept binds it, release frees the number", async () => {
    const s = make();
    const p = phone("9779800000031");
    await s.register(31, p);
    expect(await s.adoptWaUser(31, "NP.old")).toBe("NP.old");
    expect(await s.decideWa(p, "accept", 1, 5)).toBeNull();
    const first = { phone: p, waUserId: "NP.new", at: 3 };
    expect(await s.holdWa(31, first)).toEqual(first);
    // The hold that stands is returned (its first time names it: one alert per hold).
    expect(await s.holdWa(31, { ...first, at: 4 })).toEqual(first);
    expect(await s.waHoldOf(31)).toEqual({ phone: p, waUserId: "NP.new", at: 3 });
    // Nothing moved while held.
    expect(await s.userByPhone(p)).toBe(31);
    // Another sender named (its short id): nothing is done, the one held is said.
    expect(await s.decideWa(p, "accept", 1, 5, "XX.old")).toEqual({
      other: true,
      account: 31,
      pending: "np.new",
    });
    expect(await s.waUserOf(31)).toBe("NP.old");
    expect(await s.decideWa(p, "accept", 1, 5, "NP.NEW")).toMatchObject({
      account: 31,
      from: "NP.old",
      to: "NP.new",
    });
    expect(await s.waHoldOf(31)).toBeNull();
    expect((await s.ownerAndLocale(p, 0)).waUserId).toBe("NP.new");
    await s.holdWa(31, { phone: p, waUserId: "NP.third", at: 6 });
    expect(await s.decideWa(p, "release", 1, 7)).toMatchObject({
      account: 31,
      decision: "release",
    });
    expect(await s.userByPhone(p)).toBeNull();
    expect(await s.phoneOf(31)).toBeNull();
    expect(await s.waUserOf(31)).toBe("NP.new");
  });

  it("writes no hold on an account that no longer owns the number (a release came first)", async () => {
    const s = make();
    const p = phone("9779800000032");
    await s.register(32, p);
    expect(await s.adoptWaUser(32, "NP.old")).toBe("NP.old");
    await s.holdWa(32, { phone: p, waUserId: "NP.new", at: 1 });
    await s.decideWa(p, "release", 1, 2);
    // The sender's message was read before the release: its hold comes after it.
    expect(await s.holdWa(32, { phone: p, waUserId: "NP.new", at: 3 })).toBeNull();
    expect(await s.waHoldOf(32)).toBeNull();
    // The old holder takes the number back: its messages go again (no stale hold withholds them).
    await s.register(32, p);
    expect(await s.waPushBlocked(32)).toBe(false);
    // While it owns the number, a hold is written as before.
    const held = { phone: p, waUserId: "NP.other", at: 4 };
    expect(await s.holdWa(32, held)).toEqual(held);
    expect(await s.waPushBlocked(32)).toBe(true);
  });

  it("opens fresh WhatsApp accounts on ids nobody uses, each recorded as its user id's", async () => {
    const s = make();
    const base = 9_000_000_000_000_000;
    // Ids the counter will name next, already someone's: a phone, a user id, a profile.
    await s.register(base + 1, phone("9779800000031"));
    await s.adoptWaUser(base + 2, "NP.other");
    await s.putProfile(base + 3, { name: "Sita", channel: "whatsapp" }, 1);
    const id = await s.openWaFresh(base, "NP.new");
    expect(id).toBe(base + 4);
    expect(await s.waUserOf(id)).toBe("NP.new");
    expect(await s.openWaFresh(base, "NP.next")).toBe(base + 5);
    // The ones in use are untouched.
    expect(await s.phoneOf(base + 1)).toBe("9779800000031");
    expect(await s.waUserOf(base + 2)).toBe("NP.other");
  });

  it("skips a fresh id that has only a language recorded, as Redis does (review s24-d, 2)", async () => {
    const s = make();
    const base = 9_000_000_000_000_000;
    await s.setLocale(base + 1, "ne");
    expect(await s.openWaFresh(base, "NP.x")).toBe(base + 2);
    expect(await s.localeOf(base + 1)).toBe("ne");
    expect(await s.waUserOf(base + 1)).toBeNull();
  });

  it("takes a held number only from the owner read, a fresh id only then (review s24-d, 1)", async () => {
    const s = make();
    const base = 9_000_000_000_000_000;
    const p = phone("9779800000041");
    await s.register(41, p);
    await s.adoptWaUser(42, "NP.other");
    // Another owner than the one read: nothing moved, no fresh id taken.
    await s.register(43, p);
    expect(await s.takeHeldPhone(p, 41, { base, waUserId: "NP.new" })).toEqual({
      taken: false,
      owner: 43,
      ownerWaUser: null,
    });
    expect(await s.userByPhone(p)).toBe(43);
    // From the owner read: a fresh id (the first unused one), recorded as the sender's.
    const took = await s.takeHeldPhone(p, 43, { base, waUserId: "NP.new" });
    expect(took).toEqual({ taken: true, account: base + 1, from: 43 });
    expect(await s.phoneOf(43)).toBeNull();
    expect(await s.phoneOf(base + 1)).toBe(p);
    expect(await s.waUserOf(base + 1)).toBe("NP.new");
    // The same read again: the sender's own fresh account holds it; nothing opened.
    expect(await s.takeHeldPhone(p, 43, { base, waUserId: "NP.new" })).toEqual({
      taken: false,
      owner: base + 1,
      ownerWaUser: "NP.new",
    });
    expect(await s.openWaFresh(base, "NP.next")).toBe(base + 2);
    // A number nobody holds is taken by an account (nobody to tell).
    const free = phone("9779800000044");
    expect(await s.takeHeldPhone(free, 41, 44)).toEqual({ taken: true, account: 44, from: null });
    expect(await s.userByPhone(free)).toBe(44);
  });

  it("keeps the latest language of a user", async () => {
    const s = make();
    expect(await s.localeOf(3)).toBeNull();
    await s.setLocale(3, "ne");
    await s.setLocale(4, "hi");
    await s.setLocale(3, "en");
    expect(await s.localeOf(3)).toBe("en");
    expect(await s.localeOf(4)).toBe("hi");
  });

  it("keeps the first receipt of an id", async () => {
    const s = make();
    expect(await s.receipt("cashin-1")).toBeNull();
    await s.putReceipt(receipt("cashin-1", 100));
    await s.putReceipt(receipt("cashin-1", 999));
    expect(await s.receipt("cashin-1")).toEqual(receipt("cashin-1", 100));
  });

  it("keeps who registered: the first share's time, the latest name", async () => {
    const s = make();
    expect(await s.profileOf(9)).toBeNull();
    await s.putProfile(9, { name: "Sita", username: "sita_np", channel: "telegram" }, 100);
    expect(await s.profileOf(9)).toEqual({
      name: "Sita",
      username: "sita_np",
      channel: "telegram",
      firstAt: 100,
      at: 100,
    });
    await s.putProfile(9, { name: "Sita Sharma", channel: "telegram" }, 200);
    expect(await s.profileOf(9)).toEqual({
      name: "Sita Sharma",
      channel: "telegram",
      firstAt: 100,
      at: 200,
    });
  });
});
