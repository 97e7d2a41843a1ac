import { describe, expect, it } from "vitest";
import { createMemoryLedger } from "../../src/ledger/index.ts";
import { createMemoryTopUpStore, type TopUpNotice } from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import { startTopUp, useKhaltiStandIn } from "../support/topup-rig.ts";

/**
 * The admins' alert of a held top-up that could not be handed over (the notification queue
 * refused it) is not recorded as sent: the reconciler sends it again, so money held is never
 * left without an admin hearing of it.
 */
describe("a held top-up's alert that failed", () => {
  const khalti = useKhaltiStandIn();

  it("is sent again by the reconciler", async () => {
    const ledger = createMemoryLedger();
    const notices: TopUpNotice[] = [];
    let refuse = true;
    let offset = 0;
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store: createMemoryTopUpStore({ ledger }),
      ledger,
      notices,
      now: () => Date.now() + offset,
      notify: async (n) => {
        if (n.audience === "admin" && refuse) throw new Error("queue down");
        notices.push(n);
      },
    });
    const pidx = (await startTopUp(topUps, 961, 10_000)).paymentId;
    khalti.standIn.misreport(pidx, { totalAmount: 5_000_000 });
    khalti.standIn.act(pidx, "pay");
    expect((await topUps.confirm(topUps.gateway, pidx))?.status).toBe("held");
    expect(notices.filter((n) => n.audience === "admin")).toHaveLength(0);
    refuse = false;
    offset += 60_000; // past the reconciler's next look
    await topUps.reconcile();
    expect(notices.filter((n) => n.audience === "admin").map((n) => n.reason)).toEqual(["held"]);
    expect((await topUps.get(pidx))?.heldAlert?.done).toBe(true);
    expect((await ledger.check()).entries).toBe(0);
    await gateway.close();
  });
});
