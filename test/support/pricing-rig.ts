import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { type TestSystem, type TestUser, useTestSystem } from "./system.ts";

/**
 * The rig of the tests of prices and the daily spend cap in prepaid mode: the whole product on
 * real Redis for a file or describe, priced from a schedule file of the test's own (prices.json),
 * with an INR rate and a cap if given; a customer registered and credited as a person is; the
 * India amount question of Airtel Prepaid · Delhi NCR; and the schedule the running process
 * prices with changed in place (what a restart with a new prices.json does to the next tap).
 */

/** The India category's fee of ₹1.50 (a prices.json schedule). */
export const INDIA_FEE_150 = { categories: { india: { fee: { flat: "1.50" } } } };

/** A prices.json holding `schedule`, in a temporary folder of its own; its path. */
export function priceScheduleFile(schedule: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "prices-")), "prices.json");
  writeFileSync(file, JSON.stringify(schedule));
  return file;
}

/**
 * The test system of the enclosing describe (or file): prepaid, real Redis, no low-float alert,
 * priced from `schedule` (a file of its own) when given, at `INR_TO_NPR_RATE` `inrRate` and under
 * `DAILY_SPEND_CAP` `dailyCap` (Nepal rupees) when given.
 */
export function usePricedSystem(o: { schedule?: unknown; inrRate?: string; dailyCap?: string }) {
  return useTestSystem({
    redis: true,
    env: {
      ACCESS_MODE: "prepaid",
      LOW_FLOAT_ALERT: "0",
      ...(o.inrRate ? { INR_TO_NPR_RATE: o.inrRate } : {}),
      ...(o.dailyCap ? { DAILY_SPEND_CAP: o.dailyCap } : {}),
      ...(o.schedule ? { PRICE_SCHEDULE_FILE: priceScheduleFile(o.schedule) } : {}),
    },
  });
}

/** Telegram user `id`, registered (its own contact shared) and credited with `paisa`. */
export async function fundedUser(ts: TestSystem, id: number, paisa = 500_000): Promise<TestUser> {
  const u = ts.user(id);
  await u.register();
  await u.credit(paisa);
  return u;
}

/**
 * /recharge → India → Prepaid → `number` → the suggested Airtel Prepaid · Delhi NCR: the answer
 * matching `expect` (the amount question, naming the number, unless given).
 */
export async function indiaAmountQuestion(
  u: TestUser,
  number: string,
  expect: RegExp = new RegExp(number),
): Promise<TranscriptEntry> {
  await u.say("/recharge", /What would you like to pay/);
  await u.tap("🇮🇳 India recharge", /India: what do you want to recharge/);
  await u.tap(/Prepaid/i);
  await u.say(number, /Airtel Prepaid · Delhi NCR/);
  return u.tap(/Airtel Prepaid · Delhi NCR \(/, expect);
}

/** The India fee the running process prices with, set to a flat `paisa` (in place). */
export function setIndiaFee(ts: TestSystem, paisa: number): void {
  const india = ts.system.config.pricing.schedule.categories.india;
  if (!india) throw new Error("the schedule has no india level");
  india.fee = { kind: "flat", paisa };
}
