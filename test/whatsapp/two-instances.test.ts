import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningStandIn, startWhatsAppStandInServer } from "../../dev/whatsapp/index.ts";
import { account } from "../../src/ledger/index.ts";
import { useInstancePair } from "../support/chaos/pair.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { waPerson } from "../support/whatsapp-steps.ts";

/**
 * Two instances on one Redis behind a round-robin balancer, as production runs them: the
 * WhatsApp stand-in runs on a server of its own (both instances send there, WHATSAPP_* as a
 * merchant sets them) and POSTs its webhooks to the balancer, so a customer's consecutive messages
 * reach the two instances in turn. The durable queue hands each message to one of them, once, in
 * the chat's order.
 */
const WA = {
  phoneNumberId: "100000000000077",
  accessToken: "pair-whatsapp-access-token",
  appSecret: "pair-whatsapp-app-secret-0123456789",
  verifyToken: "pair-whatsapp-verify-token",
};

describe("WhatsApp on two instances behind a balancer", () => {
  let graph: RunningStandIn | undefined;
  // Filled before the pair starts (its beforeAll runs after this one, and reads `extra` then).
  const extra: Record<string, string> = {
    ACCESS_MODE: "prepaid",
    WHATSAPP_PHONE_NUMBER_ID: WA.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: WA.accessToken,
    WHATSAPP_APP_SECRET: WA.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA.verifyToken,
  };
  beforeAll(async () => {
    graph = await startWhatsAppStandInServer(WA);
    extra.WHATSAPP_API_ROOT = graph.graphRoot;
  });
  const pair = useInstancePair("whatsapp", { extra });
  afterAll(async () => {
    await graph?.close();
  });

  /** The stand-in, its webhooks going to the balancer (known once the pair started). */
  const standIn = () => {
    if (!graph) throw new Error("the stand-in did not start");
    graph.standIn.setWebhookUrl(`${pair.proxy.url}/webhooks/whatsapp`);
    return graph.standIn;
  };

  it("handles a customer's messages in order, each once, whichever instance received them", async () => {
    const u = new WhatsAppChatUser(standIn(), "9779841000801", { name: "Hari", timeoutMs: 15_000 });
    await pair.a.ledger.transfer({
      id: "wa-pair-credit",
      debit: account.merchant.funding,
      credit: account.customer(waPerson(u.waId)),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const hitsBefore = [...pair.proxy.hits.values()].reduce((a, b) => a + b, 0);
    // Three messages sent at once: each is an answer to the question the previous one brings.
    const first = await standIn().userSends({ waId: u.waId, name: "Hari" }, "hi");
    await standIn().userSends({ waId: u.waId, name: "Hari" }, "1");
    await standIn().userSends({ waId: u.waId, name: "Hari" }, "9841234567");
    await u.waitFor(/9841234567 · NTC Prepaid/, { afterWamid: first });
    expect(u.texts().map((t) => t.split("\n")[0])).toEqual([
      expect.stringMatching(/^Namaste Hari!/),
      expect.stringMatching(/Which mobile number should I recharge/),
      "📱 9841234567 · NTC Prepaid",
    ]);
    await u.say("150", /Please check your order/);
    const receipt = await u.tap(/Confirm/, /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
    await u.waitFor((m) => m.text.includes(`Order ${ref} succeeded`), { timeoutMs: 20_000 });

    // Each message was answered once: no question or receipt twice.
    const firstLines = u.texts().map((t) => t.split("\n")[0]);
    expect(new Set(firstLines).size).toBe(firstLines.length);
    expect(await pair.a.orders.listByUser(waPerson(u.waId), 10)).toHaveLength(1);
    expect(pair.provider.sandbox.ledger(pair.secrets.providerToken)).toHaveLength(1);
    // The balancer spread the webhooks over both instances.
    const hits = [...pair.proxy.hits.values()];
    expect(hits.reduce((a, b) => a + b, 0) - hitsBefore).toBeGreaterThanOrEqual(6);
    expect(hits.filter((n) => n > 0)).toHaveLength(2);
  });
});
