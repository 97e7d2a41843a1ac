import { describe, expect, it } from "vitest";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import {
  createRedisTopUpStore,
  creditTransferId,
  type HeldDecision,
  type TopUpNotice,
} from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTopUp, useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * Held top-ups decided on two processes at once (two admins, or a double tap through two
 * instances), on one real Redis: exactly one decision wins, at most one credit is booked, and
 * the held list empties.
 */
describe("deciding a held top-up on two processes", () => {
  const r = useTestRedis("topup-decide");
  const khalti = useKhaltiStandIn();

  function instance() {
    const redis = r.connect();
    const ledger = createRedisLedger({ redis, prefix: r.prefix });
    const store = createRedisTopUpStore({ redis, prefix: r.prefix });
    const notices: TopUpNotice[] = [];
    return {
      ledger,
      store,
      notices,
      ...topUpService({ apiUrl: khalti.apiUrl, store, ledger, notices }),
    };
  }

  const pairs: Array<[HeldDecision, HeldDecision]> = [
    ["credit_initiated", "reject"],
    ["credit_paid", "credit_initiated"],
    ["credit_initiated", "credit_initiated"],
  ];
  it.each(pairs)("%s against %s: one wins, one credit at most", async (d1, d2) => {
    const a = instance();
    const b = instance();
    const userId = 700 + pairs.findIndex(([x, y]) => x === d1 && y === d2);
    const pidx = (await startTopUp(a.topUps, userId, 20_000)).paymentId;
    khalti.standIn.misreport(pidx, { totalAmount: 25_000 });
    khalti.standIn.act(pidx, "pay");
    expect(await b.topUps.confirm("khalti", pidx)).toMatchObject({ status: "held" });
    expect((await a.topUps.held()).map((t) => t.paymentId)).toContain(pidx);
    const [x, y] = await Promise.all([a.topUps.decide(pidx, d1, 1), b.topUps.decide(pidx, d2, 2)]);
    const wins = [x, y].filter((o) => o.ok);
    expect(wins).toHaveLength(1);
    expect([x, y].find((o) => !o.ok)).toEqual({ ok: false, reason: "not_held" });
    const after = await a.topUps.get(pidx);
    const credits = (await a.ledger.journal()).entries.filter(
      (e) => e.id === creditTransferId("khalti", pidx),
    );
    const balance = (await a.ledger.balance(account.customer(userId))).availablePaisa;
    if (after?.status === "rejected") {
      expect(credits).toHaveLength(0);
      expect(balance).toBe(0);
    } else {
      expect(after?.status).toBe("completed");
      expect(credits).toHaveLength(1);
      expect(balance).toBe(after?.creditedPaisa);
      expect([20_000, 25_000]).toContain(balance);
    }
    expect((await b.topUps.held()).map((t) => t.paymentId)).not.toContain(pidx);
    await expectBooksBalanced(a.ledger);
    await a.gateway.close();
    await b.gateway.close();
  });
});
