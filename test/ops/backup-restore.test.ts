import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import type { Order } from "../../src/orders/model.ts";
import { ROOT } from "../support/chaos/env.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { mobileInput, placeAndSubmit } from "../support/orders.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The Redis backup and restore procedure (docs/backup-restore.md) on a redis-server of the test's
 * own (AOF on, a password): orders run through the product onto it, scripts/redis-backup.sh takes
 * a snapshot, the database is wiped, scripts/redis-restore.sh brings the snapshot back, and the
 * product started again finds the same orders, the same balances, and books that balance; a
 * restart of Redis afterwards (from its AOF alone) still has them.
 */

const run = promisify(execFile);
const PASSWORD = "backup-test-password";
const CUSTOMER = 10_077;

describe("Redis backup and restore", () => {
  let own: OwnRedis;
  let admin: Redis;
  let dir: string;
  const prefix = "ops-backup:";
  let env: Record<string, string>;
  const scriptEnv = () => ({
    ...process.env,
    REDIS_HOST: "127.0.0.1",
    REDIS_PORT: String(own.port),
    REDIS_PASSWORD: PASSWORD,
  });
  const start = (): Promise<TestSystem> =>
    startTestSystem({ env: { ...env, REDIS_PREFIX: prefix } });

  beforeAll(async () => {
    own = await startOwnRedis();
    admin = new Redis({ port: own.port, host: "127.0.0.1", lazyConnect: true });
    await admin.connect();
    await admin.config("SET", "requirepass", PASSWORD);
    await admin.auth(PASSWORD);
    dir = mkdtempSync(join(tmpdir(), "redis-backup-"));
    env = {
      REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${own.port}`,
      ACCESS_MODE: "prepaid",
      // Placed orders stay open as placed: the backup must carry an open order and its hold.
      RECONCILE_INTERVAL_MS: "3600000",
      RECONCILE_MIN_AGE_MS: "3600000",
    };
  });
  afterAll(async () => {
    admin?.disconnect();
    await own?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** What must come back: the orders, the customer's balance, the books' own check. */
  async function state(ts: TestSystem, refs: string[]) {
    const orders = await Promise.all(refs.map((r) => ts.system.store.get(r)));
    return {
      orders: orders.map((o) => o && { reference: o.reference, status: o.status, price: o.price }),
      balance: await ts.system.ledger.balance(account.customer(CUSTOMER)),
      float: await ts.system.ledger.balance(account.merchant.float),
      check: (await ts.system.ledger.check()).ok,
    };
  }

  it("brings back the orders and books that balance after a wipe", {
    timeout: 90_000,
  }, async () => {
    const first = await start();
    let refs: string[] = [];
    let before: Awaited<ReturnType<typeof state>>;
    try {
      const funded = await first.system.ledger.transfer({
        id: "backup-fund",
        debit: account.merchant.funding,
        credit: account.customer(CUSTOMER),
        amountPaisa: 200_000,
        kind: "credit",
      });
      expect(funded.ok).toBe(true);
      const who = { userId: CUSTOMER, chatId: CUSTOMER };
      const placed: Order[] = [
        await first.system.orders.place(mobileInput({ ...who, amountPaisa: 10_000 })),
        await placeAndSubmit(
          first.system.orders,
          mobileInput({ ...who, amountPaisa: 20_000, connectionNo: "9841238888" }),
        ),
        await placeAndSubmit(first.system.orders, mobileInput({ ...who, amountPaisa: 30_000 })),
      ];
      refs = placed.map((o) => o.reference);
      // The third settles through the sandbox's webhook: success.
      await waitUntil(
        async () => (await first.system.store.get(refs[2] ?? ""))?.status === "success",
        "the third order's success",
      );
      before = await state(first, refs);
    } finally {
      await first.stop();
    }
    expect(before.check).toBe(true);
    expect(before.orders.map((o) => o?.status)).toEqual(["placed", "success", "success"]);
    // Rs 2,000 credited, Rs 500 paid, Rs 100 held.
    expect(before.balance.postedPaisa).toBe(150_000);
    expect(before.balance.heldPaisa).toBe(10_000);

    const file = join(dir, "backup.rdb");
    const backup = await run("sh", [join(ROOT, "scripts/redis-backup.sh"), file], {
      env: scriptEnv(),
    });
    expect(backup.stdout).toContain("redis-backup:");
    expect(readFileSync(`${file}.sha256`, "utf8")).toContain("backup.rdb");

    // Into a Redis that is not empty: refused, nothing touched.
    const refused = await run("sh", [join(ROOT, "scripts/redis-restore.sh"), file], {
      env: scriptEnv(),
    }).catch((err: { code: number; stderr: string }) => err);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain("only into an empty Redis");

    await admin.flushall();
    expect(await admin.dbsize()).toBe(0);

    const restore = await run("sh", [join(ROOT, "scripts/redis-restore.sh"), file], {
      env: scriptEnv(),
    });
    expect(restore.stdout).toMatch(/redis-restore: \d+ keys restored/);

    // Redis restarted from its own AOF: the restored keys were logged as they arrived.
    admin.disconnect();
    // A connection that does not retry: SHUTDOWN never answers, and a retry would send it again.
    const stopper = new Redis({
      port: own.port,
      host: "127.0.0.1",
      password: PASSWORD,
      retryStrategy: () => null,
    });
    stopper.on("error", () => {});
    await stopper.call("SHUTDOWN").catch(() => undefined);
    stopper.disconnect();
    await waitUntil(async () => !(await answers(own.port)), "the shutdown");
    await own.start();
    // The password was set at run time (CONFIG SET), not in a file: set it again.
    admin = new Redis({ port: own.port, host: "127.0.0.1" });
    await admin.config("SET", "requirepass", PASSWORD);
    await admin.auth(PASSWORD);

    const second = await start();
    try {
      const after = await state(second, refs);
      expect(after).toEqual(before);
      const report = await second.system.books.report();
      expect(report.balanced).toBe(true);
      // The open order is still open, its hold still held: the reconciler can settle it.
      const open = await second.system.store.listOpen({ createdBefore: Date.now(), limit: 10 });
      expect(open.map((o) => o.reference)).toEqual([refs[0]]);
    } finally {
      await second.stop();
    }
  });

  it("refuses a damaged copy", async () => {
    const file = join(dir, "backup.rdb");
    const bytes = readFileSync(file);
    const damaged = join(dir, "damaged.rdb");
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8((bytes.readUInt8(middle) ^ 0xff) & 0xff, middle);
    writeFileSync(damaged, bytes);
    writeFileSync(
      `${damaged}.sha256`,
      readFileSync(`${file}.sha256`, "utf8").replace("backup.rdb", "damaged.rdb"),
    );
    await admin.flushall();
    const r = await run("sh", [join(ROOT, "scripts/redis-restore.sh"), damaged], {
      env: scriptEnv(),
    }).catch((err: { code: number; stderr: string }) => err);
    expect(r).toMatchObject({ code: 1 });
    expect((r as { stderr: string }).stderr).toContain("damaged copy");
    expect(await admin.dbsize()).toBe(0);
  });
});

async function answers(port: number): Promise<boolean> {
  const r = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => null });
  r.on("error", () => {});
  try {
    await r.connect();
    await r.ping().catch((err: Error) => {
      if (!/NOAUTH/.test(err.message)) throw err;
    });
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
