import { Writable } from "node:stream";
import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";
import {
  createReminderWorker,
  DAY_MS,
  inWindow,
  memoryReminders,
  type ReminderMessage,
  rememberSuccess,
} from "../../src/reminders/index.ts";
import { reminderSentNothing } from "../../src/system/reminders.ts";
import { NOT_DELIVERED_PREFIX, REFUSALS } from "../../src/whatsapp/chat-calls.ts";

/**
 * The reminder worker over the memory store with the process's edges in the test's hands (the
 * clock, the send): what is recorded from a success, that a blocked customer is not written to,
 * that a send that may have arrived is not tried again (a reminder is never sent twice) while one
 * that certainly sent nothing is (its due date is not lost), and that a plan's due date is made
 * from the payment times that are kept.
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

/** The router's answer to a send refused before it went out (a template paused). */
const notSent = () =>
  new GrammyError(
    "Call to 'sendMessage' failed!",
    { ok: false, error_code: 503, description: "Not sent: WhatsApp error 132015: template paused" },
    "sendMessage",
    {},
  );
/** The WhatsApp router's refusal `kind` (chat-calls.ts `REFUSALS`): nothing went out, for good. */
const refusal = (kind: keyof typeof REFUSALS) => () =>
  new GrammyError(
    "Call to 'sendMessage' failed!",
    { ok: false, error_code: 400, description: `${NOT_DELIVERED_PREFIX}${REFUSALS[kind]}` },
    "sendMessage",
    {},
  );
/** A lost answer: the request went out, the message may be in the chat. */
const lostAnswer = () =>
  new HttpError("Network request for 'sendMessage' failed!", new Error("socket hang up"));
/** No connection made: nothing went out. */
const refused = () =>
  new HttpError(
    "Network request for 'sendMessage' failed!",
    Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
  );

function setup(opts: { blocked?: boolean; failSend?: boolean; fail?: () => Error | null } = {}) {
  let now = T;
  const sent: Array<{ chatId: number; message: ReminderMessage }> = [];
  const accounts: number[] = [];
  const logs: string[] = [];
  const store = memoryReminders();
  const worker = createReminderWorker({
    store,
    localeOf: async () => null,
    render: (locale, due) => ({ text: `${locale}: ${due.map((d) => d.record.number).join(", ")}` }),
    send: async (chatId, message, userId) => {
      accounts.push(userId);
      if (opts.failSend) throw new Error("Forbidden: bot was blocked by the user");
      const err = opts.fail?.();
      if (err) throw err;
      sent.push({ chatId, message });
    },
    sentNothing: reminderSentNothing,
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
  return { store, worker, sent, accounts, logs, to: (ms: number) => (now = ms) };
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
    // Whose reminder it is goes with the send (a released WhatsApp chat: review s24-j).
    expect(s.accounts).toEqual([21]);
  });

  it("writes nothing to a customer the merchant blocked", async () => {
    const s = setup({ blocked: true });
    await rememberSuccess(s.store, order());
    s.to(T + 27 * DAY_MS);
    await s.worker.tick();
    expect(s.sent).toEqual([]);
  });

  // A refusal of the chat or the message, or an answer lost: not again (it may be in the chat).
  it("does not try a failed send again unless it certainly sent nothing: at most once", async () => {
    const s = setup({ failSend: true });
    await rememberSuccess(s.store, order());
    s.to(T + 27 * DAY_MS);
    await s.worker.tick();
    s.to(T + 28 * DAY_MS);
    await s.worker.tick();
    expect(s.logs.filter((l) => l.includes("reminder not sent"))).toHaveLength(1);
  });

  // Review s24-k item 3: a released account with no chat left was given back and tried again
  // every few hours, forever. Review s25-a S1: so was "the chat no longer acts as the message's
  // account" (an unlink is for good); such a reminder now goes to the account's own chat, and a
  // refusal means it has none that can take it. Every refusal is final: logged once, tried no more.
  it.each(Object.keys(REFUSALS) as Array<keyof typeof REFUSALS>)(
    "tries no more after the router's refusal %s",
    async (kind) => {
      const s = setup({ fail: refusal(kind) });
      await rememberSuccess(s.store, order());
      let tries = 0;
      for (let h = 27 * 24; h < 33 * 24; h += 1) {
        s.to(T + h * 3_600_000);
        const before = s.accounts.length;
        await s.worker.tick();
        tries += s.accounts.length - before;
      }
      expect(tries).toBe(1);
      expect(s.logs.filter((l) => l.includes("reminder not sent"))).toHaveLength(1);
    },
  );

  it("does not send again after a lost answer (the message may have arrived)", async () => {
    let fails = 1;
    const s = setup({ fail: () => (fails-- > 0 ? lostAnswer() : null) });
    await rememberSuccess(s.store, order());
    for (let h = 27 * 24; h < 33 * 24; h += 2) {
      s.to(T + h * 3_600_000);
      await s.worker.tick();
    }
    expect(s.sent).toEqual([]);
  });

  // Review s24-c item 3: the marks were claimed before the send and kept whatever the failure, so
  // a template paused for an afternoon lost every reminder due that day. Now given back, retried.
  it.each([
    ["the router's Not sent", notSent],
    ["a connection never made", refused],
  ])("sends again later, in waking hours, after %s", async (_name, error) => {
    let fails = 1;
    const s = setup({ fail: () => (fails-- > 0 ? error() : null) });
    await rememberSuccess(s.store, order());
    const looks: number[] = [];
    for (let h = 27 * 24; h < 33 * 24; h += 1) {
      s.to(T + h * 3_600_000);
      const before = s.sent.length;
      await s.worker.tick();
      if (s.sent.length > before) looks.push(T + h * 3_600_000);
    }
    expect(s.sent).toEqual([{ chatId: 21, message: { text: "en: 9841000021" } }]);
    expect(looks).toHaveLength(1);
    expect(inWindow(looks[0]!, "np")).toBe(true);
    // Once sent, the due date is marked: nothing more.
    const state = await s.store.read(21);
    expect([...state.sent.values()]).toHaveLength(1);
  });

  it("gives back only the marks it wrote (another's stays)", async () => {
    const s = setup();
    await s.store.markSent(21, "2027-02-06", [{ id: "aaaaaaaaaa", dueAt: 5 }]);
    await s.store.unmarkSent(21, { wrote: "2027-02-07", before: "2027-02-05" }, [
      { id: "aaaaaaaaaa", dueAt: 4, before: 3 },
    ]);
    const state = await s.store.read(21);
    expect(state.day).toBe("2027-02-06");
    expect(state.sent.get("aaaaaaaaaa")).toBe(5);
  });

  // Review s24-c item 4: the visit that forgot the oldest of 5 payment times planned its next look
  // from all 5 (due 2027-04-15); every later visit read 4 (due 2027-03-23, then long past).
  it("reminds a usual recharge when the 5th payment time is forgotten in the visit that plans it", async () => {
    const s = setup();
    const T0 = Date.UTC(2027, 0, 1, 5);
    const times = [T0];
    for (const gap of [30, 7, 7, 30]) times.push(times.at(-1)! + gap * DAY_MS);
    for (const [i, time] of times.entries()) {
      s.to(time);
      await rememberSuccess(
        s.store,
        order({ reference: String(1700000000001 + i), createdAt: time, updatedAt: time }),
      );
    }
    const last = times[4]!;
    for (let h = 0; h <= 45 * 24; h += 4) {
      s.to(last + h * 3_600_000);
      await s.worker.tick();
    }
    expect(s.sent).toHaveLength(1);
    expect(
      (await s.store.read(21)).times.get([...(await s.store.read(21)).records.keys()][0]!),
    ).toHaveLength(4);
  });
});
