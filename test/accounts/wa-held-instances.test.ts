import { afterAll, describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { createRedisAccounts } from "../../src/accounts/store.ts";
import { waIdentityOf } from "../../src/accounts/wa-held.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Whether an account's messages are kept from its WhatsApp chat, as two instances on one Redis
 * see it (accounts/wa-held.ts `waHeldNow`): a hold or a release made on one is seen by the other
 * at its next push, not seconds later (the number's new holder would read the account's money).
 * Nothing here depends on time passing.
 */

const redis = testRedis("waheld");
afterAll(() => redis.cleanup());

const PHONE = "9779800046001" as Phone;
const ACCOUNT = 8_009_779_800_046_001;

function pair() {
  const store = createRedisAccounts({
    redis: redis.redis,
    prefix: `${redis.prefix}${Math.random()}:`,
  });
  return { store, a: waIdentityOf(store), b: waIdentityOf(store) };
}

describe("waHeldNow across two instances", () => {
  it("a hold recorded on one instance is seen by the other at once", async () => {
    const { store, a, b } = pair();
    await store.register(ACCOUNT, PHONE);
    await a.adoptWaUser(ACCOUNT, "NP.asha");
    expect(await b.waHeldNow(ACCOUNT)).toBe(false);
    await a.holdWa(ACCOUNT, { phone: PHONE, waUserId: "NP.bikash", at: 1 });
    expect(await b.waHeldNow(ACCOUNT)).toBe(true);
  });

  it("a release decided on one instance keeps the other's pushes off the number", async () => {
    const { store, a, b } = pair();
    await store.register(ACCOUNT, PHONE);
    await a.adoptWaUser(ACCOUNT, "NP.asha");
    await a.holdWa(ACCOUNT, { phone: PHONE, waUserId: "NP.bikash", at: 1 });
    expect(await b.waHeldNow(ACCOUNT)).toBe(true);
    await a.decideWa(PHONE, "release", 1, 2);
    expect(await b.waHeldNow(ACCOUNT)).toBe(true);
    expect(await a.waHeldNow(ACCOUNT)).toBe(true);
    // The account's own user id takes the number back: its messages go again.
    await store.register(ACCOUNT, PHONE);
    expect(await b.waHeldNow(ACCOUNT)).toBe(false);
  });

  it("accept lets the messages go again", async () => {
    const { store, a } = pair();
    await store.register(ACCOUNT, PHONE);
    await a.adoptWaUser(ACCOUNT, "NP.asha");
    await a.holdWa(ACCOUNT, { phone: PHONE, waUserId: "NP.bikash", at: 1 });
    await a.decideWa(PHONE, "accept", 1, 2, "bikash");
    expect(await a.waHeldNow(ACCOUNT)).toBe(false);
  });
});
