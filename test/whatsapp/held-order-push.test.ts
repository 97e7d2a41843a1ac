import { describe, expect, it } from "vitest";
import {
  dropWebhooks,
  ended,
  HELD,
  mobileOrder,
  RECONCILE_BY_HAND,
  waUserOf,
} from "../support/released-chat-rig.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { creditPerson, waPerson } from "../support/whatsapp-steps.ts";

/**
 * Review s22-waid2 4: an order's final push for a WhatsApp account held for an admin's decision
 * (another Meta user id wrote from its number) does not reach the number's chat; the order is
 * final all the same. The aggregator's webhooks are dropped and the reconciler is run by hand, so
 * the order ends only after the hold, with no timing assumed.
 */

const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ...RECONCILE_BY_HAND },
});

describe("review s22-waid2 4: an order's final push for a held account", () => {
  it("is withheld from the number's chat; the order is final", async () => {
    const phone = "9779800044021";
    const asha = waUserOf(ts, phone, "Asha", "NP.asha-21");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    await creditPerson(ts, old, 50_000);
    dropWebhooks(ts);
    const ref = await mobileOrder(asha, 150);
    // Bikash writes from the number: the account is held before its order ends.
    const bikash = waUserOf(ts, phone, "Bikash", "NP.bikash-21");
    const since = asha.texts().length;
    await bikash.say("balance", HELD);
    await ended(ts, ref);
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
    expect((await ts.system.orders.get(ref))?.status).toBe("success");
  });
});
