import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import {
  confirm,
  creditPerson,
  openCategory,
  standInOf,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

const TEMPLATE = /^\[template [a-z0-9_]+\/en(?:_US)?\] /;

/**
 * The 24-hour customer service window: a push that finds it closed goes as the approved utility
 * template, and so does any free-form send WhatsApp answers with 131047.
 */
describe("WhatsApp: outside the 24-hour window, the template", () => {
  // Orders stay pending until the test decides: the window closes while one is under way.
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid" },
    sandbox: { delays: { toPendingMs: 20, toFinalMs: 3_600_000 } },
  });

  it("a success push after the window closed arrives as the template", async () => {
    const u = waCustomer(ts, "9779841000401");
    await creditPerson(ts, waPerson(u.waId), 100_000);
    await openCategory(u, /Mobile top-up/, /Which mobile number/);
    await u.say("9841234567", /How much\?/);
    await u.say("120", /Please check your order/);
    const { receipt, ref } = await confirm(u);
    expect(receipt.kind).not.toBe("template");
    const order = await waitUntil(async () => {
      const o = await ts.system.orders.get(ref);
      return o?.status === "pending" && o.transactionId ? o : null;
    }, "the order pending at the aggregator");

    standInOf(ts).closeWindow(u.waId);
    const sandbox = ts.system.sandbox;
    if (!sandbox) throw new Error("no sandbox");
    sandbox.forceStatus(ts.system.config.sandbox.token, order.transactionId ?? "", "success");
    const push = await u.waitFor((m) => m.text.includes(`Order ${ref} succeeded`), {
      afterWamid: receipt.wamid,
      timeoutMs: 15_000,
    });
    expect(push.kind).toBe("template");
    expect(push.text).toMatch(TEMPLATE);
    expect(push.text).toContain("NTC Prepaid · 9841234567 · Rs 120");
    // Nothing free-form reached the closed window: the stand-in would have refused it.
    const after = u.messages().filter((m) => m.at >= push.at);
    expect(after.every((m) => m.kind === "template")).toBe(true);

    // The customer writes again: the window is open, answers are free-form once more.
    const menu = await u.say("hi", /Choose what you want to pay/);
    expect(menu.kind).toBe("list");
  });

  it("a free-form answer refused with 131047 is sent again as the template", async () => {
    const u = waCustomer(ts, "9779841000402");
    await creditPerson(ts, waPerson(u.waId), 40_000);
    await u.say("hi", /Choose what you want to pay/);
    standInOf(ts).faults.failNextSends(131047, 1, u.waId);
    const sent = standInOf(ts).sendCount();
    const answer = await u.say("balance", /Your balance: Rs 400/);
    expect(answer.kind).toBe("template");
    expect(answer.text).toMatch(TEMPLATE);
    // One accepted message for the answer: the refused send was not counted, nothing was doubled.
    expect(standInOf(ts).sendCount()).toBe(sent + 1);
  });
  it("a message accepted and then failed with 131047 is sent again as the template", async () => {
    const u = waCustomer(ts, "9779841000403");
    await creditPerson(ts, waPerson(u.waId), 30_000);
    const menu = await u.say("hi", /Choose what you want to pay/);
    // Meta also refuses late: the send is accepted, a `failed` status with 131047 follows.
    standInOf(ts).faults.failStatusFor(u.waId, 131047);
    const first = await u.say("balance", /Your balance: Rs 300/);
    expect(first.kind).not.toBe("template");
    const again = await u.waitFor((m) => m.kind === "template", { afterWamid: first.wamid });
    expect(again.text).toMatch(TEMPLATE);
    expect(again.text).toContain("Your balance: Rs 300");
    expect(standInOf(ts).statuses(first.wamid)).toContain("failed");
    // Sent again once: the next answer is the only message after it.
    const history = await u.say("history");
    const after = u.messages().filter((m) => m.at >= again.at && m.wamid !== again.wamid);
    expect(after.map((m) => m.wamid)).toEqual([history.wamid]);
    expect(menu.kind).toBe("list");
  });
});

/**
 * The template's words are in its language through the product's own Bot API client (the words'
 * language rides with the notifier's call, src/telegram/words.ts): an order placed in English,
 * the person choosing Hindi before its outcome (a Hindi template is approved by default).
 */
describe("WhatsApp: the template's words in the template's language", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid" },
    sandbox: { delays: { toPendingMs: 20, toFinalMs: 3_600_000 } },
  });

  it("an English order's push to a person who now reads Hindi: the Hindi template, Hindi words", async () => {
    const u = waCustomer(ts, "9779841000404");
    await creditPerson(ts, waPerson(u.waId), 100_000);
    await openCategory(u, /Mobile top-up/, /Which mobile number/);
    await u.say("9841234567", /How much\?/);
    await u.say("120", /Please check your order/);
    const { receipt, ref } = await confirm(u);
    const order = await waitUntil(async () => {
      const o = await ts.system.orders.get(ref);
      return o?.status === "pending" && o.transactionId ? o : null;
    }, "the order pending at the aggregator");
    await u.say("language", /Choose your language/);
    await u.tap("हिन्दी", "भाषा हिंदी कर दी गई।");

    standInOf(ts).closeWindow(u.waId);
    const sandbox = ts.system.sandbox;
    if (!sandbox) throw new Error("no sandbox");
    sandbox.forceStatus(ts.system.config.sandbox.token, order.transactionId ?? "", "success");
    // Before: [template order_update/hi] ✅ Order … succeeded. (the order's English)
    const push = await u.waitFor((m) => m.text.includes(`ऑर्डर ${ref} सफल रहा।`), {
      afterWamid: receipt.wamid,
      timeoutMs: 15_000,
    });
    expect(push.kind).toBe("template");
    expect(push.text).toMatch(/^\[template [a-z0-9_]+\/hi\] /);
    expect(push.text).not.toContain("succeeded");
  });
});
