import { beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { createRedisLedger } from "../../src/ledger/redis-store.ts";
import type { LedgerStore } from "../../src/ledger/store.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { chaosBooks } from "../support/chaos/books.ts";
import { freePort, report, secretNeedles, waitUntil } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { ChatUser, pushesOf } from "../support/chat.ts";
import { expectBooksBalanced } from "../support/ledger.ts";

/**
 * Who pays, under kill -9 (issue 15): the product as a child process in ACCESS_MODE=prepaid, a
 * registered customer with a balance, and the process killed after the order's hold was taken
 * (with the order, atomically) and while its execute is held on the way to the aggregator. A new
 * process takes over. The execute then reaches the aggregator, which succeeds it or fails it; the
 * order must settle, its hold be captured or released exactly once, and no money be created or
 * lost in the books.
 */

const FUND = 100_000; // Rs 1,000
const HOLD_EXECUTE_MS = 3_000;

describe("prepaid: the bot process killed between the hold and the execute", () => {
  let port = 0;
  const stack = useProcessStack("prepaid-kill", async (secrets) => {
    port = await freePort();
    return {
      webhook: { url: `http://127.0.0.1:${port}/webhooks/provider`, secret: secrets.webhookSecret },
    };
  });
  const { secrets, logs, prefix } = stack;
  let env: Record<string, string>;
  let orders: OrderStore;
  let ledger: LedgerStore;
  let current: AppProcess | undefined;
  let generation = 0;

  async function startApp(): Promise<AppProcess> {
    generation++;
    const app = stack.spawn(`bot-${generation}`, env);
    await app.ready;
    current = app;
    return app;
  }

  beforeAll(async () => {
    const tap = await stack.tap();
    env = stack.env(tap.url, {
      PORT: String(port),
      ACCESS_MODE: "prepaid",
      PROVIDER_EXECUTE_TIMEOUT_MS: "10000",
    });
    orders = createRedisOrderStore({ redis: stack.redis, prefix });
    ledger = createRedisLedger({ redis: stack.redis, prefix });
    await startApp();
    books = chaosBooks(stack.redis, prefix, () =>
      stack.provider.sandbox.balance(secrets.providerToken),
    );
    await books.anchor();
  });
  let books: ReturnType<typeof chaosBooks>;

  /** A customer who shared their own contact and was credited Rs 1,000 by the merchant. */
  async function customer(id: number): Promise<ChatUser> {
    const u = new ChatUser(stack.emu.emulator, id);
    const { message_id } = stack.emu.emulator.sendContact(id, {
      phoneNumber: `+97798${String(id).padStart(8, "0")}`,
    });
    await stack.emu.emulator.waitForBotMessage(id, /Registered with/, {
      afterId: message_id,
      timeoutMs: 15_000,
    });
    const r = await ledger.transfer({
      id: `chaos-fund-${id}`,
      debit: account.merchant.funding,
      credit: account.customer(id),
      amountPaisa: FUND,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
    return u;
  }

  for (const outcome of ["succeeded", "failed"] as const) {
    it(`settles the order and ${outcome === "succeeded" ? "captures" : "releases"} its hold once`, async () => {
      const id = outcome === "succeeded" ? 695_101 : 695_102;
      const number = outcome === "succeeded" ? "9841695101" : "9841690000";
      const u = await customer(id);
      await u.say("/recharge", /What would you like to pay/, 15_000);
      await u.tap("📱 Mobile top-up", /Which mobile number/);
      await u.say(number, /How much\?/);
      const confirm = await u.say("250", /Please check your order/);
      expect(confirm.text).toContain("Balance after");

      // The execute is held before the aggregator sees it; the bot process dies meanwhile.
      let sent: (ref: string) => void = () => {};
      const executing = new Promise<string>((resolve) => {
        sent = resolve;
      });
      stack.provider.setPlan((ref) => {
        sent(ref);
        return { beforeMs: HOLD_EXECUTE_MS };
      });
      u.press("✅ Confirm");
      const ref = await executing;
      const before = await orders.get(ref);
      await current?.kill("SIGKILL");
      stack.provider.setPlan(undefined);
      const heldAtKill = before?.holdId ? await ledger.pendingOf(before.holdId) : null;
      await startApp();

      const push = await u.waitFor(new RegExp(`Order ${ref} ${outcome}`), 90_000);
      const order = await orders.get(ref);
      const holdId = order?.holdId ?? "";
      await waitUntil(
        async () => (await ledger.pendingOf(holdId))?.state !== "pending",
        "the hold settled",
        { timeoutMs: 30_000 },
      );
      const hold = await ledger.pendingOf(holdId);
      const journal = (await ledger.journal({ limit: 1_000 })).entries;
      const settlements = journal.filter(
        (e) => (e.kind === "post" || e.kind === "void") && e.pendingId === holdId,
      );
      const total = order?.price?.totalPaisa ?? -1;
      const balance = await ledger.balance(account.customer(id));
      const scan = logs.scan(secretNeedles(secrets));
      report(`SIGKILL between the hold and the execute (${outcome})`, {
        "order status at the kill": before?.status ?? "none",
        "hold at the kill": heldAtKill?.state ?? "none",
        "execute requests": stack.provider.executes.get(ref) ?? 0,
        "final status": order?.status ?? "none",
        "hold settled as": hold?.state ?? "none",
        "post/void entries for the hold": settlements.length,
        "customer balance after (paisa)": balance.availablePaisa,
        "final pushes": pushesOf(stack.emu.emulator, id, ref).length,
        ...secretFigures(scan),
        // Issue 25: the books' float equals the aggregator's wallet (drift 0).
        ...(await books.expectNoDrift()),
      });
      expect(before?.status).toBe("submitting");
      expect(heldAtKill?.state).toBe("pending");
      expect(heldAtKill?.hold.amountPaisa).toBe(total);
      expect(stack.provider.executes.get(ref)).toBe(1);
      expect(order?.status).toBe(outcome === "succeeded" ? "success" : "failed");
      expect(hold?.state).toBe(outcome === "succeeded" ? "posted" : "voided");
      expect(settlements).toHaveLength(1);
      expect(balance).toMatchObject({
        availablePaisa: outcome === "succeeded" ? FUND - total : FUND,
        heldPaisa: 0,
      });
      expect(push.text).toContain(outcome === "succeeded" ? "Balance after" : "returned");
      expect(pushesOf(stack.emu.emulator, id, ref)).toHaveLength(1);
      await expectBooksBalanced(ledger);
      expect(scan.leaks).toEqual([]);
    });
  }
});
