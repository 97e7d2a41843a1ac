import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { ledgerFor, useTestSystem } from "../support/system.ts";
import type { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  confirmUntil,
  creditPerson,
  expectWithinLimits,
  openCategory,
  standInOf,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

const STALE = "This button is no longer active.";

/** How a WhatsApp chat keeps its word: once per message, stale buttons refused, typed numbers. */
describe("WhatsApp: once, stale buttons and typed numbers", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  /** A customer with Rs 1,000 at the confirmation of an Rs 100 NTC top-up. */
  async function toConfirmation(waId: string) {
    const u = waCustomer(ts, waId);
    await creditPerson(ts, waPerson(waId), 100_000);
    await openCategory(u, /Mobile top-up/, /Which mobile number/);
    const amount = await u.say("9841234567", /How much\?/);
    const confirmation = await u.say("100", /Please check your order/);
    return { u, amount, confirmation };
  }

  /** The replies to `u` after `wamid` whose text matches `re`, once the chat has answered `probe`. */
  async function repliesAfter(u: WhatsAppChatUser, wamid: string, re: RegExp) {
    // Messages are handled in order per chat: once "history" is answered, everything before was.
    await u.say("history", /Your last orders|no orders/i);
    const seq = u.messages().findIndex((m) => m.wamid === wamid);
    return u.messages().filter((m, i) => i > seq && re.test(m.text));
  }

  it("a redelivered message is answered once", async () => {
    const u = waCustomer(ts, "9779841000501");
    const menu = await u.say("hi", /Choose what you want to pay/);
    standInOf(ts).faults.duplicateNextWebhooks(1, "messages");
    await u.say("balance", /Your balance/);
    // One answer, though both copies reached the product and were accepted.
    expect(await repliesAfter(u, menu.wamid, /Your balance/)).toHaveLength(1);
    const copies = standInOf(ts)
      .webhookDeliveries()
      .filter((d) => d.body.includes('"body":"balance"'));
    expect(copies.map((d) => d.status)).toEqual([200, 200]);
  });

  it("a redelivered Confirm tap places one order", async () => {
    const { u } = await toConfirmation("9779841000502");
    standInOf(ts).faults.duplicateNextWebhooks(1, "messages");
    const { ref } = await confirmUntil(u, "succeeded");
    expect(await ts.system.orders.listByUser(waPerson(u.waId), 10)).toHaveLength(1);
    expect(ledgerFor(ts, ref)).toHaveLength(1);
    expect(u.texts().filter((t) => t.startsWith("🧾 Order"))).toHaveLength(1);
  });

  it("a tap on an older question or on the confirmation after confirming is no longer active", async () => {
    const { u, amount, confirmation } = await toConfirmation("9779841000503");
    const person = waPerson(u.waId);
    // The amount question was answered: its list is stale now.
    const old = await u.tapOn(amount, "Rs 500", STALE);
    expect(old.text).toBe(STALE);
    const { ref } = await confirmUntil(u, "succeeded");
    const again = await u.tapOn(confirmation, /Confirm/, STALE);
    expect(again.text).toBe(STALE);
    // Neither tap did anything: one order, one debit, Rs 100 spent.
    expect(await repliesAfter(u, again.wamid, /Please check|🧾 Order/)).toEqual([]);
    expect(await ts.system.orders.listByUser(person, 10)).toHaveLength(1);
    expect(ledgerFor(ts, ref)).toHaveLength(1);
    expect(await availableOf(ts, person)).toBe(90_000);
    const holds = (await ts.system.ledger.journal()).entries.filter(
      (e) => e.debit === account.customer(person) && e.kind === "hold",
    );
    expect(holds).toHaveLength(1);
  });

  it("a number typed where a numbered list was shown picks that row; cut labels stay whole", async () => {
    const u = waCustomer(ts, "9779841000504");
    await creditPerson(ts, waPerson(u.waId), 100_000);
    const menu = await u.say("hi", /Choose what you want to pay/);
    expect(u.buttons(menu)[0]).toBe("1. 📱 Mobile top-up");
    await u.say("1", /Which mobile number should I recharge/);
    // The number's series names the operator (issue 30): the amount question comes next.
    const amount = await u.say("9841234567", /9841234567 · NTC Prepaid\nHow much\?/);
    expectWithinLimits(amount);
    const check = await u.say("200", /Please check your order/);
    expect(check.text).toContain("Operator: NTC Prepaid");
    expect(check.text).toContain("Amount: Rs 200");
    // On the amount question the buttons read as amounts: a typed "2" is Rs 2, not the second row.
    await u.tap("‹ Back", /How much\?/);
    const low = await u.say("2");
    expect(low.text).not.toMatch(/Please check your order/);
    expect(low.text).toMatch(/Rs 50/);
  });

  it("speaks Nepali after /language, and a Devanagari greeting is verified and answered", async () => {
    const u = waCustomer(ts, "9779841000505");
    const prompt = await u.say("/language", /Choose your language|भाषा/);
    expect(u.buttons(prompt)).toEqual(["English", "नेपाली", "हिन्दी"]);
    await u.tap("नेपाली", /नेपाली/);
    const menu = await u.say("नमस्ते", /नमस्ते Sita!/);
    expect(menu.text).toContain("के तिर्ने हो छान्नुहोस्");
    expect(u.buttons(menu)).toContain("1. 📱 मोबाइल टप-अप");
    expectWithinLimits(menu);
    // The stand-in signs the \u-escaped bytes as Meta does: the webhook accepted them.
    const posts = standInOf(ts)
      .webhookDeliveries()
      .filter((d) => d.body.includes("\\u0928"));
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((d) => d.status === 200)).toBe(true);
  });

  it("speaks Hindi after /language", async () => {
    const u = waCustomer(ts, "9779841000506", "Ram");
    await u.say("language", /Choose your language/);
    await u.tap("हिन्दी", "भाषा हिंदी कर दी गई।");
    const menu = await u.say("नमस्ते", /नमस्ते Ram!/);
    expect(menu.text).toContain("मैं नेपाल और भारत में");
    expectWithinLimits(menu);
  });
});
