import { afterEach, describe, expect, it } from "vitest";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import {
  createRedisTopUpStore,
  creditTransferId,
  type TopUpNotice,
  type TopUpStore,
} from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTopUp, useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * A process dies in the middle of confirming a top-up (simulated in process, on real Redis): after
 * the lookup answered and before the credit, or after the credit and before the push. Another
 * process (a new connection, the same keys) finishes the work: credited exactly once, told once.
 * And the credit script is all or nothing: a transfer the books refuse leaves the top-up as it was.
 */

describe("top-up crash safety (Redis)", () => {
  const khalti = useKhaltiStandIn();
  const r = useTestRedis("topup-crash");
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  /** One process: its own Redis connection, stores and gateway client. */
  function startProcess(
    opts: {
      crashBeforeWrite?: boolean;
      notify?: (n: TopUpNotice) => Promise<void>;
      now?: () => number;
    } = {},
  ) {
    const redis = r.connect();
    const ledger = createRedisLedger({ redis, prefix: r.prefix });
    const real = createRedisTopUpStore({ redis, prefix: r.prefix });
    let armed = opts.crashBeforeWrite ?? false;
    const store: TopUpStore = {
      ...real,
      async update(...args) {
        // The process dies here: the lookup has answered, nothing of the credit is written yet.
        if (armed && args[2]) {
          armed = false;
          throw new Error("killed before the credit");
        }
        return real.update(...args);
      },
    };
    const notices: TopUpNotice[] = [];
    const svc = topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger,
      notices,
      ...(opts.notify ? { notify: opts.notify } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    });
    closers.push(() => svc.gateway.close());
    return { ...svc, ledger, notices };
  }
  const credits = async (ledger: ReturnType<typeof createRedisLedger>, pidx: string) =>
    (await ledger.journal()).entries.filter((e) => e.id === creditTransferId("khalti", pidx));

  it("killed between the lookup and the credit: the next process credits once", async () => {
    const a = startProcess({ crashBeforeWrite: true });
    const pidx = (await startTopUp(a.topUps, 901, 70_000)).paymentId;
    khalti.standIn.act(pidx, "pay");
    await expect(a.topUps.confirm("khalti", pidx)).rejects.toThrow("killed before the credit");
    expect((await a.topUps.get(pidx))?.status).toBe("initiated");
    expect(await credits(a.ledger, pidx)).toHaveLength(0);

    const b = startProcess();
    expect((await b.topUps.confirm("khalti", pidx))?.status).toBe("completed");
    // The first process's redirect handler comes back (a retry): nothing more is booked.
    await a.topUps.confirm("khalti", pidx);
    await b.topUps.confirm("khalti", pidx);
    expect(await credits(b.ledger, pidx)).toHaveLength(1);
    expect((await b.ledger.balance(account.customer(901))).availablePaisa).toBe(70_000);
    expect([...a.notices, ...b.notices].filter((n) => n.audience === "customer")).toHaveLength(1);
    await expectBooksBalanced(b.ledger);
  });

  it("killed after the credit, before the push: another process pushes once, when the lease runs out", async () => {
    const a = startProcess({ notify: () => new Promise(() => {}) }); // dies while sending
    const pidx = (await startTopUp(a.topUps, 902, 20_000)).paymentId;
    khalti.standIn.act(pidx, "pay");
    void a.topUps.confirm("khalti", pidx);
    const b0 = startProcess();
    await waitFor(async () => (await b0.topUps.get(pidx))?.pushLeaseUntil !== undefined);
    // Within the lease nobody else pushes.
    await b0.topUps.confirm("khalti", pidx);
    expect(b0.notices).toHaveLength(0);
    // After it the reconciler of another process does, once.
    const later = () => Date.now() + 61_000;
    const b = startProcess({ now: later });
    await b.topUps.reconcile();
    await b.topUps.reconcile();
    expect(b.notices.filter((n) => n.audience === "customer")).toHaveLength(1);
    expect(b.notices[0]?.balancePaisa).toBe(20_000);
    expect(await credits(b.ledger, pidx)).toHaveLength(1);
  });

  it("the credit and the status are one step: a transfer the books refuse writes neither", async () => {
    const a = startProcess();
    const started = await startTopUp(a.topUps, 903, 15_000);
    const pidx = started.paymentId;
    // Someone booked a different transfer under this top-up's credit id.
    const clash = await a.ledger.transfer({
      id: creditTransferId("khalti", pidx),
      debit: account.merchant.funding,
      credit: account.customer(903),
      amountPaisa: 1,
      kind: "credit",
    });
    expect(clash.ok).toBe(true);
    khalti.standIn.act(pidx, "pay");
    const after = await a.topUps.confirm("khalti", pidx);
    expect(after?.status).toBe("initiated");
    expect((await a.topUps.get(pidx))?.version).toBe(started.version);
    expect((await a.ledger.balance(account.customer(903))).availablePaisa).toBe(1);
    expect(a.notices.map((n) => n.audience)).toEqual(["admin"]);
  });
});

async function waitFor(probe: () => Promise<boolean>, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
