import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";
import {
  createReminderWorker,
  DAY_MS,
  memoryReminders,
  type ReminderMessage,
  type ReminderStore,
  redisReminders,
  rememberSuccess,
  reminderIdOf,
} from "../../src/reminders/index.ts";
import { testRedis } from "../support/redis.ts";

/**
 * A number the customer stopped ("Stop these reminders") stays stopped after its next payment
 * however late it comes (review s33-rvcomp 1): the visit that forgot the number's record long past
 * its due date forgot its stop too, so a payment of it months later (a friend's number topped up
 * again) was reminded to a customer who had asked for none.
 */

/** 2027-01-10 05:00 UTC, 10:45 in Nepal. */
const T = Date.UTC(2027, 0, 10, 5);

const order = (number: string, at: number, reference: string): Order =>
  ({
    category: "mobile",
    details: {},
    reference,
    idempotencyKey: `k${reference}`,
    userId: 31,
    chatId: 31,
    locale: "en",
    region: "np",
    operatorId: 1,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: number,
    amountPaisa: 10_000,
    status: "success",
    createdAt: at,
    updatedAt: at,
    history: [],
    version: 1,
  }) as Order;

async function stoppedNumberPaidLate(store: ReminderStore) {
  let now = T;
  const sent: ReminderMessage[] = [];
  const worker = createReminderWorker({
    store,
    localeOf: async () => null,
    render: (_l, due) => ({ text: due.map((d) => d.record.number).join(", ") }),
    send: async (_chatId, message) => {
      sent.push(message);
    },
    now: () => now,
    intervalMs: 60_000,
    logger: createLogger({ level: "silent" }),
  });
  const friend = order("9841000777", T, "1700000000101");
  await rememberSuccess(store, friend);
  await store.setOff(31, [reminderIdOf(friend)], true, now);
  // The customer's own number, paid every 28 days for five months: the worker visits them.
  let ref = 1700000000200;
  for (let at = T; at <= T + 150 * DAY_MS; at += DAY_MS / 2) {
    now = at;
    if ((at - T) % (28 * DAY_MS) === 0)
      await rememberSuccess(store, order("9841000031", at, String(ref++)));
    await worker.tick();
  }
  const own = sent.length;
  expect(own).toBeGreaterThan(0);
  expect(sent.every((m) => m.text === "9841000031")).toBe(true);
  // The friend's number again, five months on: still stopped.
  const again = T + 151 * DAY_MS;
  await rememberSuccess(store, order("9841000777", again, "1700000000301"));
  for (let at = again; at <= again + 40 * DAY_MS; at += DAY_MS / 2) {
    now = at;
    await worker.tick();
  }
  expect(sent.slice(own).map((m) => m.text)).not.toContain("9841000777");
  expect((await store.read(31)).off.has(reminderIdOf(friend))).toBe(true);
}

describe("a stopped number", () => {
  const redis = testRedis("reminders-stop");
  afterAll(() => redis.cleanup());
  it("stays stopped when it is paid again after its record was forgotten (memory)", async () => {
    await stoppedNumberPaidLate(memoryReminders());
  });
  it("stays stopped when it is paid again after its record was forgotten (Redis)", async () => {
    await stoppedNumberPaidLate(redisReminders(redis.redis, redis.prefix));
  });
});
