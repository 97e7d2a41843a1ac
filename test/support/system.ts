import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import type { SandboxOptions } from "../../dev/sandbox/index.ts";
import type { AnyCategoryModule } from "../../src/categories/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { account } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";
import { startSystem } from "../../src/system/index.ts";
import type { BuiltInCategory, DetailsOf } from "./category-types.ts";
import { ChatUser } from "./chat.ts";
import { deleteKeys, REDIS_URL } from "./redis.ts";
import { type SystemView, viewOf } from "./system-view.ts";
import { useStarted } from "./use-started.ts";

export { deleteKeys, REDIS_URL, type SystemView, viewOf };

/**
 * The whole product as `npm start` runs it (embedded sandbox, Bot API emulator, real HTTP on
 * loopback), with fast sandbox timers and, when asked, real Redis under a key prefix of its own.
 */
/**
 * The playground switched on on purpose (PLAYGROUND=1) against a real aggregator: a closed port, so
 * nothing is ever reached, with the settings such a start requires.
 */
export const PLAYGROUND_ON_REAL_PROVIDER: Record<string, string> = {
  PROVIDER_URL: "http://127.0.0.1:9/api/v1",
  PROVIDER_TOKEN: "real-provider-token",
  WEBHOOK_SECRET: "real-webhook-secret",
  PLAYGROUND: "1",
  ALLOW_MEMORY_STORES: "1",
};

/**
 * Who pays in a test system unless a test says otherwise: staff mode, with every e2e user id
 * (all below 10 000) listed as staff, so they order from the merchant's wallet without a balance,
 * as every order did before ACCESS_MODE. Tests of prepaid mode set `ACCESS_MODE: "prepaid"` and
 * register and credit their users (`TestUser.register`, `TestUser.credit`); a user id of 10 000 or
 * more is nobody's staff.
 */
export const E2E_STAFF_MAX_ID = 9_999;
export const E2E_ACCESS: Record<string, string> = {
  ACCESS_MODE: "staff",
  STAFF_IDS: Array.from({ length: E2E_STAFF_MAX_ID }, (_, i) => i + 1).join(","),
};

export interface TestSystemOptions {
  redis?: boolean;
  /** Reuse a prefix (restart tests: the second process sees the first one's state). */
  prefix?: string;
  env?: Record<string, string>;
  sandbox?: Partial<Omit<SandboxOptions, "accounts">>;
  /** The categories offered (default: the registry's); a test may add one of its own. */
  categories?: readonly AnyCategoryModule[];
  /** The process's clock (default Date.now): a test moves time for the workers that read it. */
  now?: () => number;
}

export interface TestSystem {
  system: SystemView;
  prefix: string;
  logs: string[];
  user(id: number, fields?: { first_name?: string; language_code?: string }): TestUser;
  /** Stops the process; keys stay (restart tests). */
  stop(): Promise<void>;
  /** Stops and deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

/** An order's details typed for its category; throws when there is no order or it is another one. */
export function detailsOf<C extends BuiltInCategory>(
  order: Order | null | undefined,
  category: C,
): DetailsOf<C> {
  if (order?.category !== category) {
    throw new Error(`expected a ${category} order, got ${order ? order.category : "none"}`);
  }
  return order.details as DetailsOf<C>;
}

export async function startTestSystem(opts: TestSystemOptions = {}): Promise<TestSystem> {
  const prefix = opts.prefix ?? `test:${randomBytes(6).toString("hex")}:`;
  const config = loadConfig({
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    RECONCILE_INTERVAL_MS: "200",
    RECONCILE_MIN_AGE_MS: "500",
    // Production waits 3 "not found" answers over 30 minutes; the same rule, in seconds.
    RECONCILE_NOT_FOUND_ANSWERS: "2",
    RECONCILE_NOT_FOUND_WINDOW_MS: "4000",
    PROVIDER_EXECUTE_TIMEOUT_MS: "3000",
    PROVIDER_LOOKUP_TIMEOUT_MS: "3000",
    ...E2E_ACCESS,
    ...(opts.redis ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ level: "info", destination: sink, secrets: [] });
  const system = viewOf(
    await startSystem({
      config,
      logger,
      sandbox: {
        delays: { toPendingMs: 20, toFinalMs: 40 },
        rateLimitPerSecond: 0,
        ...opts.sandbox,
      },
      ...(opts.categories ? { categories: opts.categories } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
  );
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await system.stop();
  };
  return {
    system,
    prefix,
    logs,
    user: (id, fields) => new TestUser(system, id, fields),
    stop,
    async cleanup() {
      await stop();
      if (opts.redis) await deleteKeys(prefix);
    },
  };
}

/**
 * A started system for the tests of one `describe`: started in beforeAll, cleaned up in afterAll.
 * Read it only inside hooks and tests (before beforeAll ran there is nothing to read).
 */
export function useTestSystem(opts: TestSystemOptions = {}): TestSystem {
  return useStarted(
    "the test system",
    () => startTestSystem(opts),
    (ts) => ts.cleanup(),
  );
}

/** The sandbox ledger of the system's merchant account (what the aggregator recorded). */
export function sandboxLedger(ts: TestSystem) {
  const sandbox = ts.system.sandbox;
  if (!sandbox) throw new Error("the test system runs without the sandbox");
  return sandbox.ledger(ts.system.config.sandbox.token);
}

/** The sandbox ledger rows of order `ref`. */
export function ledgerFor(ts: TestSystem, ref: string) {
  return sandboxLedger(ts).filter((r) => r.referenceNo === ref);
}

/** One chat user of the emulator of a test system (the one chat driver, with e2e defaults). */
export class TestUser extends ChatUser {
  constructor(
    system: SystemView,
    id: number,
    fields: { first_name?: string; language_code?: string } = {},
  ) {
    const emu = system.emulator;
    if (!emu) throw new Error("the test system runs without the emulator");
    super(emu, id, fields, { timeoutMs: 8000, defaultName: "User" });
    this.system = system;
  }

  private readonly system: SystemView;
  private credits = 0;

  /** A phone number of this user's own, unless one is given: +977 98 followed by the id. */
  phone(): string {
    return `97798${String(this.id).padStart(8, "0")}`;
  }

  /** Registers through the chat: shares the user's own contact and waits for the confirmation. */
  async register(phone = this.phone()): Promise<TranscriptEntry> {
    const { message_id } = this.emu.sendContact(this.id, { phoneNumber: `+${phone}` });
    return this.emu.waitForBotMessage(this.id, /Registered with/, {
      afterId: message_id,
      timeoutMs: this.timeoutMs,
    });
  }

  /** Credits the customer's balance in the books (as an admin's credit would), in paisa. */
  async credit(paisa: number): Promise<void> {
    const r = await this.system.ledger.transfer({
      id: `test-credit-${this.id}-${++this.credits}`,
      debit: account.merchant.funding,
      credit: account.customer(this.id),
      amountPaisa: paisa,
      kind: "credit",
    });
    if (!r.ok) throw new Error(`crediting ${this.id} failed: ${r.refusal.code}`);
  }
}
