import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { useTopUpSystem } from "../support/topup-system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * /writeoff (review s31-pay, 4b): a refund Khalti made while the customer's order held the
 * credit leaves a rest owed; when it will never come back an admin writes it off in the chat
 * with a reason, booked once from merchant:adjustments. The whole product with the Khalti
 * stand-in, on memory and on real Redis.
 */

const ADMIN = 3001;

describe.each([
  ["memory", false],
  ["redis", true],
])("/writeoff in the chat (%s)", (_name, redis) => {
  const sys = useTopUpSystem(redis, { DASHBOARD: "0", TOPUP_REFUND_CHECK_MS: "3600000" });
  const { topUps, khalti, ledger, entries, start } = sys;

  it("the refund alert names it; an admin writes the rest off once, with the reason; a customer cannot", async () => {
    const user = redis ? 962 : 961;
    const t = await start(user, 500);
    const pid = t.paymentId;
    khalti().act(pid, "pay");
    expect((await topUps().confirm("khalti", pid))?.status).toBe("completed");
    const hold = await ledger().hold({
      id: `wo-order-${user}`,
      debit: account.customer(user),
      credit: account.merchant.sales,
      amountPaisa: 50_000,
    });
    expect(hold.ok).toBe(true);
    expect((await ledger().post(`wo-order-${user}`)).ok).toBe(true);
    khalti().refund(pid);
    expect(await topUps().confirm("khalti", pid)).toMatchObject({
      status: "refunded",
      reversedPaisa: 0,
    });
    const admin = sys.ts().user(ADMIN);
    await waitUntil(
      () => admin.botTexts().some((p) => p.includes(pid) && p.includes(`/writeoff ${pid}`)),
      "the admins' refund alert naming /writeoff",
    );
    await sys
      .ts()
      .user(user)
      .say(`/writeoff ${pid} mine`, /for admins/);
    await admin.say(`/writeoff ${pid}`, /Send \/writeoff <payment id> <reason>/);
    const done = await admin.say(`/writeoff ${pid} order delivered, customer gone`, /Written off/);
    expect(done.text).toContain(`Written off Rs 500 of top-up ${pid} (user ${user})`);
    await admin.say(`/writeoff ${pid} again`, /owes nothing back/);
    await admin.say("/writeoff nosuchpidx again", /There is no top-up nosuchpidx/);
    const off = (await entries(pid)).filter((e) => e.id.endsWith(":writeoff"));
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ kind: "adjustment", amountPaisa: 50_000 });
    expect(off[0]?.reason).toContain("order delivered, customer gone");
    await expectBooksBalanced(ledger());
  });
});
