import { describe, expect, it } from "vitest";
import { topUpService } from "../support/khalti.ts";
import { postedOf, startTopUp, useKhaltiRig } from "../support/topup-rig.ts";

/**
 * Review s31-pay, 6: a top-up Khalti refunded in whole before our first lookup credited nothing;
 * /addmoney's reading of the daily cap counted its whole amount (the credit-time reading counted
 * 0), so the customer was told they could add Rs 15,000 more of Rs 25,000 though nothing came in.
 */

const { khalti, storeKinds } = useKhaltiRig("refunded-cap");

describe.each(storeKinds)("a top-up refunded before any credit (%s)", (name, stores) => {
  it("uses none of the daily cap, at /addmoney as at credit time", async () => {
    const s = stores();
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store: s.store(),
      ledger: s.ledger,
      notices: [],
      dailyCapPaisa: 2_500_000,
    });
    const user = name === "memory" ? 9_911 : 9_912;
    const z = (await startTopUp(topUps, user, 1_000_000)).paymentId;
    khalti.standIn.act(z, "pay");
    khalti.standIn.refund(z);
    const after = await topUps.confirm("khalti", z);
    expect(after?.status).toBe("refunded");
    expect(after?.creditedPaisa).toBeUndefined();
    expect(await postedOf(s.ledger, user)).toBe(0);
    expect(await topUps.remainingToday(user)).toBe(2_500_000);
    // And the whole cap can be started and credited.
    const w = (await startTopUp(topUps, user, 1_000_000)).paymentId;
    khalti.standIn.act(w, "pay");
    expect((await topUps.confirm("khalti", w))?.status).toBe("completed");
    expect(await topUps.remainingToday(user)).toBe(1_500_000);
    await gateway.close();
  });
});
