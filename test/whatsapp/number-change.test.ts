import { describe, expect, it } from "vitest";
import { createRedisNumberChanges } from "../../src/accounts/index.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  creditedCustomer,
  standInOf,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp customer who changed number (Meta's signed `user_changed_number` notice, the old
 * number as its sender): the change is recorded once for the back office's "Number changes" page
 * (a redelivery of the notice writes and says nothing more), the admins are alerted, and the
 * customer is told on the new number that support will move their balance; the old number is not
 * answered. The new number's chat is an account of its own until the balance is moved
 * (one transfer customer to customer: test/dashboard/balance-move.test.ts for the back office's form).
 */

const ADMIN_PHONE = "9779800045000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
});
const admin = () => new WhatsAppChatUser(standInOf(ts), ADMIN_PHONE, { name: "Admin" });
const TOLD = /You changed your WhatsApp number from \+977 9841000901 to this one/;
const ALERT = /WhatsApp number change: \+977 9841000901 \(account \d+\) is now \+977 9841000902/;

const notice = (from: string, to: string) => ({
  type: "system",
  system: {
    body: `User A changed from ${from} to ${to}`,
    wa_id: to,
    type: "user_changed_number",
  },
});

describe("WhatsApp: a customer changed number", () => {
  it("records the change once, alerts the admins, tells the customer on the new number", async () => {
    await admin().say("hi");
    const { u: old, person } = await creditedCustomer(ts, "9779841000901", 75_000);
    await old.say("hi", /Choose what you want to pay/);
    // Meta delivers the notice twice (the same bytes): recorded and told once.
    standInOf(ts).faults.duplicateNextWebhooks(1, "messages");
    const wamid = await standInOf(ts).userSendsMessage(
      { waId: old.waId },
      notice("9779841000901", "9779841000902"),
    );
    const fresh = waCustomer(ts, "9779841000902");
    const told = await fresh.waitFor(TOLD);
    expect(told.text).toContain("our support will move it");
    // The customer's own words, not dressed as an admin alert (h-smallfix: it began "⚠️ ").
    expect(told.text).not.toContain("⚠️");
    expect(told.text).toMatch(/(^|\] )You changed your WhatsApp number/);
    await admin().waitFor(ALERT);
    expect(admin().texts().join("\n")).toContain("/dashboard/number-changes");

    const changes = createRedisNumberChanges({ redis: ts.system.redis!, prefix: ts.prefix });
    const listed = (await changes.list(100)).filter((c) => c.oldPhone === "9779841000901");
    expect(listed).toEqual([
      { wamid, oldPhone: "9779841000901", newPhone: "9779841000902", at: expect.any(Number) },
    ]);

    // The new number is an account of its own, empty; the old one keeps the money, unanswered.
    await fresh.say("balance", /Rs 0/);
    const balanceAfter = await old.say("balance", /Rs 750/);
    expect((await old.waitFor(undefined, { afterWamid: wamid })).wamid).toBe(balanceAfter.wamid);
    expect(fresh.texts().filter((t) => TOLD.test(t))).toHaveLength(1);
    expect(
      admin()
        .texts()
        .filter((t) => ALERT.test(t)),
    ).toHaveLength(1);

    // Support moves the whole balance (the back office's operation): the new number has it.
    const to = waPerson("9779841000902");
    const moved = await ts.system.deps.accounts.moveBalance({
      id: `move-${person}-${to}-00000000000000aa`,
      fromUserId: person,
      toUserId: to,
      amountPaisa: 75_000,
      adminUserId: waPerson(ADMIN_PHONE),
    });
    expect(moved.ok).toBe(true);
    expect([await availableOf(ts, person), await availableOf(ts, to)]).toEqual([0, 75_000]);
    const shown = await fresh.say("balance", /Rs 750/);
    expect(shown.text).toContain("+Rs 750 moved here from your other account");
    const oldShown = await old.say("balance", /Rs 0/);
    expect(oldShown.text).toContain("−Rs 750 moved to your other account");
    expect(await ts.system.ledger.check()).toMatchObject({ ok: true, postedSum: 0 });
  });

  it("a notice from a number with no money tells nobody, and is still listed", async () => {
    await admin().say("hi");
    const empty = waCustomer(ts, "9779841000911");
    await empty.say("hi", /Choose what you want to pay/);
    const wamid = await standInOf(ts).userSendsMessage(
      { waId: empty.waId },
      notice("9779841000911", "9779841000912"),
    );
    const after = await empty.say("balance", /Rs 0/);
    expect((await empty.waitFor(undefined, { afterWamid: wamid })).wamid).toBe(after.wamid);
    const changes = createRedisNumberChanges({ redis: ts.system.redis!, prefix: ts.prefix });
    expect((await changes.list(100)).map((c) => c.wamid)).toContain(wamid);
    expect(standInOf(ts).messagesTo("9779841000912")).toEqual([]);
    expect(admin().texts().join("\n")).not.toContain("+977 9841000911");
  });
});
