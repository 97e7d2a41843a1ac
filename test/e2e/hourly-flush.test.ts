import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transition } from "../../src/orders/state.ts";
import { writeRefusalOwed } from "../support/hourly-crash.ts";
import { placedOrder } from "../support/orders.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The hourly admin alerts' flush as the running product wires it (src/system/money-path.ts: the
 * reconciler's tick): the orders counted in an hour are told once it ended, with no later order
 * needed, and told once.
 */

const ADMIN = 3002;
const COUNT = /3 more order\(s\) with figures off since/;

describe.each([
  ["memory", false],
  ["redis", true],
])("an hourly alert's count, told when its hour ended (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis, env: { ADMIN_IDS: String(ADMIN) } });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("the reconciler's tick tells the admin a window counted two hours ago, once", async () => {
    const since = Date.now() - 2 * 3_600_000;
    const window = { since, more: 3, refs: ["9001", "9002", "9003"] };
    await ts.system.crossings.remember("figures-off", JSON.stringify(window));

    const told = await ts.user(ADMIN).waitFor(COUNT);
    expect(told.text).toContain("(e.g. 9001, 9002, 9003)");
    // The flush opened the next hour with nothing counted in it.
    const next = JSON.parse((await ts.system.crossings.recall("figures-off")) ?? "null");
    expect(next).toMatchObject({ more: 0, refs: [] });
    expect(next.since).toBeGreaterThan(since);

    // More ticks, everything queued sent: still one alert.
    await ts.system.reconciler.runOnce();
    await ts.system.reconciler.runOnce();
    await waitUntil(async () => (await ts.system.queue.backlog()) === 0, "drained");
    const alerts = ts
      .user(ADMIN)
      .botTexts()
      .filter((t) => COUNT.test(t));
    expect(alerts).toHaveLength(1);
  });

  it("a window whose references are not orders' is still told (without naming an order)", async () => {
    const since = Date.now() - 2 * 3_600_000;
    const window = { since, more: 2, refs: ["not-a-reference", "0"] };
    await ts.system.crossings.remember("reference-collision", JSON.stringify(window));
    const told = await ts.user(ADMIN).waitFor(/2 more order\(s\) refused the same way since/);
    expect(told.text).toContain("(e.g. not-a-reference, 0)");
  });
});

describe.each([
  ["memory", false],
  ["redis", true],
])("an order with figures off whose process died before its count (%s)", (_name, redis) => {
  let ts: TestSystem;
  let clock = Date.now();
  beforeAll(async () => {
    ts = await startTestSystem({ redis, env: { ADMIN_IDS: String(ADMIN) }, now: () => clock });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  // Session 30 (h-figoff): the order's write alone, as the product's step makes it (its mark
  // with it), and no count after it: the reconciler's tick a minute on tells the admin, once.
  it("is told by the reconciler's tick past the grace, once", async () => {
    const reference = String(clock);
    await ts.system.store.create(submitting(reference));
    const answer = {
      source: "execute",
      status: "success",
      at: clock,
      wallet: {
        amountPaisa: 100_000,
        serviceChargePaisa: 0,
        instantDiscountPaisa: 0,
        debitAmountPaisa: 100_000,
        creditAvailablePaisa: null,
        source: "execute",
      },
    } as const;
    const written = await ts.system.store.update(reference, (current) => {
      const t = transition(current, answer, []);
      return { order: t.order, notifications: [] };
    });
    expect(written?.order.figuresOffAt).toBe(clock);
    clock += 2 * 60_000;
    await toldOnce(new RegExp(`Order ${reference}: the aggregator's figures are off`));
  });

  // h-collide: the same for an execute refused as a reference the aggregator already holds, the
  // step's write as apply makes it (the collision window owed with it), and no count after it.
  it("a refused order's reference-collision alert is told by the tick past the grace, once", async () => {
    const reference = String(clock);
    await ts.system.store.create(submitting(reference));
    const written = await writeRefusalOwed(ts.system.store, reference, clock);
    expect(written?.order.status).toBe("failed");
    clock += 2 * 60_000;
    await toldOnce(
      new RegExp(`Order ${reference}: the aggregator refused the execute as a duplicate`),
    );
  });

  /** `said` reaches the admin, and two more reconciler ticks do not say it again. */
  async function toldOnce(said: RegExp): Promise<void> {
    await ts.user(ADMIN).waitFor(said);
    await ts.system.reconciler.runOnce();
    await ts.system.reconciler.runOnce();
    await waitUntil(async () => (await ts.system.queue.backlog()) === 0, "drained");
    expect(
      ts
        .user(ADMIN)
        .botTexts()
        .filter((t) => said.test(t)),
    ).toHaveLength(1);
  }

  /** An order whose execute is under way, at the test's clock. */
  function submitting(reference: string) {
    return placedOrder({
      reference,
      idempotencyKey: `k-${reference}`,
      userId: 3101,
      chatId: 3101,
      status: "submitting",
      createdAt: clock,
      updatedAt: clock,
    });
  }
});
