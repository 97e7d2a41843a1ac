import { beforeAll, describe, expect, it } from "vitest";
import type { ApiTap } from "../support/chaos/api-tap.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { freePorts, report, waitUntil } from "../support/chaos/env.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { type RoundRobinProxy, startRoundRobinProxy } from "../support/chaos/proxy.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * A cash-in whose instance dies (SIGKILL) right after telling the customer (issue 25, point 4):
 * the transfer is booked and "Rs 10 was added" is in the customer's chat, Telegram has no answer
 * for the agent's Confirm, so it delivers the Confirm again, through the balancer, to the other
 * instance. That one runs the confirmation once more: it answers the press again, which Telegram
 * refuses (already answered), and that refusal used to end the run with the generic error reply;
 * past it, the transfer answers as a duplicate (booked once), and the run said "Cash-in done" and
 * "Rs 10 was added" a second time. Each side is told once now (a notice mark per transfer and side
 * in Redis), and a stale press answer counts as given (bot/stale-callback.ts).
 */

const AGENT = 695_451;
const ADMIN = 695_452;
const CUSTOMER = 695_453;

describe("a cash-in's instance killed after telling the customer", () => {
  let proxy: RoundRobinProxy;
  let ports: number[] = [];
  let taps: ApiTap[] = [];
  let apps: AppProcess[] = [];
  const stack = useProcessStack("cashin-kill", async () => {
    ports = await freePorts(2);
    proxy = await startRoundRobinProxy(() => ports);
    return {};
  });

  beforeAll(async () => {
    taps = [await stack.tap(), await stack.tap()];
    const env = (i: number) =>
      stack.env(taps[i]?.url ?? "", {
        PORT: String(ports[i]),
        PUBLIC_URL: proxy.url,
        ACCESS_MODE: "prepaid",
        AGENT_IDS: String(AGENT),
        ADMIN_IDS: String(ADMIN),
        // Telegram's answer waits for the Confirm's handling (here: until the kill).
        TELEGRAM_WEBHOOK_ANSWER_MS: "30000",
      });
    apps = [stack.spawn("instance-a", env(0)), stack.spawn("instance-b", env(1))];
    await Promise.all(apps.map((a) => a.ready));
  });

  it("books once and tells each side once after the takeover", async () => {
    const emu = stack.emu.emulator;
    const customer = new ChatUser(emu, CUSTOMER, {}, { timeoutMs: 20_000 });
    const shared = emu.sendContact(CUSTOMER, { phoneNumber: "+9779800695453" });
    await emu.waitForBotMessage(CUSTOMER, /Registered with/, {
      afterId: shared.message_id,
      timeoutMs: 20_000,
    });
    const admin = new ChatUser(emu, ADMIN, {}, { timeoutMs: 20_000 });
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    await admin.say("100", /Credit agent \d+ with/);
    await admin.tap("✅ Confirm", /credited with/);

    const agent = new ChatUser(emu, AGENT, {}, { timeoutMs: 20_000 });
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800695453", /How much cash/);
    await agent.say("10", /Add Rs 10 to the balance/);
    // The customer's "added" is in the chat; its instance dies before hearing back.
    const isAdded = (method: string, p: Record<string, unknown>) =>
      method === "sendMessage" && p.chat_id === CUSTOMER && /was added/.test(String(p.text));
    const holds = taps.map((t) => t.hold(isAdded));
    // Every earlier update delivered: the Confirm is the one left in the queue until it is handled.
    const pending = () => Number(emu.webhookInfo().pending_update_count);
    await waitUntil(() => pending() === 0, "earlier updates delivered");
    const failures = emu.stats().webhookFailures;
    agent.press("✅ Confirm");
    const handler = await Promise.race(holds.map((h, i) => h.reached.then(() => i)));
    const killedAt = Date.now();
    await apps[handler]?.kill("SIGKILL");
    for (const h of holds) h.release();

    // The other instance takes the Confirm over once the dead one's leases lapse; Telegram's
    // delivery of it succeeds (leaves the queue) when that handling is done.
    await waitUntil(() => pending() === 0, "the Confirm handled again", {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(emu.stats().webhookFailures).toBe(failures);
    const told = customer.botTexts().filter((t) => /was added to your balance/.test(t));
    const done = agent.botTexts().filter((t) => /Cash-in done/.test(t));
    report("a cash-in's instance killed after telling the customer", {
      "customer told / agent told": `${told.length} / ${done.length}`,
      "kill -> Confirm handled again (ms)": Date.now() - killedAt,
    });
    expect(told).toHaveLength(1);
    expect(done).toHaveLength(1);
    // The takeover answers the press again (Telegram refuses a second answer): no error reply.
    expect(agent.botTexts().filter((t) => /went wrong/i.test(t))).toEqual([]);
    const shop = await agent.say("/balance", /Your agent balance/);
    expect(shop.text).toContain("Rs 90");
  });
});
