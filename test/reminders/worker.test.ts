import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";
import {
  createReminderWorker,
  DAY_MS,
  memoryReminders,
  type ReminderMessage,
  rememberSuccess,
} from "../../src/reminders/index.ts";

/**
 * The reminder worker over the memory store with the process's edges in the test's hands (the
 * clock, the send): what is recorded from a success, that a blocked customer is not written to,
 * and that a send that failed is not tried again (at most once: a reminder is never sent twice).
 */

/** 2027-01-10 05:00 UTC, 10:45 in Nepal. */
const T = Date.UTC(2027, 0, 10, 5);

const order = (over: Partial<Order> = {}): Order =>
  ({
    category: "mobile",
    details: {},
    reference: "1700000000001",
    idempotencyKey: "k",
    userId: 21,
    chatId: 21,
    locale: "en",
    region: "np",
    operatorId: 1,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: "9841000021",
    amountPaisa: 10_000,
    status: "success",
    createdAt: T,
    updatedAt: T,
    history: [],
    ...over,
  }) as Order;

function setup(opts: { blocked?: boolean; failSend?: boolean } = {}) {
  let now = T;
  const sent: Array<{ chatId: number; message: ReminderMessage }> = [];
  const logs: string[] = [];
  const store = memoryReminders();
  const worker = createReminderWorker({
    store,
    localeOf: async () => null,
    render: (locale, due) => ({ text: `${locale}: ${due.map((d) => d.record.number).join(", ")}` }),
    send: async (chatId, message) => {
      if (opts.failSend) throw new Error("Forbidden: bot was blocked by the user");
      sent.push({ chatId, message });
    },
    mayRemind: async () => !opts.blocked,
    now: () => now,
    intervalMs: 60_000,
    logger: createLogger({
      destination: new Writable({
        write(chunk, _e, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    }),
  });
  return { store, worker, sent, logs, to: (ms: number) => (now = ms) };
}

describe("the reminder worker", () => {
  it("records only successes, and reminds the day before the usual recharge", async () => {
    const s = setup();
    await rememberSuccess(s.store, order({ status: "failed", reference: "1700000000002" }));
    expect((await s.store.read(21)).records.size).toBe(0);
    await rememberSuccess(s.store, order());
    s.to(T + 26 * DAY_MS);
    await s.worker.tick();
    expect(s.sent).toEqual([]);
    s.to(T + 27 * DAY_MS);
    await s.worker.tick();
    expect(s.sent).toEqual([{ chatId: 21, message: { text: "en: 9841000021" } }]);
  });

  it("writes nothing to a customer the merchant blocked", async () => {
    const s = setup({ blocked: true });
    await rememberSuccess(s.store, order());
    s.to(T + 27 * DAY_MS);
    await s.worker.tick();
    expect(s.sent).toEqual([]);
  });

  it("does not try a failed send again: at most once", async () => {
    const s = setup({ failSend: true });
    await rememberSuccess(s.store, order());
    s.to(T + 27 * DAY_MS);
    await s.worker.tick();
    s.to(T + 28 * DAY_MS);
    await s.worker.tick();
    expect(s.logs.filter((l) => l.includes("reminder not sent"))).toHaveLength(1);
  });
});
