import { afterAll, beforeAll, describe, expect, it, onTestFinished as onExit } from "vitest";
import {
  createCollisionAlert,
  createHourlyAlertsFlush,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { notificationRender } from "../../src/bot/notification-render.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { reachedProviderOnly, redisLimits } from "../../src/orders/limits.ts";
import type { Order } from "../../src/orders/model.ts";
import type { Orders, WalletReading } from "../../src/orders/service.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { loggedLines } from "../support/log-lines.ts";
import {
  adminAlertsOf,
  availableOf,
  creditCustomer,
  orderJournal,
  ordersOnRedis,
  outboxOf,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * Review s33-rvprov, 3: the aggregator refuses an execute for the merchant's own access — our
 * token (401; provider-notes: a token is bound to one client IP), our IP (403), our rate (429; spec
 * 7: "too many requests; retry later", not acted on). The customer read "Reason: Unauthenticated."
 * (or "Forbidden: IP not whitelisted", "Too many requests; retry later") under "Order … failed",
 * their daily-limit reservation was kept and no admin was told on the order path. Now: the
 * customer is told the service is briefly unavailable and nothing was charged (en, ne, hi; one
 * render for Telegram and WhatsApp), the books show the hold voided and nothing else, the
 * reservation is released, and the admins get one alert an hour naming the cause, never the token.
 * The sandbox aggregator (its own 429 fault; a front answering 401 and 403 in the execute's error
 * shape B, as it answers nothing else); real Redis.
 */

const TOKEN = "execute-our-side-token-7f3a9c";
const FUNDED = 100_000;
const CAP = 500_000;
const ADMIN = 9301;
const render = notificationRender(createChatI18n(CATEGORY_MODULES));

/** What the front answers the execute with; null: the sandbox's own answer. */
let refusal: { status: number; message: string } | null = null;

describe("an execute refused on the merchant's side (401, 403, 429)", () => {
  const r = testRedis("execute-our-side");
  const { logger, lines } = loggedLines({ level: "debug" });
  const readings: WalletReading[] = [];
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  let limits: ReturnType<typeof redisLimits>;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, {
      // The execute refused in front of the sandbox, never reaching it; the rest passed on.
      front: (req, env, sandbox) => {
        const execute =
          req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute");
        if (!execute || refusal === null) return sandbox.app.fetch(req, env);
        // Shape B (spec 7): the execute's error body.
        return Response.json(
          { status: "false", message: refusal.message, data: [] },
          { status: refusal.status },
        );
      },
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: [ADMIN],
      onAdminNote: createCollisionAlert({
        crossings: createRedisCrossings(r.redis, r.prefix),
        adminChatIds: [ADMIN],
        logger,
      }),
      onWalletReading: async (reading) => {
        readings.push(reading);
      },
      logger,
    });
    limits = redisLimits(r.redis, r.prefix, { dailyCapPaisa: CAP, ordersPerHour: 100 });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  /** An order placed and sent as the chat does: its limit reserved first, released if refused. */
  async function refused(userId: number): Promise<Order> {
    await creditCustomer(ledger, userId, FUNDED);
    const input = mobileInput({ userId, chatId: userId, amountPaisa: 10_000 });
    expect(await limits.reserve(userId, input.amountPaisa, input.idempotencyKey)).toEqual({
      ok: true,
    });
    expect((await limits.headroom(userId)).spendLeftPaisa).toBe(CAP - 10_000);
    const chat = reachedProviderOnly(orders, limits);
    const placed = await chat.place(input);
    // Held while it is sent.
    expect(await availableOf(ledger, userId)).toBeLessThan(FUNDED);
    return chat.submit(placed.reference, { known: placed });
  }

  /** The customer's final push as rendered for the chat (Telegram and WhatsApp share it). */
  async function pushes(order: Order): Promise<string[]> {
    const sent = (await outboxOf(r)).filter(
      (n) => n.kind === "status" && n.reference === order.reference && n.status === "failed",
    );
    expect(sent).toHaveLength(1);
    const n = sent[0];
    if (n?.kind !== "status") return [];
    return ["en", "ne", "hi"].map((locale) => render(n, { ...order, locale }).text);
  }

  async function expectNothingCharged(order: Order, userId: number, wallet: number) {
    expect(order.status).toBe("failed");
    expect(order.floatShort).toBe(true);
    // No money moved: the hold was taken and voided, nothing posted; the aggregator debited none.
    const journal = await orderJournal(ledger, order.reference);
    expect(journal.map((e) => e.kind).sort()).toEqual(["hold", "void"]);
    expect(await availableOf(ledger, userId)).toBe(FUNDED);
    expect(aggregator.sandbox.balance(TOKEN)).toBe(wallet);
    await expectBooksBalanced(ledger);
    // The reservation of the customer's daily limit is released.
    expect((await limits.headroom(userId)).spendLeftPaisa).toBe(CAP);
    // Not a float reading: no low-float alert for a refusal of our access.
    expect(readings.some((x) => x.reference === order.reference)).toBe(false);
  }

  it("the customer is told the service is briefly unavailable and nothing was charged", async () => {
    const wallet = aggregator.sandbox.balance(TOKEN);
    const cases = [
      { status: 401, message: `Unauthenticated. Token ${TOKEN} is bound to 10.0.0.7` },
      { status: 403, message: "Forbidden: IP not whitelisted" },
    ];
    const i18n = createChatI18n(CATEGORY_MODULES);
    onExit(() => {
      refusal = null;
    });
    for (const [i, c] of cases.entries()) {
      refusal = c;
      const userId = 3401 + i;
      const order = await refused(userId);
      await expectNothingCharged(order, userId, wallet);
      expect(order.history.at(-1)?.note).toBe(
        `rejected: refused on the merchant's side (HTTP ${c.status})`,
      );
      const texts = await pushes(order);
      for (const [j, locale] of ["en", "ne", "hi"].entries()) {
        const text = texts[j] ?? "";
        expect(text, locale).toContain(i18n.t(locale, "notify-service-unavailable"));
        expect(text, locale).toContain(i18n.t(locale, "notify-nothing-charged"));
        for (const said of ["Unauthenticated", "Forbidden", "whitelisted", TOKEN])
          expect(text, locale).not.toContain(said);
      }
    }
  });

  it("a 429 of the sandbox's own: not executed, the same words, no reservation kept", async () => {
    const wallet = aggregator.sandbox.balance(TOKEN);
    aggregator.sandbox.setFaults(TOKEN, { rate429: 1 });
    try {
      const userId = 3411;
      const order = await refused(userId);
      expect(order.providerMessage).toBe("Too many requests; retry later");
      await expectNothingCharged(order, userId, wallet);
      const [en = ""] = await pushes(order);
      expect(en).toContain("the service is briefly unavailable");
      expect(en).toContain("Nothing was charged.");
      expect(en).not.toContain("Too many requests");
    } finally {
      aggregator.sandbox.clearFaults(TOKEN);
    }
  });

  it("the admins get one alert for several orders, naming the cause, never the token", async () => {
    const all = (await outboxOf(r)).filter((n) => n.kind === "admin_alert");
    // Three orders refused above (401, 403, 429) within the hour: one alert, the first's.
    expect(all).toHaveLength(1);
    const alert = all[0];
    expect(alert?.chatId).toBe(ADMIN);
    const note = alert?.kind === "admin_alert" ? (alert.note ?? "") : "";
    expect(note).toContain("HTTP 401");
    expect(note).toContain("Unauthenticated. Token [redacted] is bound to 10.0.0.7");
    expect(note).toContain("our token was not accepted");
    expect(note).not.toContain("reference counter");
    expect(note).not.toContain(TOKEN);
    // The orders after it are counted, each with its own record.
    const counted = lines.filter((l) => l.msg === "an execute refused on our side: counted");
    expect(counted).toHaveLength(2);
    // Never the token in the logs.
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(TOKEN);
    const refs = (await outboxOf(r))
      .filter((n) => n.kind === "status" && n.status === "failed")
      .map((n) => n.reference);
    expect(refs).toHaveLength(3);
    expect(await adminAlertsOf(r, refs[1] ?? "")).toEqual([]);
    // The count is told once the hour ended, in this topic's words.
    const flush = createHourlyAlertsFlush({
      crossings: createRedisCrossings(r.redis, r.prefix),
      adminChatIds: [ADMIN],
    });
    await flush(Date.now() + 3_600_001);
    const after = (await outboxOf(r)).filter((n) => n.kind === "admin_alert");
    expect(after).toHaveLength(2);
    const told = after[1]?.kind === "admin_alert" ? (after[1].note ?? "") : "";
    expect(told).toContain("2 more order(s) refused on our side (token, IP or rate)");
    expect(told).toContain("nothing charged");
    expect(told).not.toContain(TOKEN);
  });
});
