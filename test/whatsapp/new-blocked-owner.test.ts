import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRedisBlocked } from "../../src/accounts/blocked.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * Review s33-rvlink, 2: a WhatsApp chat whose number a blocked Telegram account registered cannot
 * take the number for an account of its own (`new yes`): it would be an account nobody blocked,
 * with the number's cash-ins. It is sent to the shop instead.
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

describe("WhatsApp: `new` refused while the number's account is blocked", () => {
  it("a blocked Telegram customer's number stays theirs, and the chat is sent to the shop", async () => {
    const phone = "9779800033201";
    const tg = ts.user(33_201);
    await tg.register(phone);
    const redis = new Redis(REDIS_URL);
    try {
      await createRedisBlocked({ redis: redis as never, prefix: ts.prefix }).block({
        userId: 33_201,
        reason: "abuse",
        by: 1,
        at: Date.now(),
      });
    } finally {
      redis.disconnect();
    }
    const wa = new WhatsAppChatUser(standInOf(ts), phone, { name: "Same", userId: "NP.same" });
    await wa.say("hi", /registered with us on Telegram/);
    const answer = await wa.say("new yes", /./);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(33_201);
    expect(await ts.system.deps.payment.access(waPerson(phone))).not.toBe("ok");
    expect(answer.text).toMatch(/blocked by the shop.*visit the shop/);
    // Asking first is refused as well: nothing to confirm.
    await wa.say("new", /No account was opened/);
  });
});
