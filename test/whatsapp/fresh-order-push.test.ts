import { describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  confirm,
  creditPerson,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder orders from their fresh WhatsApp account: the order's final
 * push reaches their chat (the chat's own id is the old account's, whose messages stay withheld),
 * and the old account's order placed there before the release does not. The aggregator's
 * webhooks are dropped and the reconciler is run by hand: no timing assumed.
 */

const ADMIN_PHONE = "9779800047000";
const ts = useTestSystem({
  redis: true,
  env: {
    ACCESS_MODE: "prepaid",
    ADMIN_IDS: `wa:${ADMIN_PHONE}`,
    RECONCILE_INTERVAL_MS: "3600000",
    RECONCILE_MIN_AGE_MS: "0",
  },
});

const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

async function order(u: WhatsAppChatUser, rupees: number) {
  await openCategory(u, /Mobile top-up/, /Which mobile number should I recharge/);
  await u.say("9841234567", /How much\?/);
  await u.say(`Rs ${rupees}`, /Please check your order/);
  return (await confirm(u)).ref;
}

describe("a fresh WhatsApp account's order pushes", () => {
  it("reach the number's new holder; the old account's stay away from the chat", async () => {
    const phone = "9779800047001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-47");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    await creditPerson(ts, old, 50_000);
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    const oldRef = await order(asha, 150);
    const bikash = waUser(phone, "Bikash", "NP.bikash-47");
    const since = asha.texts().length;
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    await bikash.say("balance", /Rs 0/);
    const fresh = (await ts.system.deps.accounts.userByPhone(phone as Phone)) ?? 0;
    await creditPerson(ts, fresh, 30_000);
    const ref = await order(bikash, 100);
    const status = async (r: string) => (await ts.system.orders.get(r))?.status;
    await waitUntil(async () => {
      await ts.system.reconciler.runOnce();
      return (await status(ref)) === "success" && (await status(oldRef)) === "success";
    }, "both orders' end");
    // The final push (the receipt above said "processing").
    await bikash.waitFor((m) => m.text.includes(ref) && !/processing|Please check/.test(m.text));
    // The old account has no other chat: its push is refused as not delivered (400, dead-lettered).
    const withheldOld = () =>
      ts.logs.some((l) => l.includes("the account has no chat") && l.includes(`"account":${old}`));
    await waitUntil(withheldOld, "the old account's push kept back");
    expect(bikash.texts().slice(since).join("\n")).not.toContain(`Order ${oldRef}`);
  });

  it("review should-fix 4: the release's reply lists the old account's orders still under way", async () => {
    const phone = "9779800047002";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-47b");
    await asha.say("hi", /Namaste Asha/);
    await creditPerson(ts, waPerson(phone), 50_000);
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    const done = await order(asha, 120);
    await waitUntil(async () => {
      await ts.system.reconciler.runOnce();
      return (await ts.system.orders.get(done))?.status === "success";
    }, "the first order's end");
    // Its result is not known yet: the aggregator's webhooks are dropped, the reconciler waits.
    const open = await order(asha, 150);
    await waUser(phone, "Bikash", "NP.bikash-47b").say("balance", /under review by our support/);
    const reply = await admin.say(`waid +${phone} release`, /was released from account/);
    expect(reply.text).toMatch(/still under way: 1\./);
    expect(reply.text).toMatch(new RegExp(`${open}: Rs 150, `));
    expect(["success", "failed"]).not.toContain((await ts.system.orders.get(open))?.status);
    expect(reply.text).not.toContain(done);
  });
});
