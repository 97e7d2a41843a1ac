import { describe, expect, it } from "vitest";
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
 * Review s22-waid2 4: an order's final push for a WhatsApp account held for an admin's decision
 * (another Meta user id wrote from its number) does not reach the number's chat; the order is
 * final all the same. The aggregator's webhooks are dropped and the reconciler is run by hand, so
 * the order ends only after the hold, with no timing assumed.
 */

const ts = useTestSystem({
  redis: true,
  env: {
    ACCESS_MODE: "prepaid",
    RECONCILE_INTERVAL_MS: "3600000",
    RECONCILE_MIN_AGE_MS: "0",
  },
});

const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("review s22-waid2 4: an order's final push for a held account", () => {
  it("is withheld from the number's chat; the order is final", async () => {
    const phone = "9779800044021";
    const asha = waUser(phone, "Asha", "NP.asha-21");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    await creditPerson(ts, old, 50_000);
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    await openCategory(asha, /Mobile top-up/, /Which mobile number should I recharge/);
    await asha.say("9841234567", /How much\?/);
    await asha.say("Rs 150", /Please check your order/);
    const { ref } = await confirm(asha);
    // Bikash writes from the number: the account is held before its order ends.
    const bikash = waUser(phone, "Bikash", "NP.bikash-21");
    const since = asha.texts().length;
    await bikash.say("balance", /under review by our support/);
    const final = async () => (await ts.system.orders.get(ref))?.status;
    await waitUntil(async () => {
      await ts.system.reconciler.runOnce();
      return (await final()) === "success";
    }, "the order's end");
    const logged = () =>
      ts.logs.some((l) => l.includes("whatsapp message withheld") && l.includes(`"chatId":${old}`));
    await waitUntil(
      () =>
        logged() ||
        bikash
          .texts()
          .slice(since)
          .some((t) => t.includes(`Order ${ref}`)),
      "the final push handled",
    );
    expect(bikash.texts().slice(since).join("\n")).not.toContain(`Order ${ref}`);
    expect(await final()).toBe("success");
  });
});
