import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/system.ts";
import { useTopUpSystem } from "../support/topup-system.ts";

/**
 * An admin's /settle and /topups partial refund left for another command (review s33-rvtruth 11):
 * the Leave ends them with what was not done (no order settled, nothing refunded or credited),
 * never the orders' "Left. Nothing was charged.", and nothing was decided. Prepaid, memory, with
 * the Khalti stand-in; the back office off so that /topups decides in the chat.
 */

const ADMIN = 3001;

describe("an admin's settle and partial-refund flows, left", () => {
  const sys = useTopUpSystem(false, { DASHBOARD: "0", TOPUP_REFUND_CHECK_MS: "3600000" });

  /** Another command at the flow's question, then 🚪 Leave: the question's text as edited. */
  async function leave(admin: TestUser, ask: RegExp): Promise<string> {
    const question = await admin.say("/recharge", ask);
    const after = admin.lastId();
    admin.emu.clickButton(admin.id, "🚪 Leave", { messageId: question.id });
    await admin.emu.waitForBotMessage(admin.id, /./, { afterId: after });
    return admin.chat().find((m) => m.id === question.id)?.text ?? "";
  }

  it("/settle, left at its first question: no order was settled", async () => {
    const admin = sys.ts().user(ADMIN);
    await admin.say("/settle", /Which order should be settled\?/);
    const left = await leave(admin, /Leave this settlement\?/);
    expect(left).not.toContain("Nothing was charged");
    expect(left).toContain("no order was settled and nothing was changed");
  });

  it("a partial refund's amount, left: nothing decided, the top-up still waits", async () => {
    const t = await sys.start(961, 1000);
    sys.khalti().act(t.paymentId, "pay");
    expect((await sys.topUps().confirm("khalti", t.paymentId))?.status).toBe("completed");
    sys.khalti().refund(t.paymentId, true);
    expect((await sys.topUps().confirm("khalti", t.paymentId))?.status).toBe("partial_refund");
    const admin = sys.ts().user(ADMIN);
    await admin.say("/topups", (m) => m.text.includes(`top-up ${t.paymentId}`));
    await admin.tap("Enter the amount returned", /How much did khalti return/);
    const left = await leave(admin, /Stop deciding this partial refund\?/);
    expect(left).not.toContain("Nothing was charged");
    expect(left).toContain("nothing was decided, refunded or credited");
    expect((await sys.topUps().get(t.paymentId))?.status).toBe("partial_refund");
    expect(await sys.balance(961)).toBe(100_000);
  });
});
