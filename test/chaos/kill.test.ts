import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import type { ApiTap } from "../support/chaos/api-tap.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { audit, auditFigures, problems } from "../support/chaos/audit.ts";
import { chaosBooks } from "../support/chaos/books.ts";
import { freePort, report, secretNeedles, seeded, sleep, waitUntil } from "../support/chaos/env.ts";
import { patientMobileOrder } from "../support/chaos/flows.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { ChatUser, finalPushes, pushesOf } from "../support/chat.ts";

/**
 * The product as a child process (`node --import tsx src/main.ts`: polling the emulator served
 * here, the sandbox served here, Redis), killed with SIGKILL: first exactly between the execute the
 * aggregator committed and its answer, then at random points while users order. A new process takes
 * over each time. Every order must be accounted for (final, money agreeing with the ledger, one
 * execute) and its outcome pushed once.
 */

const EXECUTE_TIMEOUT_MS = 2_000;
const RANDOM_USERS = Array.from({ length: 10 }, (_, i) => 630_101 + i);
const KILLS = 4;
const ORDERS_EACH = 3;
// Users go on ordering until the kills are done (at most this many orders each): when the orders
// run fast, three each could all end before the first kill (1 to 3 s in) and nothing is tested.
const ORDERS_MAX_EACH = 8;

describe("the bot process killed with SIGKILL", () => {
  // The app's port, fixed before the sandbox starts: its webhooks reach whichever process runs.
  let port = 0;
  const stack = useProcessStack("kill", async (secrets) => {
    port = await freePort();
    return {
      webhook: { url: `http://127.0.0.1:${port}/webhooks/provider`, secret: secrets.webhookSecret },
    };
  });
  const { secrets, logs, prefix } = stack;
  let env: Record<string, string>;
  let store: OrderStore;
  let current: AppProcess | undefined;
  let tap: ApiTap;
  let generation = 0;
  const startTimes: number[] = [];

  async function startApp(): Promise<AppProcess> {
    generation++;
    const t = Date.now();
    const app = stack.spawn(`bot-${generation}`, env);
    await app.ready;
    startTimes.push(Date.now() - t);
    current = app;
    return app;
  }

  beforeAll(async () => {
    tap = await stack.tap();
    env = stack.env(tap.url, {
      PORT: String(port),
      PROVIDER_EXECUTE_TIMEOUT_MS: String(EXECUTE_TIMEOUT_MS),
    });
    store = createRedisOrderStore({ redis: stack.redis, prefix });
    await startApp();
    books = chaosBooks(stack.redis, prefix, () =>
      stack.provider.sandbox.balance(secrets.providerToken),
    );
    await books.anchor();
  });
  let books: ReturnType<typeof chaosBooks>;

  const ordersOf = async (users: number[]) =>
    (await Promise.all(users.map((u) => store.listByUser(u, 100)))).flat();

  async function settled(users: number[], timeoutMs: number): Promise<Order[]> {
    await waitUntil(
      async () => {
        const orders = await ordersOf(users);
        const pushes = finalPushes(stack.emu.emulator, users);
        return (
          orders.every((o) => pushes.has(o.reference)) &&
          orders.every((o) => o.status === "success" || o.status === "failed")
        );
      },
      "every order final and pushed",
      { timeoutMs, intervalMs: 250 },
    );
    return ordersOf(users);
  }

  it("accounts for an order whose execute was committed when the process died", async () => {
    const u = new ChatUser(stack.emu.emulator, 630_001);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841630001", /How much\?/);
    await u.say("250", /Please check your order/);

    // The aggregator commits the execute; before its answer leaves, the bot process is killed.
    let committed: (ref: string) => void = () => {};
    const atCommit = new Promise<string>((resolve) => {
      committed = resolve;
    });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    stack.provider.setPlan((ref) => ({
      afterCommit: async () => {
        committed(ref);
        await held;
      },
    }));
    u.press("✅ Confirm");
    const ref = await atCommit;
    const killedAt = Date.now();
    await current?.kill("SIGKILL");
    release();
    stack.provider.setPlan(undefined);
    const before = await store.get(ref);
    await startApp();

    const push = await u.waitFor(new RegExp(`Order ${ref} succeeded`), 60_000);
    const recoveredMs = Date.now() - killedAt;
    const [order] = await settled([u.id], 30_000);
    // The receipt shown before the execute was edited in place to the outcome (right after the
    // push, which goes first).
    const receipt = await u
      .waitFor((m) => m.text.startsWith(`🧾 Order ${ref}`) && /successful/.test(m.text), 30_000)
      .catch(() => u.botMessages().find((m) => m.text.startsWith(`🧾 Order ${ref}`)));
    const result = audit(
      order ? [order] : [],
      stack.provider.sandbox.ledger(secrets.providerToken),
      stack.provider.executes,
      stack.emu.emulator,
      [u.id],
    );
    report("SIGKILL between the committed execute and its answer", {
      "order status when the process died": before?.status ?? "none",
      "process start (ms)": startTimes.at(-1) ?? 0,
      "kill -> success pushed (ms)": recoveredMs,
      "decided by": order?.history.find((h) => h.status === "success")?.source ?? "?",
      "execute requests for the reference": stack.provider.executes.get(ref) ?? 0,
      ...auditFigures(result),
      // Issue 25: the debit whose answer died with the process is booked once (inferred).
      ...(await books.expectNoDrift()),
    });
    expect(before?.status).toBe("submitting");
    expect(push.text).toContain("NTC Prepaid · 9841630001 · Rs 250");
    expect(receipt?.text).toContain("successful");
    expect(order?.status).toBe("success");
    expect(problems(result)).toEqual({});
  });

  it("never leaves a conversation stuck behind the chat after a kill mid-update", async () => {
    const u = new ChatUser(stack.emu.emulator, 630_002);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    // The bot shows the next question and dies before it hears back: the conversation in Redis
    // still waits for the number. In polling mode the update is not delivered again (the runner
    // had already confirmed it), so the chat is one question ahead of the conversation.
    const held = tap.hold(
      (method, p) =>
        method === "sendMessage" && p.chat_id === u.id && /^📱 9841630002/.test(String(p.text)),
    );
    u.emu.sendText(u.id, "9841630002");
    await held.reached;
    await current?.kill("SIGKILL");
    held.release();
    await startApp();
    // The user taps an amount the chat shows: the bot says so and asks its question again.
    const again = await u.tap("Rs 100", /Which mobile number/, 20_000);
    await u.say("9841630002", /How much\?/);
    const confirm = await u.say("150", /Please check your order/);
    await u.tap("✖ Cancel", /Cancelled/);
    report("SIGKILL while handling a conversation update", {
      "update in flight at the kill": "lost with the process (polling: already confirmed)",
      "tap on the question the dead process had sent": "answered, question re-asked",
      "flow completed after the restart": Boolean(again && confirm),
    });
    expect(confirm.text).toContain("9841630002");
  });

  it("accounts for every order when killed at random points while users order", async () => {
    const dice = seeded(424_242);
    const ledgerBefore = stack.provider.sandbox.ledger(secrets.providerToken).length;
    // Some executes are slow to answer, so that kills land between execute and answer too.
    stack.provider.setPlan(() =>
      dice() < 0.5 ? { afterMs: Math.floor(dice() * 800) } : undefined,
    );
    stack.provider.sandbox.setFaults(secrets.providerToken, { commitThenDrop: 0.15 });
    const known = new Set<string>();
    const users = RANDOM_USERS.map((id) => new ChatUser(stack.emu.emulator, id));
    let done = false;
    let kills = 0;
    const ordering = Promise.all(
      users.map(async (u, n) => {
        const refs: string[] = [];
        for (let k = 0; k < ORDERS_MAX_EACH && (k < ORDERS_EACH || kills < KILLS); k++) {
          const ending =
            (n + k) % 4 === 0 ? "0000" : `${(5 + k) % 10}${String(n).padStart(3, "0")}`;
          const r = await patientMobileOrder(
            u,
            `984${String(u.id).slice(-3)}${ending}`,
            "100",
            known,
            {
              deadlineMs: 150_000,
            },
          );
          refs.push(r.reference);
        }
        return refs;
      }),
    ).finally(() => {
      done = true;
    });

    const killedDuring: string[] = [];
    // When each kill was sent and when the process was seen gone.
    const killTimes: { sent: number; gone: number }[] = [];
    while (kills < KILLS && !done) {
      await sleep(1_000 + Math.floor(dice() * 2_000));
      if (done) break;
      const inFlight = [...stack.provider.executes.keys()].length;
      const sent = Date.now();
      await current?.kill("SIGKILL");
      killTimes.push({ sent, gone: Date.now() });
      kills++;
      killedDuring.push(`after ${inFlight} executes`);
      await startApp();
    }
    const refs = (
      await ordering.catch(async (err: unknown) => {
        const stats = stack.emu.emulator.stats();
        const stuck = /user (\d+)/.exec(String(err))?.[1];
        const conversation = stuck ? await stack.redis.get(`${prefix}conversation:${stuck}`) : null;
        const session = stuck ? await stack.redis.get(`${prefix}session:${stuck}`) : null;
        throw new Error(
          `conversation: ${conversation?.slice(0, 3000)}\nsession: ${session}\n` +
            `${err}\nemulator: ${JSON.stringify({ pending: stack.emu.emulator.webhookInfo().pending_update_count, created: stats.updatesCreated, returned: stats.updatesReturned, calls: stats.methodCalls, errors: stats.errors })}`,
        );
      })
    ).flat();
    const lastKill = Date.now();
    const orders = await settled(RANDOM_USERS, 150_000);
    const settledMs = Date.now() - lastKill;
    stack.provider.setPlan(undefined);
    stack.provider.sandbox.clearFaults(secrets.providerToken);

    const result = audit(
      orders,
      stack.provider.sandbox.ledger(secrets.providerToken).slice(ledgerBefore),
      stack.provider.executes,
      stack.emu.emulator,
      RANDOM_USERS,
    );
    // The notifier delivers at least once: a process killed after Telegram took a push and before
    // the "sent" mark was written repeats it after the restart. Such repeats are told apart from
    // real ones: the first copy reached Telegram less than a second before a kill or while the
    // killed process was going (a request already on the wire lands after the signal), the second
    // after the kill.
    const byRef = new Map(orders.map((o) => [o.reference, o]));
    const copiesOf = (ref: string) =>
      pushesOf(stack.emu.emulator, byRef.get(ref)?.chatId ?? 0, ref).map((m) => m.date);
    const explained = result.duplicatePushes.filter((ref) => {
      const [first = 0, second = 0, ...more] = copiesOf(ref);
      return (
        more.length === 0 &&
        second > 0 &&
        killTimes.some((k) => k.sent - 1_000 < first && first <= k.gone && k.sent <= second)
      );
    });
    result.duplicatePushes = result.duplicatePushes.filter((r) => !explained.includes(r));
    // An unexplained repeat is shown with its timings, so a failure says what happened.
    const unexplained = result.duplicatePushes.map((ref) => ({ ref, copies: copiesOf(ref) }));
    const scan = logs.scan(secretNeedles(secrets));
    report("SIGKILL at random points while 10 users order (three times each or more)", {
      kills,
      "process generations": generation,
      "process start (ms, each)": startTimes,
      "receipts users saw": refs.length,
      "orders stored": orders.length,
      "orders without a receipt the user saw": orders.filter((o) => !refs.includes(o.reference))
        .length,
      "final status": Object.fromEntries(
        ["success", "failed"].map((s) => [s, orders.filter((o) => o.status === s).length]),
      ),
      "last order done -> all final and pushed (ms)": settledMs,
      ...auditFigures(result),
      ...(await books.expectNoDrift()),
      "pushes repeated because a kill fell between sending and recording them": explained.length,
      ...(unexplained.length
        ? { "repeated pushes no kill explains": { unexplained, killTimes } }
        : {}),
      ...secretFigures(scan),
    });
    expect(kills).toBeGreaterThanOrEqual(2);
    // Every receipt a user saw belongs to a stored order.
    expect(refs.filter((r) => !orders.some((o) => o.reference === r))).toEqual([]);
    expect(problems(result)).toEqual({});
    expect(scan.leaks).toEqual([]);
  });

  it("does not mute a user whose flood counter a killed process left without expiry", async () => {
    const u = new ChatUser(stack.emu.emulator, 630_201);
    // What INCR without its PEXPIRE leaves behind: a counter just under the limit, never expiring.
    const key = `${prefix}flood${u.id}`;
    await stack.redis.set(key, "29");
    const answer = await u.say("/help", /\/recharge/);
    const ttl = await stack.redis.pttl(key);
    report("flood counter left without expiry by a killed process", {
      "counter expiry after the next message (ms)": ttl,
    });
    expect(answer.text).toBeTruthy();
    expect(ttl).toBeGreaterThan(0);
  });
});
