import { describe, expect, it } from "vitest";
import { report, secretNeedles, sleep } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import type { Outage } from "../support/chaos/provider.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * The aggregator goes away for a minute, in the three ways it can (20 s each): a gateway answering 503
 * with an HTML page, a server that accepts and never answers, and a closed port. Conversations that
 * reach a lookup meanwhile show the friendly "not answering, your answers are kept" message with a
 * Retry button, as often as the user presses it, and continue with everything typed so far once it
 * is back; an order confirmed during the outage ends "failed, nothing charged" (the aggregator
 * never saw it) rather than hanging; lookups work again without restarting anything.
 */

const FRIENDLY = /The recharge service is not answering right now\. Your answers are kept/;
const PHASE_MS = 20_000;
const AGENT = 650_900;

describe("the aggregator down for a while", () => {
  const stack = useChaosStack("aggregator-down", {
    extra: {
      AGENT_IDS: String(AGENT),
      PROVIDER_LOOKUP_TIMEOUT_MS: "1000",
      PROVIDER_MAX_RETRIES: "1",
    },
  });
  const { secrets, logs } = stack;

  it("shows a friendly try-again with Retry, keeps the answers and recovers without a restart", async () => {
    const water = new ChatUser(stack.emu.emulator, 650_001);
    const pack = new ChatUser(stack.emu.emulator, 650_002);
    const buyer = new ChatUser(stack.emu.emulator, 650_003);
    const agent = new ChatUser(stack.emu.emulator, AGENT);

    // While the aggregator is up: each gets as far as the step before a lookup.
    await water.say("/recharge", /What would you like to pay/);
    await water.tap("🚰 Water bill", /which office is your water connection with/);
    await water.say("kamaladi", /customer id at KUKL Kamaladi/);
    await water.say("123456", /For which month\?/);
    await pack.say("/recharge", /What would you like to pay/);
    await pack.tap("📶 Data pack", /Which mobile number is the pack for/);
    await pack.say("9801234567", /9801234567 is an Ncell number/);
    await buyer.say("/recharge", /What would you like to pay/);
    await buyer.tap("📱 Mobile top-up", /Which mobile number/);
    await buyer.say("9841650003", /How much\?/);
    await buyer.say("300", /Please check your order/);

    const friendly: Record<string, number> = {};
    const seen = (u: ChatUser) => u.botMessages().filter((m) => FRIENDLY.test(m.text)).length;
    const started = Date.now();
    const phases: Outage[] = ["503", "hang", "refused"];
    let buyerRef = "";
    for (const [i, phase] of phases.entries()) {
      const phaseStart = Date.now();
      await stack.provider.setOutage(phase);
      if (i === 0) {
        // The first touch of each conversation meets the outage.
        await water.tap("Kartik", FRIENDLY, 15_000);
        await pack.tap("📶 Data", FRIENDLY, 15_000);
        await agent.say("/status 99887766", FRIENDLY, 15_000);
        const receipt = await buyer.tap("✅ Confirm", /Order \d+/, 15_000);
        buyerRef = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
      } else {
        // Retry, pressed in every phase, meets the outage again: the same friendly answer.
        for (const u of [water, pack, agent]) await u.tap("🔄 Retry", FRIENDLY, 15_000);
      }
      friendly[phase] = [water, pack, agent].reduce((n, u) => n + seen(u), 0);
      await sleep(Math.max(0, PHASE_MS - (Date.now() - phaseStart)));
    }
    const downMs = Date.now() - started;
    await stack.provider.setOutage("up");

    // Back: Retry continues each conversation with the answers given before the outage.
    const bill = await water.tap("🔄 Retry", /Water bill of/, 15_000);
    expect(bill.text).toContain("(Kartik)");
    await water.waitFor(/Pay the due of/);
    await water.tap(/Pay the due/, /Please check your order/);
    const confirm = await water.emu.waitForBotMessage(water.id, /Please check your order/);
    expect(confirm.text).toContain("Number / account: 123456");
    expect(confirm.text).toContain("Office: KUKL Kamaladi");
    const receipt = await water.tap("✅ Confirm", /Order \d+/);
    const waterRef = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
    const list = await pack.tap("🔄 Retry", /Ncell Data packs for 9801234567/, 15_000);
    expect(list.inlineKeyboard?.flat().length).toBeGreaterThan(2);
    const status = await agent.tap("🔄 Retry", /I found no order with that number/, 15_000);
    expect(status.text).not.toMatch(FRIENDLY);

    // A fresh lookup works at once: no restart, no stuck connection.
    const fresh = new ChatUser(stack.emu.emulator, 650_004);
    await fresh.say("/recharge", /What would you like to pay/);
    const offices = await fresh.tap("🚰 Water bill", /which office is your water connection with/);
    expect(offices.text).not.toMatch(FRIENDLY);

    // The order confirmed during the outage: never reached the aggregator, so it fails, uncharged.
    const failed = await buyer.waitFor(new RegExp(`Order ${buyerRef} failed`), 30_000);
    expect(failed.text).toContain("Nothing was charged");
    const waterDone = await water.waitFor(new RegExp(`Order ${waterRef} succeeded`), 30_000);
    const ledger = stack.provider.sandbox.ledger(secrets.providerToken);
    const buyerOrder = await stack.app.orders.get(buyerRef);

    const everyone = [water, pack, buyer, agent, fresh];
    const errors = everyone.flatMap((u) =>
      u.botMessages().filter((m) => /Something went wrong/.test(m.text)),
    );
    const scan = logs.scan(secretNeedles(secrets));
    report("aggregator down (503 page, then no answer, then connection refused)", {
      "outage (ms)": downMs,
      "phases (ms each)": `${phases.join(", ")} (${PHASE_MS} each)`,
      "friendly try-again messages shown, cumulative per phase": friendly,
      "conversations continued after recovery with earlier answers": 3,
      "order confirmed during the outage": buyerOrder?.status ?? "?",
      "its execute outcome": buyerOrder?.history.find((h) => h.source === "execute")?.note ?? "?",
      "its ledger rows": ledger.filter((r) => r.referenceNo === buyerRef).length,
      "order after recovery": waterDone ? "success" : "?",
      "'something went wrong' messages": errors.length,
      "restarts needed": 0,
      ...secretFigures(scan),
    });
    expect(friendly.refused).toBe(9);
    expect(ledger.filter((r) => r.referenceNo === buyerRef)).toEqual([]);
    expect(buyerOrder?.status).toBe("failed");
    expect(errors).toEqual([]);
    expect(scan.leaks).toEqual([]);
  });
});
