import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeys, REDIS_URL, startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The bot process restarts in the middle of a flow, with sessions and conversation state in real
 * Redis: the user just types the next answer and the flow goes on where it was, in the language the
 * user chose, and completes. A redelivered Confirm press never places a second order.
 */
describe("restart mid-conversation (Redis), end to end", () => {
  const started: TestSystem[] = [];
  let prefix = "";
  afterAll(async () => {
    for (const ts of started) await ts.stop();
    if (prefix) await deleteKeys(prefix);
  });

  it("continues the flow after a restart and ignores a redelivered Confirm", async () => {
    const first = await startTestSystem({ redis: true });
    started.push(first);
    prefix = first.prefix;
    const before = first.user(971, { first_name: "Hari", language_code: "en" });
    await before.say("/language", /Choose your language/);
    before.press("नेपाली");
    await before.waitFor("भाषा नेपाली राखियो।");
    await before.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    await before.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर/);
    await before.say("9841000971", /9841000971 · NTC Prepaid\nकति\?/);

    // The session and the conversation in progress are in Redis under this process's prefix.
    const redis = new Redis(REDIS_URL);
    try {
      const session = await redis.get(`${prefix}session:971`);
      expect(JSON.parse(session ?? "{}")).toMatchObject({ locale: "ne" });
      expect(await redis.exists(`${prefix}conversation:971`)).toBe(1);
      expect(await redis.ttl(`${prefix}conversation:971`)).toBeGreaterThan(0);

      await first.stop();
    } finally {
      redis.disconnect();
    }

    const second = await startTestSystem({ redis: true, prefix });
    started.push(second);
    // A new emulator: the chat starts empty; the user simply types the amount that was asked for.
    const after = second.user(971, { first_name: "Hari", language_code: "en" });
    const confirm = await after.say("150", /कृपया आफ्नो अर्डर जाँच्नुहोस्:/);
    expect(confirm.text).toContain("अपरेटर: NTC Prepaid");
    expect(confirm.text).toContain("नम्बर / खाता: 9841000971");
    expect(confirm.text).toContain("रकम: रु 150");

    const press = after.emu.clickButton(971, "✅ पुष्टि");
    const receipt = await after.emu.waitForBotMessage(971, /🧾 अर्डर \d+/, { afterId: confirm.id });
    const ref = /अर्डर (\d+)/.exec(receipt.text)?.[1];
    await after.waitFor(new RegExp(`✅ अर्डर ${ref} सफल भयो।`));

    // The same Confirm update delivered again (a Telegram retry): ignored, not even answered.
    after.emu.redeliver(press.update_id);
    // Updates of a chat are handled in order: once /start is answered, the redelivery was handled.
    const welcome = await after.say("/start", /नमस्ते Hari!/);
    expect(welcome.text).toContain("के तिर्ने हो छान्नुहोस्");
    // Handled once: one answer to that callback query (a second attempt would be recorded, failed).
    const answered = after.emu
      .calls("answerCallbackQuery")
      .filter((c) => c.params.callback_query_id === press.callback_query_id);
    expect(answered.map((c) => c.ok)).toEqual([true]);
    expect(after.botTexts().join("\n")).not.toContain("गडबड");

    const orders = await second.system.orders.listByUser(971, 10);
    expect(
      orders.map((o) => [o.reference, o.connectionNo, o.amountPaisa, o.status, o.locale]),
    ).toEqual([[ref, "9841000971", 15000, "success", "ne"]]);
    const ledger = second.system.sandbox!.ledger(second.system.config.sandbox.token);
    expect(ledger.filter((r) => r.connectionNo === "9841000971")).toHaveLength(1);
  });
});
