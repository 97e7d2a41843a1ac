import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cycleOf,
  DAY_MS,
  emptyState,
  inWindow,
  localDay,
  MAX_PER_MESSAGE,
  planFor,
  type ReminderRecord,
  type ReminderState,
  stateOf,
  usualDays,
  validityDaysOf,
  windowFrom,
} from "../../src/reminders/index.ts";

/**
 * When a reminder goes out (src/reminders/schedule.ts): the due dates of plans, bills and usual
 * recharges, the waking hours, and, over any history of payments and any rhythm of the worker's
 * looks, the promises: never two messages on one day, never before a reminder's time, never
 * outside 09:00-20:00 local time, each due date at most once, nothing that was turned off.
 */

const HOUR_MS = 3_600_000;
/** 2026-11-01 00:00 UTC. */
const T0 = Date.UTC(2026, 10, 1);

const record = (over: Partial<ReminderRecord> = {}): ReminderRecord => ({
  ref: "1700000000001",
  category: "mobile",
  number: "9841000001",
  operatorName: "NTC Prepaid",
  amountPaisa: 10_000,
  region: "np",
  locale: "en",
  chatId: 1,
  at: T0,
  ...over,
});

describe("due dates", () => {
  it("reads a plan's validity from the provider's words", () => {
    expect(validityDaysOf("12 GB / 28 days")).toBe(28);
    expect(validityDaysOf("28 Days · Unlimited calls")).toBe(28);
    expect(validityDaysOf("Dish Home Basic - 1 Month")).toBe(30);
    expect(validityDaysOf("2 GB daily, 84 दिन")).toBe(84);
    // Review s24-c note 4: Devanagari digits fell back to the usual reminder.
    expect(validityDaysOf("१ GB, २८ दिन")).toBe(28);
    expect(validityDaysOf("DTH १ महिना")).toBe(30);
    expect(validityDaysOf("Unlimited calls")).toBeUndefined();
    expect(validityDaysOf(undefined)).toBeUndefined();
  });

  it("reminds of a plan from 3 days before it ends (a third of a short one before)", () => {
    const plan = cycleOf(record({ validityDays: 28, at: T0 + 12 * HOUR_MS }));
    expect(plan.kind).toBe("plan");
    expect(plan.dueAt).toBe(T0 + 28 * DAY_MS + 12 * HOUR_MS);
    expect(localDay(plan.remindAt, "np")).toBe(localDay(plan.dueAt - 3 * DAY_MS, "np"));
    const short = cycleOf(record({ validityDays: 3, at: T0 + 12 * HOUR_MS }));
    expect(localDay(short.remindAt, "np")).toBe(localDay(short.dueAt - DAY_MS, "np"));
  });

  it("reminds of a bill on the customer's usual day of the next month (the 31st: the month's last)", () => {
    // 31 Jan 2027, 10:00 Nepal time.
    const paid = Date.UTC(2027, 0, 31, 4, 15);
    const bill = cycleOf(record({ category: "electricity", at: paid }));
    expect(bill.kind).toBe("bill");
    expect(localDay(bill.dueAt, "np")).toBe("2027-02-28");
    expect(localDay(bill.remindAt, "np")).toBe("2027-02-28");
  });

  it("comes round after the customer's usual interval, else the category's usual period", () => {
    expect(usualDays([T0, T0 + 10 * DAY_MS, T0 + 20 * DAY_MS])).toBe(10);
    expect(usualDays([T0])).toBeUndefined();
    expect(usualDays([T0, T0 + 2 * DAY_MS])).toBe(7);
    const first = cycleOf(record());
    expect(first.dueAt).toBe(T0 + 28 * DAY_MS);
    const usual = cycleOf(record({ at: T0 + 20 * DAY_MS }), [T0, T0 + 10 * DAY_MS]);
    expect(usual.dueAt).toBe(T0 + 30 * DAY_MS);
    expect(cycleOf(record({ category: "dth" })).dueAt).toBe(T0 + 30 * DAY_MS);
  });

  it("keeps the waking hours on the customer's clock", () => {
    // 02:00 UTC is 07:45 in Nepal: the window opens at 09:00 (03:15 UTC).
    expect(windowFrom(Date.UTC(2026, 10, 1, 2), "np")).toBe(Date.UTC(2026, 10, 1, 3, 15));
    expect(windowFrom(Date.UTC(2026, 10, 1, 2), "in")).toBe(Date.UTC(2026, 10, 1, 3, 30));
    // 15:00 UTC is 20:45 in Nepal: the next morning.
    expect(windowFrom(Date.UTC(2026, 10, 1, 15), "np")).toBe(Date.UTC(2026, 10, 2, 3, 15));
    expect(inWindow(Date.UTC(2026, 10, 1, 6), "np")).toBe(true);
  });

  it("reads a customer's stored fields back (unreadable records skipped)", () => {
    const s = stateOf({
      "r:aaaaaaaaaa": JSON.stringify(record()),
      "r:bbbbbbbbbb": "{not json",
      [`t:aaaaaaaaaa:${T0}`]: "1",
      "s:aaaaaaaaaa": "123",
      "o:aaaaaaaaaa": "1",
      off: "1",
      day: "2026-11-01",
    });
    expect([...s.records.keys()]).toEqual(["aaaaaaaaaa"]);
    expect(s.times.get("aaaaaaaaaa")).toEqual([T0]);
    expect(s.sent.get("aaaaaaaaaa")).toBe(123);
    expect(s.off.has("aaaaaaaaaa") && s.allOff).toBe(true);
    expect(s.day).toBe("2026-11-01");
  });
});

const CATEGORIES = [
  "mobile",
  "datapack",
  "dth",
  "internet",
  "water",
  "electricity",
  "landline",
  "india",
];
const ID = fc.constantFrom(
  "a000000001",
  "a000000002",
  "a000000003",
  "a000000004",
  "a000000005",
  "a000000006",
);

/** A payment of an account: when (hours after T0), what, and whether the customer turns it off. */
const payment = fc.record({
  id: ID,
  hours: fc.integer({ min: 0, max: 80 * 24 }),
  category: fc.constantFrom(...CATEGORIES),
  region: fc.constantFrom("np" as const, "in" as const),
  validityDays: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  off: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});

describe("the promises, over any payments and any rhythm of looks", () => {
  it("one message a day at most, never early, never at night, each due date once, nothing turned off", () => {
    let messages = 0;
    fc.assert(
      fc.property(
        fc.array(payment, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 5, max: 30 * 60 }), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
        (payments, steps, allOff) => {
          const state: ReminderState = emptyState();
          const pending = [...payments].sort((a, b) => a.hours - b.hours);
          const days = new Set<string>();
          const sentDue = new Set<string>();
          let now = T0;
          for (const minutes of steps) {
            now += minutes * 60_000;
            // Payments made by now are recorded, as a success push records them.
            while (pending.length > 0 && T0 + pending[0]!.hours * HOUR_MS <= now) {
              const p = pending.shift()!;
              const at = T0 + p.hours * HOUR_MS;
              state.records.set(
                p.id,
                record({ ...p, at, ...(p.validityDays ? { validityDays: p.validityDays } : {}) }),
              );
              state.times.set(p.id, [...(state.times.get(p.id) ?? []), at]);
              if (p.off) state.off.add(p.id);
            }
            state.allOff = allOff;
            const plan = planFor(state, now);
            if (plan.wakeAt !== null) expect(plan.wakeAt).toBeGreaterThan(now);
            if (plan.send.length === 0) continue;
            expect(allOff).toBe(false);
            expect(plan.send.length).toBeLessThanOrEqual(MAX_PER_MESSAGE);
            expect(days.has(plan.day), `two messages on ${plan.day}`).toBe(false);
            days.add(plan.day);
            messages++;
            for (const r of plan.send) {
              expect(now).toBeGreaterThanOrEqual(r.remindAt);
              expect(inWindow(now, r.record.region)).toBe(true);
              expect(state.off.has(r.id)).toBe(false);
              const key = `${r.id}@${r.dueAt}`;
              expect(sentDue.has(key), `${key} twice`).toBe(false);
              sentDue.add(key);
              state.sent.set(r.id, r.dueAt);
            }
            state.day = plan.day;
          }
        },
      ),
      { numRuns: 150 },
    );
    // Not vacuous: the histories did bring reminders.
    expect(messages).toBeGreaterThan(30);
  });

  it("a worker that looks only when it was told to still sends what one looking always would", () => {
    fc.assert(
      fc.property(fc.array(payment, { minLength: 1, maxLength: 6 }), (payments) => {
        // Every payment made at once; then each looks every 30 minutes for 100 days, or only at wakeAt.
        const fresh = () => {
          const s = emptyState();
          for (const p of payments) {
            const at = T0 + p.hours * HOUR_MS;
            s.records.set(
              p.id,
              record({ ...p, at, ...(p.validityDays ? { validityDays: p.validityDays } : {}) }),
            );
            s.times.set(p.id, [at]);
          }
          return s;
        };
        const start = T0 + 81 * 24 * HOUR_MS;
        const run = (lazy: boolean) => {
          const s = fresh();
          const sent: string[] = [];
          let wake: number | null = start;
          for (let now = start; now < start + 100 * DAY_MS; now += 30 * 60_000) {
            if (lazy && (wake === null || now < wake)) continue;
            const plan = planFor(s, now);
            wake = plan.wakeAt;
            for (const r of plan.send) {
              s.sent.set(r.id, r.dueAt);
              sent.push(`${r.id}@${r.dueAt}`);
            }
            if (plan.send.length > 0) s.day = plan.day;
          }
          return sent.sort();
        };
        expect(run(true)).toEqual(run(false));
      }),
      { numRuns: 30 },
    );
  });
});
