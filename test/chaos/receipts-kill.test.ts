import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { freePorts, report, waitUntil } from "../support/chaos/env.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { type RoundRobinProxy, startRoundRobinProxy } from "../support/chaos/proxy.ts";
import { ChatUser, finalPushes, refOf } from "../support/chat.ts";

/**
 * Both instances killed (SIGKILL) in the middle of orders (issue 25, point 4): every user has
 * tapped Confirm and seen the receipt ("⏳ processing"), each execute has reached the aggregator,
 * which holds its answer, and then both processes die before Telegram got its webhook answer. Two
 * new instances start on the same ports behind the balancer; Telegram delivers each Confirm again,
 * and the instance that takes it over runs the confirmation once more. That run used to send a
 * second receipt and make the order name it, so the first receipt said "processing" for good
 * (8 of 8 orders). Now the order's receipt is kept: one receipt per order, edited to its outcome,
 * and one execute per order.
 */

const USERS = Array.from({ length: 4 }, (_, i) => 695_401 + i);

describe("both instances killed mid-order: every receipt ends final", () => {
  let proxy: RoundRobinProxy;
  let ports: number[] = [];
  let released: () => void = () => {};
  const killed = new Promise<void>((resolve) => {
    released = resolve;
  });
  afterAll(async () => {
    released();
    await proxy?.close();
  });
  const stack = useProcessStack(
    "receipts-kill",
    async (secrets) => {
      ports = await freePorts(2);
      proxy = await startRoundRobinProxy(() => ports);
      return {
        webhook: { url: `${proxy.url}/webhooks/provider`, secret: secrets.webhookSecret },
        // Every execute is applied, and its answer held until both instances are dead.
        plan: () => ({ afterCommit: () => killed }),
      };
    },
    // Telegram keeps redelivering while the instances restart (a child process takes seconds).
    { webhook: { retryDelaysMs: [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000] } },
  );
  const { prefix } = stack;
  const env = (port: number) =>
    stack.env(stack.emu.apiRoot, {
      PORT: String(port),
      PUBLIC_URL: proxy.url,
      // Telegram's answer waits for the Confirm (until the kill); the execute does not time out.
      TELEGRAM_WEBHOOK_ANSWER_MS: "30000",
      PROVIDER_EXECUTE_TIMEOUT_MS: "30000",
    });
  let first: AppProcess[] = [];

  beforeAll(async () => {
    first = [
      stack.spawn("instance-a", env(ports[0] ?? 0)),
      stack.spawn("instance-b", env(ports[1] ?? 0)),
    ];
    await Promise.all(first.map((p) => p.ready));
  });

  it("keeps one receipt per order and edits it to the outcome after the takeover", async () => {
    const users = USERS.map(
      (id) => new ChatUser(stack.emu.emulator, id, {}, { timeoutMs: 20_000 }),
    );
    const confirms = await Promise.all(
      users.map((u, i) => u.mobileToConfirm(`98516954${i}1`, "200")),
    );
    users.forEach((u, i) => {
      u.emu.clickButton(u.id, "✅ Confirm", { messageId: confirms[i]?.id });
    });
    // Every receipt shown and every execute at the aggregator (its answer held): mid-order.
    await waitUntil(
      () =>
        users.every((u) => u.botMessages().some((m) => /^🧾 Order \d+/.test(m.text))) &&
        stack.provider.executes.size === users.length,
      "every receipt shown and every execute sent",
      { timeoutMs: 60_000 },
    );
    const killedAt = Date.now();
    await Promise.all(first.map((p) => p.kill("SIGKILL")));
    released();
    const second = [
      stack.spawn("instance-c", env(ports[0] ?? 0)),
      stack.spawn("instance-d", env(ports[1] ?? 0)),
    ];
    await Promise.all(second.map((p) => p.ready));

    const store = createRedisOrderStore({ redis: stack.redis, prefix });
    const receiptsOf = (u: ChatUser): TranscriptEntry[] =>
      u.botMessages().filter((m) => /^🧾 Order \d+/.test(m.text));
    const orders = await waitUntil(
      async () => {
        const list = (await Promise.all(USERS.map((id) => store.listByUser(id, 10)))).flat();
        const pushes = finalPushes(stack.emu.emulator, USERS);
        const settled =
          list.length === users.length &&
          list.every(
            (o) => (o.status === "success" || o.status === "failed") && pushes.has(o.reference),
          );
        // The receipt edits follow the pushes (README, "What each part guarantees").
        const edited = users.every((u) => receiptsOf(u).every((m) => !/⏳/.test(m.text)));
        return settled && edited ? list : null;
      },
      "every order final, pushed and its receipts edited",
      { timeoutMs: 120_000, intervalMs: 250 },
    ).catch(() => null);

    const perUser = users.map((u) => receiptsOf(u).map((m) => m.text.split("\n")[0]));
    const stuck = users.flatMap((u) => receiptsOf(u).filter((m) => /⏳/.test(m.text)));
    report("both instances killed mid-order, two new ones take the Confirms over", {
      "users / orders": `${users.length} / ${orders?.length ?? "not all final"}`,
      "receipts per user": perUser.map((r) => r.length),
      "receipts left at processing": stuck.length,
      "kill -> all final, pushed and edited (ms)": Date.now() - killedAt,
    });
    expect(orders).not.toBeNull();
    for (const [i, u] of users.entries()) {
      const refs = (orders ?? []).filter((o) => o.userId === u.id).map((o) => o.reference);
      expect(refs).toHaveLength(1);
      expect(perUser[i]).toEqual([`🧾 Order ${refs[0]}`]);
      expect(stack.provider.executes.get(refs[0] ?? "")).toBe(1);
      expect(refOf(receiptsOf(u)[0]?.text ?? "")).toBe(refs[0]);
    }
    expect(stuck).toEqual([]);
  });
});
