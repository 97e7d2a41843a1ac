import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import type { ApiTap } from "../support/chaos/api-tap.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { audit, auditFigures, problems } from "../support/chaos/audit.ts";
import { freePorts, report, secretNeedles, waitUntil } from "../support/chaos/env.ts";
import { patientMobileOrder } from "../support/chaos/flows.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { type RoundRobinProxy, startRoundRobinProxy } from "../support/chaos/proxy.ts";
import { ChatUser, finalPushes } from "../support/chat.ts";

/**
 * Two instances of the product (child processes) on one Redis, behind a round-robin load balancer
 * that is their PUBLIC_URL: Telegram delivers updates there (webhook mode, both instances called
 * setWebhook), and the aggregator's webhooks go there too. Users order, the aggregator drops some
 * execute answers after committing (the reconciler must decide those) and sends every event twice
 * with "pending" last; then one instance is killed with SIGKILL in the middle of handling an update
 * (which the other takes over) and the other carries on alone.
 */

const USERS = Array.from({ length: 12 }, (_, i) => 690_101 + i);

describe("two processes on one Redis behind a load balancer", () => {
  let proxy: RoundRobinProxy;
  let a: AppProcess;
  let b: AppProcess;
  let ports: number[] = [];
  let taps: ApiTap[] = [];
  // Registered before the stack: runs after it stopped both instances.
  afterAll(async () => {
    await proxy?.close();
  });
  const stack = useProcessStack("two-processes", async (secrets) => {
    ports = await freePorts(2);
    // Both stay in the rotation after one dies, as with a balancer without health checks: a refused
    // connection is skipped over to the next instance.
    proxy = await startRoundRobinProxy(() => ports);
    return {
      webhook: { url: `${proxy.url}/webhooks/provider`, secret: secrets.webhookSecret },
      faults: { commitThenDrop: 0.25, duplicateWebhooks: true, outOfOrderWebhooks: true },
    };
  });
  const { secrets, logs, prefix } = stack;

  beforeAll(async () => {
    // Each instance reaches the Bot API through a tap that can hold one answer (see below).
    taps = [await stack.tap(), await stack.tap()];
    const env = (port: number, apiRoot: string) =>
      stack.env(apiRoot, { PORT: String(port), PUBLIC_URL: proxy.url });
    a = stack.spawn("instance-a", env(ports[0] ?? 0, taps[0]?.url ?? ""));
    await a.ready;
    b = stack.spawn("instance-b", env(ports[1] ?? 0, taps[1]?.url ?? ""));
    await b.ready;
  });

  it("orders, pushes and reconciles once across both, and one carries on when the other dies", async () => {
    const store = createRedisOrderStore({ redis: stack.redis, prefix });
    const webhookInfo = stack.emu.emulator.webhookInfo();
    expect(String(webhookInfo.url)).toContain(proxy.url);
    const known = new Set<string>();
    const users = USERS.map((id) => new ChatUser(stack.emu.emulator, id));
    const round = (k: number) =>
      Promise.all(
        users.map((u, n) =>
          patientMobileOrder(
            u,
            `985${String(u.id).slice(-3)}${(n + k) % 5 === 0 ? "0000" : `${k}${String(n).padStart(3, "0")}`}`,
            "200",
            known,
            { deadlineMs: 120_000 },
          ),
        ),
      );

    const first = await round(1);
    const hitsBeforeKill = Object.fromEntries(proxy.hits);

    // One instance dies while handling a user's update: it has shown the next question and not yet
    // answered Telegram. Telegram delivers the update again, through the balancer, to the other
    // instance, which takes it over once the dead one's lease on it has run out.
    const victim = new ChatUser(stack.emu.emulator, 690_199);
    await victim.say("/recharge", /What would you like to pay/);
    await victim.tap("📱 Mobile top-up", /Which mobile number/);
    const isQuestion = (method: string, p: Record<string, unknown>) =>
      method === "sendMessage" && p.chat_id === victim.id && /^📱 9851690199/.test(String(p.text));
    const holds = taps.map((t) => t.hold(isQuestion));
    victim.emu.sendText(victim.id, "9851690199");
    const handler = await Promise.race(holds.map((h, i) => h.reached.then(() => i)));
    const dying = handler === 0 ? a : b;
    const killedAt = Date.now();
    await dying.kill("SIGKILL");
    const deadAt = Date.now();
    for (const h of holds) h.release();
    const shown = victim.botMessages().filter((m) => /^📱 9851690199/.test(m.text));
    const takenOver = await victim.waitFor(
      (m) => /^📱 9851690199/.test(m.text) && !shown.some((s) => s.id === m.id),
      20_000,
    );
    const takeoverMs = Date.now() - killedAt;
    await victim.say("200", /Please check your order/);
    const victimReceipt = await victim.tap("✅ Confirm", /Order \d+/);
    known.add(/Order (\d+)/.exec(victimReceipt.text)?.[1] ?? "");

    const second = await round(2);
    const everyone = [...USERS, victim.id];
    const allRefs = [...first, ...second].map((r) => r.reference);

    const orders = await waitUntil(
      async () => {
        const list = (await Promise.all(everyone.map((u) => store.listByUser(u, 50)))).flat();
        const pushes = finalPushes(stack.emu.emulator, everyone);
        const done = list.every(
          (o) => (o.status === "success" || o.status === "failed") && pushes.has(o.reference),
        );
        return done ? list : null;
      },
      "every order final and pushed",
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    const settledMs = Date.now() - killedAt;
    const result = audit(
      orders as Order[],
      stack.provider.sandbox.ledger(secrets.providerToken),
      stack.provider.executes,
      stack.emu.emulator,
      everyone,
    );
    // Pushes are at least once (README, Reliability): a push the killed instance had sent in the
    // moment before the kill, Telegram having answered but its sent marker not yet written, is
    // sent again by the other instance once the dead one's lock runs out. Only that repeat is
    // allowed: the first copy went through the dying instance's tap within a second before the
    // kill, and there are exactly two.
    const dyingSent = taps[handler]?.sent ?? [];
    const killRepeats = result.duplicatePushes.filter((ref) => {
      const copies = finalPushes(stack.emu.emulator, everyone).get(ref)?.outcomes.length ?? 0;
      const before = dyingSent.filter(
        (m) =>
          new RegExp(`Order ${ref} (succeeded|failed)`).test(m.text) &&
          m.at <= deadAt &&
          deadAt - m.at <= 1_000,
      );
      return copies === 2 && before.length === 1;
    });
    result.duplicatePushes = result.duplicatePushes.filter((ref) => !killRepeats.includes(ref));
    const decidedBy = (orders as Order[]).reduce<Record<string, number>>((acc, o) => {
      const h = o.history.find((x) => x.status === o.status);
      const key = h?.source ?? "?";
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
    const stats = stack.emu.emulator.stats();
    const scan = logs.scan(secretNeedles(secrets));
    report("two instances on one Redis, Telegram webhook mode behind a round-robin balancer", {
      "users / orders": `${USERS.length} / ${orders.length}`,
      "orders placed before / after one instance was killed": `${first.length} / ${second.length}`,
      "update the dead instance was handling: taken over by the other after (ms)": takeoverMs,
      "requests per instance before the kill (port: count)": hitsBeforeKill,
      "requests per instance in total (port: count)": Object.fromEntries(proxy.hits),
      "balancer: refused connections skipped / 502 answered": `${proxy.refusedSkips} / ${proxy.badGateway}`,
      "Telegram webhook deliveries / failures (retried)": `${stats.webhookDeliveries} / ${stats.webhookFailures}`,
      "execute answers dropped after commit (share)": 0.25,
      "decided by": decidedBy,
      ...auditFigures(result),
      "pushes repeated because the kill fell between Telegram's answer and the sent marker":
        killRepeats.length,
      "kill -> all final and pushed (ms)": settledMs,
      ...secretFigures(scan),
    });
    expect(Object.keys(hitsBeforeKill)).toHaveLength(2);
    expect(takenOver.inlineKeyboard?.flat().some((b) => b.text === "Rs 100")).toBe(true);
    expect(allRefs.every((r) => orders.some((o) => o.reference === r))).toBe(true);
    expect(problems(result)).toEqual({});
    expect(killRepeats.length).toBeLessThanOrEqual(1);
    expect(scan.leaks).toEqual([]);
  });
});
