import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/model.ts";
import { audit, auditFigures, problems } from "../support/chaos/audit.ts";
import { countBy, pool, report, secretNeedles, seeded, waitUntil } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { finalPushes } from "../support/chat.ts";
import { mobileInput } from "../support/orders.ts";

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
  const planned = { lateCommit: 0, slowAnswer: 0 };
  const arrivedAt = new Map<string, number>();
  const dice = seeded(20_250_801);
  const stack = useChaosStack("faults", {
    emulator: { callLogLimit: 100 },
    provider: {
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
    },
    extra: { PROVIDER_EXECUTE_TIMEOUT_MS: String(EXECUTE_TIMEOUT_MS) },
  });
  const { secrets, logs } = stack;

  beforeAll(() => {
    for (let u = 0; u < USERS; u++)
      stack.emu.emulator.users.upsert(FIRST_USER + u, { first_name: "F" });
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
        const order = await stack.app.orders.place(
          mobileInput({
            idempotencyKey: `faults-${i}-${randomUUID()}`,
            userId: user,
            chatId: user,
            connectionNo: `986${String(i).padStart(3, "0")}${ending(i)}`,
            amountPaisa: 10_000 + (i % 50) * 100,
          }),
        );
        return stack.app.orders.submit(order.reference);
      },
    );
    const submittedMs = Date.now() - started;
    const refs = placed.map((o) => o.reference);
    expect(new Set(refs).size).toBe(ORDERS);

    // The reconciler's window: execute timeout + grace (= timeout) after the request left, plus ticks.
    await waitUntil(
      async () =>
        (await stack.app.store.listOpen({ createdBefore: Date.now() + 60_000, limit: 10 }))
          .length === 0,
      "every order final",
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const finalMs = Date.now() - started;
    const users = Array.from({ length: USERS }, (_, u) => FIRST_USER + u);
    await waitUntil(
      async () =>
        (await stack.app.queue.backlog()) === 0 &&
        finalPushes(stack.emu.emulator, users).size >= ORDERS,
      "every outcome pushed and the queue drained",
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const notifiedMs = Date.now() - started;

    const orders = (await Promise.all(refs.map((r) => stack.app.orders.get(r)))).filter(
      (o): o is Order => o !== null,
    );
    expect(orders).toHaveLength(ORDERS);

    const ledger = stack.provider.sandbox.ledger(secrets.providerToken);
    const result = audit(orders, ledger, stack.provider.executes, stack.emu.emulator, users);
    const neverSent = refs.filter((r) => (stack.provider.executes.get(r) ?? 0) === 0);
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
      "execute requests": stack.provider.total(stack.provider.executes),
      "ledger rows": ledger.length,
      "status queries": stack.provider.total(stack.provider.statusQueries),
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
