import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { creditCap, limitBeside } from "../../src/payments/caps.ts";
import type { TopUp, TopUpNotice, TopUpStore } from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { postedOf, startTopUp, topUpRecord, useKhaltiRig } from "../support/topup-rig.ts";

/** 2026-03-10 12:00 in Nepal (06:15 UTC). */
const NOON = Date.UTC(2026, 2, 10, 6, 15);

/**
 * The daily cap holds when credits of one user land at the same moment (review finding: the cap
 * was read from the other top-ups, then the credit written in a separate step). Two instances
 * each read the user's top-ups of the day before either writes (a gate on the store's update
 * holds every first write until both are there), then credit: a lookup's Completed against
 * another lookup, an admin's credit of a held top-up, and an admin's "credit the rest" of a
 * partial refund. Together they must never credit more than TOPUP_DAILY_CAP. Memory and Redis.
 */

const ADMIN = 3001;
/** TOPUP_DAILY_CAP of the instances that credit: Rs 5,000. */
const CAP = 500_000;

// On Redis each instance its own connection, as two processes would have.
const { khalti, storeKinds } = useKhaltiRig("cap-race");

/** Resolves for everyone once `n` callers have arrived (later callers pass at once). */
function together(n: number): () => Promise<void> {
  let arrived = 0;
  let open = () => {};
  const all = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    arrived += 1;
    if (arrived === n) open();
    await all;
  };
}

/** The real store, whose writes wait at `gate`: what each instance read, it read before any wrote. */
const gated = (store: TopUpStore, gate: () => Promise<void>): TopUpStore => ({
  ...store,
  update: async (...args) => {
    await gate();
    return store.update(...args);
  },
});

describe.each(storeKinds)("the daily cap under concurrent credits (%s)", (name, stores) => {
  let userSeq = name === "memory" ? 9900 : 9950;

  function setUp() {
    const s = stores();
    const userId = ++userSeq;
    const notices: TopUpNotice[] = [];
    const closers: Array<() => Promise<void>> = [];
    const svc = (store: TopUpStore, dailyCapPaisa: number) => {
      const made = topUpService({
        apiUrl: khalti.apiUrl,
        store,
        ledger: s.ledger,
        notices,
        dailyCapPaisa,
      });
      closers.push(() => made.gateway.close());
      return made.topUps;
    };
    // Checkouts started where the cap was higher (or before a lower one was configured): each
    // alone is within the cap at credit time, both together are not.
    const starter = svc(s.store(), 10_000_000);
    const gate = together(2);
    return {
      s,
      userId,
      starter,
      /** Two instances with the daily cap of Rs 5,000, their first writes held until both write. */
      one: svc(gated(s.store(), gate), CAP),
      two: svc(gated(s.store(), gate), CAP),
      async paid(rupees: number): Promise<TopUp> {
        const topUp = await startTopUp(starter, userId, rupees * 100);
        khalti.standIn.act(topUp.paymentId, "pay");
        return topUp;
      },
      balance: () => postedOf(s.ledger, userId),
      credits: async () =>
        (await s.ledger.journal()).entries.filter(
          (e) => e.kind === "topup" && e.credit === account.customer(userId),
        ),
      close: async () => {
        for (const c of closers) await c();
      },
    };
  }

  it("two lookups' Completed at once: one credited, the other held for the cap, never above it", async () => {
    const t = setUp();
    const a = await t.paid(3000);
    const b = await t.paid(3000);
    await Promise.all([t.one.confirm("khalti", a.paymentId), t.two.confirm("khalti", b.paymentId)]);
    const after = [await t.starter.get(a.paymentId), await t.starter.get(b.paymentId)];
    expect(await t.balance()).toBe(300_000);
    expect(after.map((x) => x?.status).sort()).toEqual(["completed", "held"]);
    expect(after.find((x) => x?.status === "held")?.held?.reasons).toEqual(["cap"]);
    expect(await t.credits()).toHaveLength(1);
    await expectBooksBalanced(t.s.ledger);
    await t.close();
  });

  it("an admin's credit of a held top-up and a lookup's Completed at once: within the cap", async () => {
    const t = setUp();
    // Paid Rs 3,100 for Rs 3,000 asked: held for the amount, within the caps.
    const a = await t.paid(3000);
    khalti.standIn.misreport(a.paymentId, { totalAmount: 310_000 });
    expect((await t.starter.confirm("khalti", a.paymentId))?.held?.reasons).toEqual(["amount"]);
    const b = await t.paid(3000);
    const [decided] = await Promise.all([
      t.one.decide(a.paymentId, "credit_initiated", ADMIN),
      t.two.confirm("khalti", b.paymentId),
    ]);
    const after = [await t.starter.get(a.paymentId), await t.starter.get(b.paymentId)];
    expect(await t.balance()).toBe(300_000);
    expect(await t.credits()).toHaveLength(1);
    // Whichever wrote first credited; the other was refused (the admin's) or held (the lookup's).
    if (decided.ok) expect(after.map((x) => x?.status)).toEqual(["completed", "held"]);
    else {
      expect(decided).toEqual({ ok: false, reason: "above_cap" });
      expect(after.map((x) => x?.status)).toEqual(["held", "completed"]);
    }
    await expectBooksBalanced(t.s.ledger);
    await t.close();
  });

  it("an admin's 'credit the rest' of a partial refund and a lookup's Completed at once: within the cap", async () => {
    const t = setUp();
    // Rs 4,000 paid, refunded in part before any credit: Rs 1,000 returned leaves Rs 3,000.
    const a = await t.paid(4000);
    khalti.standIn.refund(a.paymentId, true);
    expect((await t.starter.confirm("khalti", a.paymentId))?.status).toBe("partial_refund");
    const b = await t.paid(3000);
    const [decided] = await Promise.all([
      t.one.decideRefund(a.paymentId, 100_000, ADMIN),
      t.two.confirm("khalti", b.paymentId),
    ]);
    const after = [await t.starter.get(a.paymentId), await t.starter.get(b.paymentId)];
    expect(await t.balance()).toBe(300_000);
    expect(await t.credits()).toHaveLength(1);
    if (decided.ok) expect(after.map((x) => x?.status)).toEqual(["refunded", "held"]);
    else {
      expect(decided).toEqual({ ok: false, reason: "above_cap" });
      expect(after.map((x) => x?.status)).toEqual(["partial_refund", "completed"]);
    }
    await expectBooksBalanced(t.s.ledger);
    await t.close();
  });
});

describe.each(storeKinds)("the store's own cap check (%s)", (name, stores) => {
  const userId = name === "memory" ? 9990 : 9991;
  let seq = 0;
  const topUp = (user: number, createdAt: number, extra: Partial<TopUp> = {}): TopUp => {
    seq += 1;
    const pidx = `capstore${name}${String(seq).padStart(4, "0")}`;
    return topUpRecord({
      id: `TUcap${name}${seq}`,
      paymentId: pidx,
      userId: user,
      amountPaisa: 100_000,
      status: "initiated",
      createdAt,
      expiresAt: createdAt + 3_600_000,
      ...extra,
    });
  };

  it("counts what the user's other top-ups of that Nepal day credited, and TOPUP_MAX_AMOUNT, as caps.ts does", async () => {
    const s = stores();
    const store = s.store();
    const credited = (user: number, at: number, paisa: number) =>
      topUp(user, at, { status: "completed", creditedPaisa: paisa });
    const others = [
      credited(userId, NOON - 86_400_000, 400_000), // the day before: not counted
      credited(userId, NOON - 3_600_000, 150_000),
      credited(userId, NOON + 3_600_000, 50_000),
      topUp(userId, NOON, { status: "held" }), // nothing came in
      credited(userId + 100, NOON, 400_000), // another user
    ];
    const mine = topUp(userId, NOON);
    for (const t of [...others, mine]) await store.create(t, NOON + 86_400_000);
    const opts = { maxPaisa: 250_000, dailyCapPaisa: 500_000 };
    // The caller's reading agrees with the store's: Rs 5,000 less Rs 2,000 credited, and at most
    // Rs 2,500 a top-up.
    const usersOwn = [...others, mine].filter((t) => t.userId === userId);
    expect(limitBeside(usersOwn, mine, creditCap(opts, mine, 0))).toBe(250_000);
    const write = (paisa: number, caps = opts) =>
      store.update(
        0,
        { ...mine, status: "completed", creditedPaisa: paisa },
        undefined,
        null,
        creditCap(caps, mine, paisa),
      );
    expect(await write(250_001)).toEqual({ ok: false, reason: "cap", limitPaisa: 250_000 });
    const lower = { ...opts, dailyCapPaisa: 400_000 };
    expect(await write(200_001, lower)).toEqual({ ok: false, reason: "cap", limitPaisa: 200_000 });
    expect((await store.get("khalti", mine.paymentId))?.status).toBe("initiated");
    expect(await write(200_000, lower)).toEqual({ ok: true });
    expect((await store.get("khalti", mine.paymentId))?.creditedPaisa).toBe(200_000);
  });
});
