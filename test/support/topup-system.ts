import { afterAll, beforeAll } from "vitest";
import { account } from "../../src/ledger/index.ts";
import type { TopUp } from "../../src/payments/index.ts";
import { startTestSystem, type TestSystem } from "./system.ts";

/**
 * The whole product with the Khalti stand-in, prepaid, for the online top-up tests (started before
 * the describe's tests, stopped after): caps Rs 5,000 per top-up and Rs 8,000 a day, lookups every
 * 150 ms; `env` adds to or overrides that. Its helpers read the running system lazily.
 */
export function useTopUpSystem(redis: boolean, env: Record<string, string> = {}) {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis,
      env: {
        ACCESS_MODE: "prepaid",
        TOPUP_LOOKUP_INTERVAL_MS: "150",
        TOPUP_MAX_AMOUNT: "5000",
        TOPUP_DAILY_CAP: "8000",
        ...env,
      },
    });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const topUps = () => ts.system.topUps!;
  const ledger = () => ts.system.ledger;
  return {
    ts: () => ts,
    topUps,
    khalti: () => ts.system.khalti!,
    ledger,
    balance: async (userId: number) =>
      (await ledger().balance(account.customer(userId))).availablePaisa,
    /** The journal's entries of one top-up. */
    entries: async (paymentId: string) =>
      (await ledger().journal()).entries.filter((e) => e.id.includes(paymentId)),
    pushes: (userId: number) => ts.user(userId).botTexts(),
    async start(userId: number, rupees: number, locale = "en"): Promise<TopUp> {
      ts.user(userId);
      const r = await topUps().start({ userId, chatId: userId, locale, amountPaisa: rupees * 100 });
      if (!r.ok) throw new Error(`start refused: ${JSON.stringify(r)}`);
      return r.topUp;
    },
    async open(url: string) {
      const res = await fetch(url);
      return { status: res.status, html: await res.text() };
    },
  };
}
