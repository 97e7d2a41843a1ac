import { describe, expect, it } from "vitest";
import { RECONCILE_BY_HAND, useReleasedChatRig } from "../support/released-chat-rig.ts";
import { waitUntil } from "../support/wait.ts";
import { creditPerson } from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder orders from their fresh WhatsApp account: the order's final
 * push reaches their chat (the chat's own id is the old account's, whose messages stay withheld),
 * and the old account's order placed there before the release does not. The aggregator's
 * webhooks are dropped and the reconciler is run by hand: no timing assumed.
 */

const ADMIN_PHONE = "9779800047000";
const rig = useReleasedChatRig(ADMIN_PHONE, RECONCILE_BY_HAND);
const { ts } = rig;

describe("a fresh WhatsApp account's order pushes", () => {
  it("reach the number's new holder; the old account's stay away from the chat", async () => {
    const phone = "9779800047001";
    const { asha, old } = await rig.oldHolder(phone, "47", 50_000);
    rig.dropWebhooks();
    const oldRef = await rig.order(asha, 150);
    const since = asha.texts().length;
    const bikash = await rig.releaseTo(phone, "47");
    await bikash.say("balance", /Rs 0/);
    await creditPerson(ts, await rig.holderOf(phone), 30_000);
    const ref = await rig.order(bikash, 100);
    await rig.ended(ref, oldRef);
    // The final push (the receipt above said "processing").
    await bikash.waitFor((m) => m.text.includes(ref) && !/processing|Please check/.test(m.text));
    // The old account has no other chat: its push is refused as not delivered (400, dead-lettered).
    await waitUntil(() => rig.withheldIn(old), "the old account's push kept back");
    expect(bikash.texts().slice(since).join("\n")).not.toContain(`Order ${oldRef}`);
  });

  it("review should-fix 4: the release's reply lists the old account's orders still under way", async () => {
    const phone = "9779800047002";
    const { asha } = await rig.oldHolder(phone, "47b", 50_000);
    rig.dropWebhooks();
    const done = await rig.order(asha, 120);
    await rig.ended(done);
    // Its result is not known yet: the aggregator's webhooks are dropped, the reconciler waits.
    const open = await rig.order(asha, 150);
    await rig.heldBy(phone, "47b");
    const reply = await rig.release(phone);
    expect(reply.text).toMatch(/still under way: 1\./);
    expect(reply.text).toMatch(new RegExp(`${open}: Rs 150, `));
    expect(["success", "failed"]).not.toContain((await ts.system.orders.get(open))?.status);
    expect(reply.text).not.toContain(done);
  });
});
