import { describe, expect, it } from "vitest";
import { STUCK_AFTER_MS, type TopUpNotice } from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import {
  startTopUp,
  topUpStoreKinds,
  useKhaltiStandIn,
  useTestRedis,
} from "../support/topup-rig.ts";

/**
 * The admins' "no end in sight" alert of a top-up Khalti keeps calling Pending an hour past its
 * link's expiry (review s31-pay, 2): recorded like the other top-up alerts, per admin chat, and
 * sent again to the chats a send failed until every admin has it; a write race around the send
 * does not send it twice. A record written before (`stuckAlerted: true`) is not alerted again.
 * Memory and Redis stores, the Khalti stand-in over loopback.
 */

const ADMINS = [3001, 3002];

describe("the stuck alert of a top-up", () => {
  const khalti = useKhaltiStandIn();
  const env = useTestRedis("stuck-alert");
  let n = 0;
  // A prefix per test: one test's reconciler passes must not meet another's top-ups.
  const kinds = topUpStoreKinds(env, () => `${env.prefix}${++n}:`);

  /**
   * A Rs 300 top-up of `userId` Khalti calls Pending, on a clock the test moves; admin sends go
   * through `admin` (throw: the send failed), every one handed over kept in `sent`.
   */
  async function pendingTopUp(
    stores: ReturnType<(typeof kinds)[number][1]>,
    userId: number,
    admin: (n: TopUpNotice) => Promise<void> = async () => {},
  ) {
    const clock = { offset: 0 };
    const sent: TopUpNotice[] = [];
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store: stores.store(),
      ledger: stores.ledger,
      notices: [],
      notify: async (x) => {
        if (x.audience !== "admin") return;
        await admin(x);
        sent.push(x);
      },
      adminChatIds: ADMINS,
      now: () => Date.now() + clock.offset,
    });
    const topUp = await startTopUp(topUps, userId, 30_000);
    khalti.standIn.act(topUp.paymentId, "pending");
    const stuckTo = (chatId: number) =>
      sent.filter((x) => x.reason === "stuck" && x.chatId === chatId).length;
    /** Past the link's expiry by more than STUCK_AFTER_MS (Khalti still says Pending). */
    const pastExpiry = () => {
      clock.offset = topUp.expiresAt - Date.now() + STUCK_AFTER_MS + 60_000;
    };
    /** `times` passes, the clock a few seconds on before each (past any retry's backoff). */
    const passes = async (times: number) => {
      for (let i = 0; i < times; i++) {
        clock.offset += 5_000;
        await topUps.reconcile();
      }
    };
    return { topUps, gateway, pidx: topUp.paymentId, clock, stuckTo, pastExpiry, passes };
  }

  describe.each(kinds)("(%s)", (_kind, makeStores) => {
    // Failed on the code before: `stuckAlerted` was written whether or not the send went
    // through, and the admin whose chat failed never heard of it.
    it("that failed for one admin is sent again to that admin alone, until it has it", async () => {
      let failing = true;
      const w = await pendingTopUp(makeStores(), 971, async (x) => {
        if (failing && x.chatId === ADMINS[1]) throw new Error("Bot API 502");
      });
      w.pastExpiry();
      await w.topUps.reconcile();
      expect([w.stuckTo(ADMINS[0]!), w.stuckTo(ADMINS[1]!)]).toEqual([1, 0]);
      expect((await w.topUps.get(w.pidx))?.stuckAlert).toMatchObject({
        sentTo: [ADMINS[0]],
        done: false,
        failures: 1,
      });
      await w.passes(2); // still failing: tried again, still owed
      expect(w.stuckTo(ADMINS[1]!)).toBe(0);
      failing = false;
      await w.passes(4);
      expect([w.stuckTo(ADMINS[0]!), w.stuckTo(ADMINS[1]!)]).toEqual([1, 1]);
      const after = await w.topUps.get(w.pidx);
      expect(after?.stuckAlert?.done).toBe(true);
      expect(after?.status).toBe("pending");
      await w.gateway.close();
    });

    // Failed on the code before: the flag's write lost the race to the other write, so the next
    // pass sent the alert again to every admin.
    it("is sent once when another write to its record comes during the send", async () => {
      const stores = makeStores();
      const other = stores.store();
      let raced = false;
      const w = await pendingTopUp(stores, 972, async (x) => {
        if (raced || x.reason !== "stuck") return;
        raced = true;
        // Another process writes the record meanwhile (its version moves on).
        const cur = await other.get("khalti", x.topUp.paymentId);
        if (!cur) throw new Error("no record");
        const out = await other.update(cur.version, { ...cur }, undefined, Date.now());
        if (!out.ok) throw new Error("the other write failed");
      });
      w.pastExpiry();
      await w.topUps.reconcile();
      expect(raced).toBe(true);
      await w.passes(4);
      expect([w.stuckTo(ADMINS[0]!), w.stuckTo(ADMINS[1]!)]).toEqual([1, 1]);
      expect((await w.topUps.get(w.pidx))?.stuckAlert?.done).toBe(true);
      await w.gateway.close();
    });

    it("is not sent again for a record that says it was (stuckAlerted, written before)", async () => {
      const stores = makeStores();
      const w = await pendingTopUp(stores, 973);
      const store = stores.store();
      const cur = await store.get("khalti", w.pidx);
      if (!cur) throw new Error("no record");
      expect(
        (await store.update(cur.version, { ...cur, stuckAlerted: true }, undefined, Date.now())).ok,
      ).toBe(true);
      w.pastExpiry();
      await w.topUps.reconcile();
      await w.passes(3);
      expect([w.stuckTo(ADMINS[0]!), w.stuckTo(ADMINS[1]!)]).toEqual([0, 0]);
      expect((await w.topUps.get(w.pidx))?.stuckAlert).toBeUndefined();
      await w.gateway.close();
    });
  });
});
