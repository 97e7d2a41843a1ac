import { describe, expect, it } from "vitest";
import { INACTIVE_CHAT } from "../../src/notify/deliver.ts";
import {
  dropWebhooks,
  ended,
  mobileOrder,
  RECONCILE_BY_HAND,
  waUserOf,
} from "../support/released-chat-rig.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { confirm, creditPerson, pushOf, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * Review s31-notify, 1: a WhatsApp chat marked inactive (Meta refused a push with 131026: an old
 * app, among other causes) got no result of any later order, though the customer was back and
 * ordering: only a bare greeting (/start) cleared the mark. Now any message clears it. The
 * aggregator's webhooks are dropped and the reconciler run by hand; the clock is moved past the
 * minute in which a chat that just ordered is taken as active (deliver.ts `orderedLately`), as an
 * aggregator that answers late would.
 */

let shift = 0;
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ...RECONCILE_BY_HAND },
  now: () => Date.now() + shift,
});

const MINUTE_AND_MORE = 61_000;

describe("review s31-notify 1: a WhatsApp chat marked inactive that writes again", () => {
  it("gets the result of its next order (the chat's message cleared the mark)", async () => {
    const phone = "9779800031101";
    const chat = waPerson(phone);
    const sita = waUserOf(ts, phone, "Sita", "NP.sita-31");
    await sita.say("hi", /Namaste Sita/);
    await creditPerson(ts, chat, 100_000);
    dropWebhooks(ts);
    const first = await mobileOrder(sita, 120);
    standInOf(ts).faults.failNextSends(131026, 1, phone);
    await ended(ts, first);
    await waitUntil(() => ts.system.queue.isChatInactive(chat), "the chat marked inactive");

    // Back (the app updated): a command word, not a greeting (/start), and a whole flow.
    await sita.say("recharge", /What would you like to pay/);
    await sita.tap(/Mobile top-up/, /Which mobile number should I recharge/);
    await sita.say("9841234567", /How much\?/);
    await sita.say("Rs 130", /Please check your order/);
    const { ref: second } = await confirm(sita);
    shift += MINUTE_AND_MORE;
    await ended(ts, second);
    await pushOf(sita, second, "succeeded");
    expect(await ts.system.queue.isChatInactive(chat)).toBe(false);
    const log = () => ts.system.sentLog.list(second);
    await waitUntil(async () => (await log()).length > 0, "the push written down");
    expect((await log()).map((e) => [e.status, e.ok])).toEqual([["success", true]]);
  }, 40_000);

  it("an order's result dropped while the chat is inactive is on its timeline as not delivered", async () => {
    const phone = "9779800031102";
    const chat = waPerson(phone);
    const hari = waUserOf(ts, phone, "Hari", "NP.hari-31");
    await hari.say("hi", /Namaste Hari/);
    await creditPerson(ts, chat, 100_000);
    dropWebhooks(ts);
    const ref = await mobileOrder(hari, 140);
    // Unreachable since the order was placed (another push refused, here marked directly).
    await ts.system.queue.markChatInactive(chat);
    shift += MINUTE_AND_MORE;
    await ended(ts, ref);
    await waitUntil(
      async () => (await ts.system.sentLog.list(ref)).length > 0,
      "the dropped push written down",
    );
    expect(await ts.system.sentLog.list(ref)).toMatchObject([
      { chatId: chat, kind: "push", status: "success", ok: false, error: INACTIVE_CHAT },
    ]);
    expect(hari.texts().join("\n")).not.toContain(`Order ${ref} succeeded`);
  });
});
