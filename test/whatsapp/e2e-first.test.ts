import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

describe("whatsapp smoke", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  it("hi -> menu -> mobile top-up -> success push", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("no stand-in");
    const u = new WhatsAppChatUser(standIn, "9779841000001", { name: "Sita" });
    const menu = await u.say("hi");
    console.log(JSON.stringify(menu, null, 1));
    await ts.system.ledger.transfer({
      id: "wa-credit-1",
      debit: account.merchant.funding,
      credit: account.customer(WA_CHAT_BASE + 9779841000001),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const q = await u.tap(/Mobile/, /Which mobile number/);
    console.log(q.text, q.buttons);
    const op = await u.say("9841234567", /Operator/);
    console.log(op.text, op.buttons);
    console.log(ts.logs.slice(-30).join("\n"));
    const amt = await u.tap(/detected/, /How much/);
    console.log(amt.text, amt.buttons);
    const confirm = await u.say("150", /Please check/);
    console.log(confirm.text, confirm.buttons);
    const after = await u.tap(/Confirm/);
    console.log(after.text);
    console.log(ts.logs.filter((l) => /warn|error/.test(l)).join("\n"));
    const push = await u.standIn.waitForMessage(u.waId, /succeeded/, { timeoutMs: 15000 });
    console.log(push.text);
    console.log(u.texts().join("\n----\n"));
    expect(push.text).toMatch(/succeeded/);
  });
});
