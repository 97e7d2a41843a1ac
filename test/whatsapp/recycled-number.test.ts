import { describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { availableOf, creditPerson, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp-born account belongs to the Meta user id (`contacts[].user_id`) first seen for it
 * (trust on first use), not to the number: Meta hands a recycled number to its next holder with
 * another user id. That holder gets a fresh account of their own and is told so; the old account
 * keeps its money untouched (without the number); the admins are alerted once.
 */

const ADMIN_PHONE = "9779800044000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
});

const waUser = (phone: string, name: string, userId?: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, ...(userId ? { userId } : {}) });
const adminTexts = () =>
  standInOf(ts)
    .messagesTo(ADMIN_PHONE)
    .map((m) => m.text);
const recycledAlerts = (phone: string) =>
  adminTexts().filter((t) => t.includes("recycled number") && t.includes(phone.slice(-6)));

describe("a recycled WhatsApp number (same wa_id, another Meta user id)", () => {
  it("the new holder neither sees nor spends the old balance; the old account keeps it", async () => {
    const phone = "9779800044001";
    const old = waPerson(phone);
    const asha = waUser(phone, "Asha", "NP.bsuid-asha-1");
    await asha.say("hi", /Namaste Asha/);
    await creditPerson(ts, old, 40_000);
    await asha.say("balance", /Rs 400/);

    const bikash = waUser(phone, "Bikash", "NP.bsuid-bikash-1");
    const seen = await bikash.say("balance", /Your balance/);
    expect(seen.text).not.toMatch(/Rs 400/);
    expect(bikash.texts().join("\n")).toMatch(/That account is not yours/);
    const history = await bikash.say("history", /^(?!ℹ️)/);
    expect(history.text).not.toMatch(/Rs 400/);
    const fresh = await ts.system.deps.accounts.userByPhone(phone as Phone);
    expect(fresh).not.toBe(old);
    expect(fresh).not.toBeNull();
    expect(await availableOf(ts, fresh ?? 0)).toBe(0);
    expect(await ts.system.orders.listByUser(fresh ?? 0, 10)).toEqual([]);
    // Nothing of the old account moved or was spent.
    expect(await availableOf(ts, old)).toBe(40_000);
    // Told once, and the admins alerted once.
    await bikash.say("balance", /Your balance/);
    expect(bikash.texts().filter((t) => /That account is not yours/.test(t))).toHaveLength(1);
    expect(recycledAlerts(phone)).toHaveLength(1);
  });

  it("the same Meta user id keeps its account", async () => {
    const phone = "9779800044002";
    const ram = waUser(phone, "Ram", "NP.bsuid-ram-2");
    await ram.say("hi", /Namaste Ram/);
    await creditPerson(ts, waPerson(phone), 25_000);
    await ram.say("balance", /Rs 250/);
    await ram.say("balance", /Rs 250/);
    expect(ram.texts().join("\n")).not.toMatch(/That account is not yours/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(waPerson(phone));
    expect(recycledAlerts(phone)).toHaveLength(0);
  });

  it("an account registered without a user id adopts the first one seen, then holds to it", async () => {
    const phone = "9779800044003";
    const sita = waUser(phone, "Sita");
    await sita.say("hi", /Namaste Sita/);
    await creditPerson(ts, waPerson(phone), 30_000);
    // Meta starts sending user ids: the first one seen is the account's (trust on first use).
    const sitaNow = waUser(phone, "Sita", "NP.bsuid-sita-3");
    await sitaNow.say("balance", /Rs 300/);
    const next = waUser(phone, "Gopal", "NP.bsuid-gopal-3");
    const seen = await next.say("balance", /Your balance/);
    expect(seen.text).not.toMatch(/Rs 300/);
    expect(await availableOf(ts, waPerson(phone))).toBe(30_000);
    expect(recycledAlerts(phone)).toHaveLength(1);
  });
});
