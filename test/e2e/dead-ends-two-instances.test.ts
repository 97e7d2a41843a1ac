import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import { account } from "../../src/ledger/index.ts";
import { useInstancePair } from "../support/chaos/pair.ts";
import { ChatUser } from "../support/chat.ts";
import { serveKhaltiStandIn } from "../support/khalti.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Issue 30, "Add Rs X and continue" across instances: two instances on one Redis behind a
 * round-robin balancer, so the shortfall, the top-up, the credited notice's Continue and the
 * Confirm reach the instances in turn. The waiting confirmation (the conversation's state) and
 * the top-up are in Redis: whichever instance gets Continue brings the same order back, once.
 */
const CUSTOMER = 695_401;

let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
// Started before the pair (hooks run in order), whose environment reads its URL when it starts.
beforeAll(async () => {
  khalti = await serveKhaltiStandIn();
});
afterAll(async () => {
  await khalti?.close();
});

describe("a shortfall added and continued at two instances", () => {
  const pair = useInstancePair("dead-ends-topup", {
    extra: {
      TELEGRAM_WEBHOOK_ANSWER_MS: "150",
      ACCESS_MODE: "prepaid",
      KHALTI_SECRET_KEY: STANDIN_SECRET_KEY,
      TOPUP_LOOKUP_INTERVAL_MS: "150",
      get KHALTI_BASE_URL() {
        return khalti.apiUrl;
      },
    },
  });

  it("the credited notice's Continue, at either instance, brings the same confirmation back", async () => {
    const u = new ChatUser(pair.emu.emulator, CUSTOMER);
    const shared = u.emu.sendContact(CUSTOMER, { phoneNumber: "+9779800695401" });
    await u.emu.waitForBotMessage(CUSTOMER, /Registered with/, { afterId: shared.message_id });
    const funded = await pair.a.ledger.transfer({
      id: "dead-ends-two-instances",
      debit: account.merchant.funding,
      credit: account.customer(CUSTOMER),
      amountPaisa: 5_000,
      kind: "credit",
    });
    expect(funded.ok).toBe(true);

    const short = await u.mobileToConfirm("9851695401", "200", /short/);
    expect(short.text).toContain("Rs 150 short");
    const pay = await u.tap("➕ Add Rs 150 and continue", /Pay with Khalti/);
    const link = pay.inlineKeyboard?.flat().find((b) => b.text === "Pay with Khalti");
    const pidx = new URL(link!.url!).searchParams.get("pidx")!;
    khalti.standIn.act(pidx, "pay");
    const credited = await u.waitFor(/added to your balance/, 15_000);
    expect(u.buttons(credited)).toEqual(["▶ Continue my order"]);
    const confirm = await u.tap("▶ Continue my order", /Please check your order/, 15_000);
    expect(confirm.text).toContain("9851695401");
    expect(confirm.text).toContain("Balance after: Rs 0");
    const { ref } = await u.confirm();
    await u.waitFor(new RegExp(`Order ${ref} (succeeded|failed)`), 20_000);

    // One credit of the top-up, one order; the balance is what the outcome leaves.
    const credits = (await pair.a.ledger.journal()).entries.filter((e) => e.id.includes(pidx));
    expect(credits).toHaveLength(1);
    const orders = await pair.a.orders.listByUser(CUSTOMER, 10);
    expect(orders.map((o) => o.reference)).toEqual([ref]);
    await waitUntil(async () => (await pair.a.ledger.check()).ok, "the books agree");
  });
});
