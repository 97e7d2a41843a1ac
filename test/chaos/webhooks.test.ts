import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { isFinal, type Order } from "../../src/orders/model.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { appEnv, deletePrefix, startInProcess } from "../support/chaos/app.ts";
import { audit, auditFigures, problems } from "../support/chaos/audit.ts";
import {
  chaosSecrets,
  countBy,
  pool,
  report,
  secretNeedles,
  waitUntil,
} from "../support/chaos/env.ts";
import { LogCapture, secretFigures } from "../support/chaos/logs.ts";
import { type ProviderServer, startProviderServer } from "../support/chaos/provider.ts";
import { recordEdits } from "../support/chat.ts";
import { attachReceipt } from "../support/orders.ts";
import type { SystemView as System } from "../support/system-view.ts";

/**
 * Provider webhooks as they really come: every event twice, "pending" after the final event, the
 * copies spread over two processes of the product on one Redis (round robin, so the two copies of
 * an event are handled at the same time by different processes), and then every delivery replayed
 * an hour later (the clock of both processes moved on), twice, to both processes. Each real
 * transition reaches the chat once: one push per outcome, receipt edits never repeated or going
 * backwards, and the replays change nothing and cause no status query.
 */

const USERS = Array.from({ length: 10 }, (_, i) => 640_001 + i);
const ORDERS = 40;

describe("webhooks duplicated, reordered, replayed and spread over two processes", () => {
  const secrets = chaosSecrets();
  const logs = new LogCapture();
  const prefix = `chaos:webhooks:${randomUUID().slice(0, 8)}:`;
  let offset = 0;
  const now = () => Date.now() + offset;
  let emu: RunningEmulator;
  let provider: ProviderServer;
  let a: System;
  let b: System;
  const captured: Array<{ body: string; headers: Record<string, string> }> = [];
  const deliveredTo = { a: 0, b: 0 };

  beforeAll(async () => {
    emu = await startBotApiEmulatorServer({ token: secrets.botToken });
    let turn = 0;
    provider = await startProviderServer({
      token: secrets.providerToken,
      logs,
      webhook: { url: "http://127.0.0.1:9/webhooks/provider", secret: secrets.webhookSecret },
      faults: { duplicateWebhooks: true, outOfOrderWebhooks: true },
      sandbox: {
        // The sandbox's deliveries, alternately to each process; every body kept for the replay.
        fetch: async (_url, init) => {
          const headers = init?.headers as Record<string, string>;
          captured.push({ body: String(init?.body), headers });
          const to = turn++ % 2 === 0 ? a : b;
          if (to === a) deliveredTo.a++;
          else deliveredTo.b++;
          return fetch(`${to.url}/webhooks/provider`, init);
        },
      },
    });
    const env = appEnv({ secrets, apiRoot: emu.apiRoot, providerBase: provider.base, prefix });
    a = await startInProcess({ env, logs, source: "a", now, instanceName: "a" });
    // The second process: provider webhook, notifier and reconciler (Telegram updates go to a).
    b = await startInProcess({ env, logs, source: "b", now, instanceName: "b", workers: false });
    b.notifier.start();
    b.reconciler.start();
    for (const u of USERS) emu.emulator.users.upsert(u, {});
  });

  afterAll(async () => {
    logs.save("webhooks");
    await a?.stop();
    await b?.stop();
    await provider?.close();
    await emu?.close();
    await deletePrefix(prefix);
  });

  it("pushes each real transition once, whatever the deliveries", async () => {
    const edits = recordEdits(emu.emulator);
    const endings = ["4321", "0000", "9999", "8888", "1234"];
    const placed = await pool(
      Array.from({ length: ORDERS }, (_, i) => i),
      8,
      async (i) => {
        const user = USERS[i % USERS.length] ?? 0;
        const order = await a.orders.place({
          idempotencyKey: `wh-${i}-${randomUUID()}`,
          userId: user,
          chatId: user,
          locale: "en",
          category: "mobile",
          region: "np",
          operatorId: 5,
          operatorTypeId: 1,
          operatorName: "NTC Prepaid",
          connectionNo: `9841${String(i).padStart(2, "0")}${endings[i % endings.length]}`,
          amountPaisa: 10_000,
          details: {},
        });
        // The receipt the bot shows at confirmation; the notifier edits it on every transition.
        const receipt = await a.bot.api.sendMessage(user, `🧾 Order ${order.reference}`);
        await attachReceipt(a.orders, order.reference, receipt.message_id);
        return a.orders.submit(order.reference);
      },
    );
    const refs = placed.map((o) => o.reference);
    const load = async () =>
      (await Promise.all(refs.map((r) => a.orders.get(r)))).filter((o): o is Order => o !== null);
    await waitUntil(async () => (await load()).every((o) => isFinal(o.status)), "all final", {
      timeoutMs: 30_000,
    });
    await waitUntil(
      async () =>
        (await a.queue.backlog()) === 0 &&
        provider.sandbox
          .deliveries(provider.token)
          .every((d) => d.state !== "scheduled" && d.state !== "sending" && d.state !== "retrying"),
      "deliveries done and notifications drained",
      { timeoutMs: 30_000 },
    );
    await Promise.all([a.webhook.settled(), b.webhook.settled()]);
    const orders = await load();
    const first = audit(
      orders,
      provider.sandbox.ledger(provider.token),
      provider.executes,
      emu.emulator,
      USERS,
    );

    // Receipts: each edit shows a newer status than the one before; never the same text twice.
    const receiptEdits = orders.map((o) => edits.get(`${o.chatId}:${o.receiptMessageId}`) ?? []);
    const repeatedEdits = receiptEdits.filter((list) => new Set(list).size !== list.length);
    const rank = (text: string) =>
      // Queued and pending read alike on a receipt ("with the operator"); "checking" comes first.
      ["checking", "with the operator", "successful|failed"].findIndex((w) =>
        new RegExp(`Status: .*(${w})`).test(text),
      );
    const backwards = receiptEdits.filter((list) =>
      list.some((t, i) => i > 0 && rank(t) <= rank(list[i - 1] ?? "")),
    );
    const notFinalReceipt = orders.filter((o) => {
      const last = edits.get(`${o.chatId}:${o.receiptMessageId}`)?.at(-1) ?? "";
      return !(o.status === "success" ? /successful/ : /failed/).test(last);
    });
    const transitions = orders.reduce(
      (n, o) =>
        n +
        o.history.filter(
          (h) => h.status !== null && h.status !== "placed" && h.status !== "submitting",
        ).length,
      0,
    );
    const chatMessages = () =>
      USERS.reduce((n, u) => n + emu.emulator.chat(u).length, 0) +
      [...edits.values()].reduce((n, l) => n + l.length, 0);

    // An hour later every captured delivery comes again, twice, to both processes at once.
    offset += 3_600_000;
    const messagesBefore = chatMessages();
    const queriesBefore = provider.total(provider.statusQueries);
    const versionsBefore = orders.map((o) => o.version);
    const replays = captured.flatMap((c) => [
      { to: a, ...c },
      { to: b, ...c },
      { to: a, ...c },
      { to: b, ...c },
    ]);
    const answers = await pool(replays, 16, async (r) => {
      const res = await fetch(`${r.to.url}/webhooks/provider`, {
        method: "POST",
        headers: r.headers,
        body: r.body,
      });
      return res.status;
    });
    // And events crafted with an old timestamp: "pending" for every final order, and the opposite
    // outcome for one of them (signed, as only the provider could).
    const old = new Date(now() - 3_600_000).toISOString();
    const crafted = orders.flatMap((o) => [
      {
        status: "pending",
        transaction_id: Number(o.transactionId ?? 0),
        order_id: o.reference,
        timestamp: old,
      },
    ]);
    const victim = orders.find((o) => o.status === "failed" && o.transactionId);
    if (victim) {
      crafted.push({
        status: "success",
        transaction_id: Number(victim.transactionId),
        order_id: victim.reference,
        timestamp: old,
      });
    }
    for (const payload of crafted) {
      const res = await fetch(`${b.url}/webhooks/provider`, {
        method: "POST",
        headers: {
          "x-signature": signature(secrets.webhookSecret),
          "content-type": "application/json",
        },
        body: JSON.stringify({ data: encryptPayload(secrets.webhookSecret, payload) }),
      });
      answers.push(res.status);
    }
    await Promise.all([a.webhook.settled(), b.webhook.settled()]);
    await waitUntil(async () => (await a.queue.backlog()) === 0, "queue drained after replays");
    const after = await load();

    const scan = logs.scan(secretNeedles(secrets));
    report("webhooks: duplicated, reordered, two processes, replayed an hour later", {
      ...auditFigures(first),
      "webhook deliveries (each event twice, pending after final)": captured.length,
      "delivered to process a / b": `${deliveredTo.a} / ${deliveredTo.b}`,
      "recorded transitions (history, queued..final)": transitions,
      "receipt edits": receiptEdits.reduce((n, l) => n + l.length, 0),
      "receipts edited twice to the same text": repeatedEdits.length,
      "receipts edited backwards": backwards.length,
      "receipts not showing the outcome": notFinalReceipt.length,
      "replayed an hour later (to both processes, twice)": replays.length,
      "crafted old-timestamp events": crafted.length,
      "replay answers": countBy(answers, String),
      "chat changes caused by replays": chatMessages() - messagesBefore,
      "status queries caused by replays": provider.total(provider.statusQueries) - queriesBefore,
      "orders changed by replays": after.filter((o, i) => o.version !== versionsBefore[i]).length,
      "contradiction logged (signed opposite outcome)":
        logs.matching(/contradicts a final order/).length,
      ...secretFigures(scan),
    });
    expect(problems(first)).toEqual({});
    expect(deliveredTo.b).toBeGreaterThan(0);
    expect(repeatedEdits).toEqual([]);
    expect(backwards).toEqual([]);
    expect(notFinalReceipt.map((o) => o.reference)).toEqual([]);
    expect(answers.every((s) => s === 200)).toBe(true);
    expect(chatMessages()).toBe(messagesBefore);
    // Replays cost no status query; the signed opposite outcome costs one, its confirmation (the
    // aggregator says otherwise: nothing recorded).
    expect(provider.total(provider.statusQueries)).toBe(queriesBefore + (victim ? 1 : 0));
    expect(after.map((o) => o.status)).toEqual(orders.map((o) => o.status));
    expect(logs.matching(/contradicts a final order/).length).toBeGreaterThanOrEqual(
      victim ? 1 : 0,
    );
    expect(scan.leaks).toEqual([]);
  });
});
