import { GrammyError } from "grammy";
import { afterAll, describe, expect, it } from "vitest";
import type { LedgerStore } from "../../src/ledger/index.ts";
import { account, createMemoryLedger, createRedisLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { classifyApiError, isUndeliverable } from "../../src/notify/api-errors.ts";
import { PUSH_GIVE_UP_TRIES } from "../../src/payments/context.ts";
import {
  createMemoryTopUpStore,
  createRedisTopUpStore,
  createTopUps,
  type Lookup,
  type PaymentGateway,
  type TopUpNotice,
  type TopUpStore,
} from "../../src/payments/index.ts";
import { testRedis } from "../support/redis.ts";
import { startTopUp } from "../support/topup-rig.ts";

/**
 * The customer's push and the admins' refund alert when sends fail (s20-r2 findings 2 and 3): a
 * customer who blocked the bot does not keep the admins from hearing of a refund (once, retried
 * until every admin has it, across processes), a push that fails is tried again with a backoff
 * and given up when it cannot be delivered, and a pending push never asks the gateway: only the
 * refund watch does, at its own pace. The settings are production's (15 s, hourly, a watch).
 */

const LOOKUP_EVERY = 15_000;
const REFUND_CHECK = 3_600_000;
const WATCH = 6 * 3_600_000;
const ADMINS = [3001, 3002];

/** Telegram's answer to a bot the user blocked (GrammyError, as the Bot API client throws it). */
const blocked = () =>
  new GrammyError(
    "Call to 'sendMessage' failed!",
    { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    "sendMessage",
    {},
  );
const apiError = (error_code: number, description: string) =>
  new GrammyError(
    "Call to 'sendMessage' failed!",
    { ok: false, error_code, description },
    "sendMessage",
    {},
  );

/** The gateway, in process: one answer per payment, every lookup counted with its time. */
function fakeGateway(clock: { now: number }) {
  let n = 0;
  const answers = new Map<string, Lookup>();
  const lookups: number[] = [];
  const gateway: PaymentGateway = {
    name: "khalti",
    async initiate() {
      n += 1;
      return {
        paymentId: `PIDXpush${n}${Math.random().toString(36).slice(2, 8)}`,
        paymentUrl: "https://khalti.example/pay",
        expiresAt: clock.now + 1_800_000,
      };
    },
    async lookup(paymentId) {
      lookups.push(clock.now);
      const a = answers.get(paymentId);
      if (!a) throw new Error(`no answer for ${paymentId}`);
      return a;
    },
    async close() {},
  };
  const answer = (paymentId: string, status: Lookup["status"], totalPaisa: number) =>
    answers.set(paymentId, {
      paymentId,
      status,
      totalPaisa,
      transactionId: "T1",
      feePaisa: 0,
      refunded: status === "refunded",
    });
  return { gateway, answer, lookups };
}

/** One process's top-up service over the given store and books, on a shared clock. */
function service(opts: {
  clock: { now: number };
  store: TopUpStore;
  ledger: LedgerStore;
  gateway: PaymentGateway;
  notify: (n: TopUpNotice) => Promise<void>;
}) {
  return createTopUps({
    store: opts.store,
    gateway: opts.gateway,
    ledger: opts.ledger,
    notify: opts.notify,
    // As the product wires it (src/system/top-up.ts).
    undeliverable: (err) => isUndeliverable(classifyApiError(err)),
    logger: createLogger({ level: "silent" }),
    now: () => opts.clock.now,
    maxPaisa: 1_000_000,
    dailyCapPaisa: 10_000_000,
    returnUrl: "http://127.0.0.1:9/pay/khalti/return",
    websiteUrl: "http://127.0.0.1:9",
    adminChatIds: ADMINS,
    lookupEveryMs: LOOKUP_EVERY,
    refundWatchMs: WATCH,
    refundCheckEveryMs: REFUND_CHECK,
  });
}

/** What was handed over, and every customer send tried (with its time). */
function recorder(clock: { now: number }) {
  const delivered: TopUpNotice[] = [];
  const customerTries: number[] = [];
  return {
    delivered,
    customerTries,
    adminRefunds: (chatId: number) =>
      delivered.filter(
        (n) => n.audience === "admin" && n.reason === "refund" && n.chatId === chatId,
      ),
    /** Counts a customer's try, then sends it or throws what `fail` says. */
    send(n: TopUpNotice, fail?: () => Error | undefined) {
      if (n.audience === "customer") customerTries.push(clock.now);
      const err = fail?.();
      if (err) throw err;
      delivered.push(n);
    },
  };
}

/** A credited Rs `rupees` top-up of `userId`, confirmed by a lookup (its push tried inline). */
async function credited(
  topUps: ReturnType<typeof createTopUps>,
  g: ReturnType<typeof fakeGateway>,
  userId: number,
  rupees: number,
) {
  const pidx = (await startTopUp(topUps, userId, rupees * 100)).paymentId;
  g.answer(pidx, "completed", rupees * 100);
  expect((await topUps.confirm("khalti", pidx))?.status).toBe("completed");
  return pidx;
}

/** The customer spends the whole credit: a refund then has nothing to take back. */
async function spendAll(ledger: LedgerStore, userId: number, paisa: number) {
  const spent = await ledger.transfer({
    id: `spend-${userId}`,
    debit: account.customer(userId),
    credit: account.merchant.sales,
    amountPaisa: paisa,
    kind: "adjustment",
    reason: "test spend",
  });
  expect(spent.ok).toBe(true);
}

/** Reconciler passes every 15 s for `ms`, on each process in turn (all at once when `together`). */
async function run(
  clock: { now: number },
  procs: Array<ReturnType<typeof createTopUps>>,
  ms: number,
  together = false,
) {
  for (let t = 0; t < ms; t += LOOKUP_EVERY) {
    clock.now += LOOKUP_EVERY;
    if (together) await Promise.all(procs.map((p) => p.reconcile()));
    else for (const p of procs) await p.reconcile();
  }
}

describe("a refund whose customer blocked the bot", () => {
  it("still alerts every admin, once, with the shortfall (memory)", async () => {
    const clock = { now: 1_800_000_000_000 };
    const ledger = createMemoryLedger({ now: () => clock.now });
    const g = fakeGateway(clock);
    const rec = recorder(clock);
    const topUps = service({
      clock,
      store: createMemoryTopUpStore({ ledger }),
      ledger,
      gateway: g.gateway,
      notify: async (n) => rec.send(n, () => (n.audience === "customer" ? blocked() : undefined)),
    });
    const pidx = await credited(topUps, g, 921, 300);
    await spendAll(ledger, 921, 30_000);
    g.answer(pidx, "refunded", 30_000);
    await run(clock, [topUps], 3 * REFUND_CHECK);
    const t = await topUps.get(pidx);
    expect(t).toMatchObject({ status: "refunded", reversedPaisa: 0 });
    for (const admin of ADMINS) expect(rec.adminRefunds(admin)).toHaveLength(1);
    expect(rec.adminRefunds(3001)[0]?.topUp).toMatchObject({
      creditedPaisa: 30_000,
      reversedPaisa: 0,
    });
    expect(t?.refundAlert).toMatchObject({ done: true, sentTo: ADMINS });
    // Blocked: each status was tried once and given up (the credit, then the refund).
    expect(rec.customerTries).toHaveLength(2);
    expect(t?.pushFailed).toMatchObject({ status: "refunded", gaveUp: true });
  });

  it("is sent again to an admin whose chat failed, and not again to the one who has it (memory)", async () => {
    const clock = { now: 1_800_000_000_000 };
    const ledger = createMemoryLedger({ now: () => clock.now });
    const g = fakeGateway(clock);
    const rec = recorder(clock);
    let adminFailures = 2;
    const topUps = service({
      clock,
      store: createMemoryTopUpStore({ ledger }),
      ledger,
      gateway: g.gateway,
      notify: async (n) =>
        rec.send(n, () =>
          n.chatId === 3002 && n.reason === "refund" && adminFailures-- > 0
            ? new Error("admin chat: network down")
            : undefined,
        ),
    });
    const pidx = await credited(topUps, g, 922, 200);
    g.answer(pidx, "refunded", 20_000);
    await run(clock, [topUps], 2 * REFUND_CHECK);
    expect(adminFailures).toBeLessThan(0); // tried a third time
    expect(rec.adminRefunds(3001)).toHaveLength(1);
    expect(rec.adminRefunds(3002)).toHaveLength(1);
    expect((await topUps.get(pidx))?.refundAlert?.done).toBe(true);
  });

  describe("on Redis, two processes", () => {
    const r = testRedis("topup-pushes");
    afterAll(() => r.cleanup());

    it("alert every admin once, retried across processes", async () => {
      const clock = { now: 1_800_000_000_000 };
      const g = fakeGateway(clock);
      const rec = recorder(clock);
      let adminFailures = 1;
      const notify = async (n: TopUpNotice) =>
        rec.send(n, () => {
          if (n.audience === "customer") return blocked();
          if (n.chatId === 3002 && adminFailures-- > 0) return new Error("admin chat: timeout");
          return undefined;
        });
      const proc = () => {
        const redis = r.connect();
        const ledger = createRedisLedger({ redis, prefix: r.prefix, now: () => clock.now });
        const store = createRedisTopUpStore({ redis, prefix: r.prefix, now: () => clock.now });
        return { ledger, topUps: service({ clock, store, ledger, gateway: g.gateway, notify }) };
      };
      const a = proc();
      const b = proc();
      const pidx = await credited(a.topUps, g, 923, 300);
      await spendAll(a.ledger, 923, 30_000);
      g.answer(pidx, "refunded", 30_000);
      await run(clock, [a.topUps, b.topUps], 2 * REFUND_CHECK, true);
      expect((await b.topUps.get(pidx))?.status).toBe("refunded");
      expect(rec.adminRefunds(3001)).toHaveLength(1);
      expect(rec.adminRefunds(3002)).toHaveLength(1);
      expect((await a.topUps.get(pidx))?.refundAlert).toMatchObject({ done: true });
    });
  });
});

describe("a customer push that fails", () => {
  async function setup(fail: (tryNo: number) => Error | undefined) {
    const clock = { now: 1_800_000_000_000 };
    const ledger = createMemoryLedger({ now: () => clock.now });
    const g = fakeGateway(clock);
    const rec = recorder(clock);
    const topUps = service({
      clock,
      store: createMemoryTopUpStore({ ledger }),
      ledger,
      gateway: g.gateway,
      notify: async (n) =>
        rec.send(n, () => (n.audience === "customer" ? fail(rec.customerTries.length) : undefined)),
    });
    const pidx = await credited(topUps, g, 931, 500);
    g.lookups.length = 0;
    return { clock, topUps, g, rec, pidx };
  }

  it("never asks the gateway more than the refund watch does, and not after it", async () => {
    const { clock, topUps, g, pidx } = await setup(() => new Error("ETIMEDOUT"));
    const creditedAt = clock.now;
    await run(clock, [topUps], WATCH + 3 * REFUND_CHECK);
    // At most one lookup per refund-check interval...
    for (let i = 1; i < g.lookups.length; i++)
      expect(g.lookups[i]! - g.lookups[i - 1]!).toBeGreaterThanOrEqual(REFUND_CHECK);
    expect(g.lookups.length).toBeLessThanOrEqual(WATCH / REFUND_CHECK + 1);
    expect(g.lookups.length).toBeGreaterThanOrEqual(WATCH / REFUND_CHECK - 1);
    // ...and none once the watch (and the check due within it) is over.
    expect(g.lookups.filter((at) => at > creditedAt + WATCH + REFUND_CHECK)).toEqual([]);
    expect((await topUps.get(pidx))?.status).toBe("completed");
  });

  it.each([
    ["Telegram: the bot was blocked", blocked()],
    ["Telegram: chat not found", apiError(400, "Bad Request: chat not found")],
    [
      "WhatsApp: Meta refused the message (the router's 400)",
      apiError(400, "WhatsApp error 131026: Message undeliverable"),
    ],
  ])("for good (%s) is given up at once and recorded", async (_name, err) => {
    const { clock, topUps, rec, pidx } = await setup(() => err);
    await run(clock, [topUps], 2 * 3_600_000);
    expect(rec.customerTries).toHaveLength(1);
    expect((await topUps.get(pidx))?.pushFailed).toMatchObject({
      status: "completed",
      tries: 1,
      gaveUp: true,
    });
    expect((await topUps.get(pidx))?.notified).toBeUndefined();
  });

  it.each([
    ["a timeout", new Error("Network request for 'sendMessage' timed out")],
    ["a flood wait", apiError(429, "Too Many Requests: retry after 40")],
    ["a server error", apiError(502, "Bad Gateway")],
    ["WhatsApp's token (401)", apiError(401, "WhatsApp error 190: token expired")],
  ])("for now (%s) is tried again with a backoff until it goes", async (_name, err) => {
    const { clock, topUps, rec, pidx } = await setup((tryNo) => (tryNo <= 4 ? err : undefined));
    await run(clock, [topUps], 3_600_000);
    expect(rec.customerTries).toHaveLength(5);
    const gaps = rec.customerTries.slice(1).map((at, i) => at - rec.customerTries[i]!);
    // Doubling from the lookup interval (to the pass's 15 s step).
    for (let i = 1; i < gaps.length; i++)
      expect(gaps[i]!).toBeGreaterThanOrEqual(2 * gaps[i - 1]! - LOOKUP_EVERY);
    expect(gaps[3]).toBeGreaterThanOrEqual(8 * LOOKUP_EVERY);
    const t = await topUps.get(pidx);
    expect(t?.notified).toBe("completed");
    expect(t?.pushFailed).toBeUndefined();
    expect(rec.delivered.filter((n) => n.audience === "customer")).toHaveLength(1);
  });

  it("for now, but for days, is given up after its last try", async () => {
    const { clock, topUps, rec, pidx } = await setup(() => new Error("ECONNRESET"));
    await run(clock, [topUps], 3 * 86_400_000);
    expect(rec.customerTries).toHaveLength(PUSH_GIVE_UP_TRIES);
    expect((await topUps.get(pidx))?.pushFailed).toMatchObject({
      tries: PUSH_GIVE_UP_TRIES,
      gaveUp: true,
    });
  });
});
