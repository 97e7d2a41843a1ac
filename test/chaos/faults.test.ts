import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/model.ts";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../src/playground/emulator/index.ts";
import type { System } from "../../src/system.ts";
import { appEnv, deletePrefix, startInProcess } from "./support/app.ts";
import { audit, auditFigures, problems } from "./support/audit.ts";
import { finalPushes } from "./support/chat.ts";
import {
  chaosSecrets,
  countBy,
  pool,
  report,
  secretNeedles,
  seeded,
  waitUntil,
} from "./support/env.ts";
import { LogCapture, secretFigures } from "./support/logs.ts";
import { type ProviderServer, startProviderServer } from "./support/provider.ts";

/**
 * 1,000 orders while the aggregator makes the execute outcome ambiguous: it commits and resets the
 * connection, commits and answers 5xx, commits and answers after the client's timeout, or gets the
 * request only after the client gave up; some requests fail with 5xx before anything is applied,
 * and every webhook comes twice with "pending" after the final event. The product (in this process,
 * through startSystem, with its notifier and reconciler) must execute each reference once, end
 * every order final, agree with the aggregator's ledger on money, and push each outcome once.
 */

const ORDERS = 1_000;
const USERS = 250;
const FIRST_USER = 610_001;
/**
 * The reconciler believes "no such reference" only once execute timeout + grace (= the timeout)
 * have passed since the request left; the late commits below land well inside that window.
 */
const EXECUTE_TIMEOUT_MS = 2_000;

describe("faults: 1,000 orders with ambiguous execute outcomes", () => {
  const secrets = chaosSecrets();
  const logs = new LogCapture();
  const prefix = `chaos:faults:${randomUUID().slice(0, 8)}:`;
  let emu: RunningEmulator;
  let provider: ProviderServer;
  let app: System;
  const planned = { lateCommit: 0, slowAnswer: 0 };
  const arrivedAt = new Map<string, number>();

  beforeAll(async () => {
    emu = await startBotApiEmulatorServer({ token: secrets.botToken, callLogLimit: 100 });
    const dice = seeded(20_250_801);
    provider = await startProviderServer({
      token: secrets.providerToken,
      logs,
      faults: {
        commitThenDrop: 0.12,
        commitThen5xx: 0.12,
        errorRate5xx: 0.03,
        duplicateWebhooks: true,
        outOfOrderWebhooks: true,
      },
      sandbox: { random: seeded(7) },
      plan: (ref) => {
        arrivedAt.set(ref, Date.now());
        const roll = dice();
        if (roll < 0.08) {
          planned.slowAnswer++;
          return { afterMs: EXECUTE_TIMEOUT_MS + 500 };
        }
        if (roll < 0.13) {
          planned.lateCommit++;
          return { beforeMs: EXECUTE_TIMEOUT_MS + 200 };
        }
        return undefined;
      },
    });
    app = await startInProcess({
      env: appEnv({
        secrets,
        apiRoot: emu.apiRoot,
        providerBase: provider.base,
        prefix,
        extra: { PROVIDER_EXECUTE_TIMEOUT_MS: String(EXECUTE_TIMEOUT_MS) },
      }),
      logs,
    });
    provider.sandbox.setWebhook(secrets.providerToken, {
      url: `${app.url}/webhooks/provider`,
      secret: secrets.webhookSecret,
    });
    for (let u = 0; u < USERS; u++) emu.emulator.users.upsert(FIRST_USER + u, { first_name: "F" });
  });

  afterAll(async () => {
    logs.save("faults");
    await app?.stop();
    await provider?.close();
    await emu?.close();
    await deletePrefix(prefix);
  });

  it("executes each reference once, ends every order final and pushes each outcome once", async () => {
    const ending = (i: number) =>
      ["0000", "9999", "8888"][i % 10] ?? `12${String(i % 100).padStart(2, "0")}`;
    const started = Date.now();
    const placed = await pool(
      Array.from({ length: ORDERS }, (_, i) => i),
      25,
      async (i) => {
        const user = FIRST_USER + (i % USERS);
        const order = await app.orders.place({
          idempotencyKey: `faults-${i}-${randomUUID()}`,
          userId: user,
          chatId: user,
          locale: "en",
          category: "mobile",
          region: "np",
          operatorId: 5,
          operatorTypeId: 1,
          operatorName: "NTC Prepaid",
          connectionNo: `986${String(i).padStart(3, "0")}${ending(i)}`,
          amountPaisa: 10_000 + (i % 50) * 100,
          details: {},
        });
        return app.orders.submit(order.reference);
      },
    );
    const submittedMs = Date.now() - started;
    const refs = placed.map((o) => o.reference);
    expect(new Set(refs).size).toBe(ORDERS);

    // The reconciler's window: execute timeout + grace (= timeout) after the request left, plus ticks.
    await waitUntil(
      async () =>
        (await app.store.listOpen({ createdBefore: Date.now() + 60_000, limit: 10 })).length === 0,
      "every order final",
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const finalMs = Date.now() - started;
    const users = Array.from({ length: USERS }, (_, u) => FIRST_USER + u);
    await waitUntil(
      async () =>
        (await app.queue.backlog()) === 0 && finalPushes(emu.emulator, users).size >= ORDERS,
      "every outcome pushed and the queue drained",
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const notifiedMs = Date.now() - started;

    const orders = (await Promise.all(refs.map((r) => app.orders.get(r)))).filter(
      (o): o is Order => o !== null,
    );
    expect(orders).toHaveLength(ORDERS);

    const ledger = provider.sandbox.ledger(secrets.providerToken);
    const result = audit(orders, ledger, provider.executes, emu.emulator, users);
    const neverSent = refs.filter((r) => (provider.executes.get(r) ?? 0) === 0);
    const executeOutcome = countBy(orders, (o) => {
      const e = o.history.find((h) => h.source === "execute");
      return e?.note ?? e?.status ?? "none (already final when the answer came)";
    });
    const decidedBy = countBy(orders, (o) => {
      const h = o.history.find((x) => x.status === o.status);
      return `${h?.source ?? "?"}${h?.note ? ` (${h.note})` : ""}`;
    });
    const faultLines = countBy(logs.matching(/sandbox fault/), ({ line }) =>
      line.includes("dropped") ? "commit then reset" : "commit then 5xx",
    );
    const secretScan = logs.scan(secretNeedles(secrets));
    report("faults: 1,000 orders, ambiguous execute outcomes", {
      orders: ORDERS,
      users: USERS,
      "injected: commit then reset": faultLines["commit then reset"] ?? 0,
      "injected: commit then 5xx": faultLines["commit then 5xx"] ?? 0,
      "injected: answer after client timeout (commit first)": planned.slowAnswer,
      "injected: request reaches aggregator after client timeout": planned.lateCommit,
      "injected: 5xx before commit (share)": 0.03,
      "webhooks: each twice, pending after final": true,
      "execute outcome seen by the bot": executeOutcome,
      "final status": countBy(orders, (o) => o.status),
      "decided by": decidedBy,
      "execute requests": provider.total(provider.executes),
      "ledger rows": ledger.length,
      "status queries": provider.total(provider.statusQueries),
      ...auditFigures(result),
      "all submitted after (ms)": submittedMs,
      "all final after (ms)": finalMs,
      "all pushed after (ms)": notifiedMs,
      "longest wait, marked submitting -> request at aggregator (ms)": Math.max(
        ...orders.map((o) => (arrivedAt.get(o.reference) ?? 0) - (o.submittedAt ?? 0)),
      ),
      "provider contradicting a final order (error log)":
        logs.matching(/contradicts a final order/).length,
      ...secretFigures(secretScan),
    });

    expect(problems(result)).toEqual({});
    expect(neverSent).toEqual([]);
    // The faults really happened: every ambiguous kind was seen by the bot.
    expect(Object.keys(executeOutcome).join(",")).toMatch(/timeout/);
    expect(Object.keys(executeOutcome).join(",")).toMatch(/server_error/);
    expect(Object.keys(executeOutcome).join(",")).toMatch(/network/);
    expect(secretScan.leaks).toEqual([]);
  });
});
