import { describe, expect, it } from "vitest";
import { createRedisLedger } from "../../src/ledger/index.ts";
import {
  createRedisTopUpStore,
  type TopUpNotice,
  topUpReturnRoutes,
  type UnreadableNotice,
} from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { topUpService } from "../support/khalti.ts";
import { loggedLines } from "../support/log-lines.ts";
import { postedOf, startTopUp, useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * Review s31-pay, 1: a user's top-up record that does not parse, beside the same user's *paid*
 * top-up of the same Nepal day. The caps' reading of the day (`listByUser`) threw at the bad
 * record, so the reconciler set the paid one aside as "unreadable" (never credited, the admins
 * told of the wrong record), its return page answered 500 and /addmoney threw all day. Now the
 * bad record counts as up to TOPUP_MAX_AMOUNT credited (in JS and in the update script), its alert
 * is owed, and the paid one is credited within what is left, or held for an admin ("cap").
 * Real Redis and the Khalti stand-in over loopback.
 */

const khalti = useKhaltiStandIn();
const env = useTestRedis("unreadable-sibling");
let n = 0;

/** A top-up service on a Redis prefix of its own, its notices, alerts and log lines kept. */
function rig(caps: { maxPaisa?: number; dailyCapPaisa?: number } = {}) {
  const prefix = `${env.prefix}${++n}:`;
  const { logger, lines } = loggedLines();
  const store = createRedisTopUpStore({ redis: env.connect(), prefix, logger });
  const ledger = createRedisLedger({ redis: env.connect(), prefix });
  const notices: TopUpNotice[] = [];
  const unreadable: UnreadableNotice[] = [];
  let offset = 0;
  const svc = topUpService({
    apiUrl: khalti.apiUrl,
    store,
    ledger,
    notices,
    unreadable,
    logger,
    now: () => Date.now() + offset,
    ...caps,
  });
  /** A record of `userId`'s created now (same Nepal day) that does not parse, in their index. */
  const damage = async (userId: number, paymentId: string, json: string) => {
    const k = keyspace(prefix);
    await env.redis.hset(k.topUp("khalti", paymentId), "v", "2", "j", json);
    await env.redis.zadd(k.topUpsByUser(userId), String(Date.now()), `khalti:${paymentId}`);
  };
  const page = topUpReturnRoutes({ topUps: svc.topUps, logger });
  const visit = async (pidx: string) => {
    const r = await page.request(`/?pidx=${pidx}`);
    return { status: r.status, outcome: /data-outcome="(\w+)"/.exec(await r.text())?.[1] };
  };
  /** The reconciler's pass a minute on (the first lookup is due a second after the start). */
  const passLater = async () => {
    offset += 60_000;
    await svc.topUps.reconcile();
  };
  return { ...svc, passLater, store, ledger, notices, unreadable, lines, damage, visit };
}

describe("a paid top-up beside an unreadable record of the same day (review s31-pay, 1)", () => {
  it("is credited within what is left; the admins are told of the bad records, not of it", async () => {
    const r = rig();
    const user = 9_901;
    const y = (await startTopUp(r.topUps, user, 50_000)).paymentId;
    khalti.standIn.act(y, "pay");
    // One not JSON (cjson.decode raised in the update script), one drifted from the schema.
    await r.damage(user, "BadSiblingX1", "{not json");
    await r.damage(user, "BadSiblingX2", JSON.stringify({ creditedPaisa: "lots", userId: user }));

    await r.passLater();
    expect((await r.topUps.get(y))?.status).toBe("completed");
    expect(await postedOf(r.ledger, user)).toBe(50_000);
    const bad = ["khalti:BadSiblingX1", "khalti:BadSiblingX2"];
    expect(await r.store.unreadable(100)).toEqual(bad);
    const told = new Set(r.unreadable.map((a) => `${a.gateway}:${a.paymentId}`));
    expect(told).toEqual(new Set(bad));
    expect(r.notices.filter((x) => x.audience === "customer").map((x) => x.topUp.status)).toEqual([
      "completed",
    ]);

    // The return page answers; one whose own record does not parse says "checking", not 500.
    expect(await r.visit(y)).toEqual({ status: 200, outcome: "received" });
    expect(await r.visit("BadSiblingX1")).toEqual({ status: 200, outcome: "checking" });
    // /addmoney: each bad record counts as the most one top-up may credit (Rs 10,000 here).
    expect(await r.topUps.remainingToday(user)).toBe(10_000_000 - 50_000 - 2 * 1_000_000);
    expect(
      (await r.topUps.start({ userId: user, chatId: user, locale: "en", amountPaisa: 10_000 })).ok,
    ).toBe(true);
    // Named once in the store's log (by the step that owed the alert) through all the readings.
    const logged = r.lines.filter(
      (l) => String(l.msg).includes("does not parse") && !String(l.msg).includes("return page"),
    );
    expect(logged.map((l) => l.member).sort()).toEqual(bad);
    await r.gateway.close();
  });

  it("held for an admin when the bad record may have used the day's cap; the admin's credit is refused, not thrown", async () => {
    // Rs 10,000 a top-up, Rs 10,200 a day: beside a record that may have credited Rs 10,000,
    // Rs 500 would pass the daily cap.
    const r = rig({ maxPaisa: 1_000_000, dailyCapPaisa: 1_020_000 });
    const user = 9_902;
    const y = (await startTopUp(r.topUps, user, 50_000)).paymentId;
    khalti.standIn.act(y, "pay");
    await r.damage(user, "BadSiblingX3", "{not json");

    await r.passLater();
    const held = await r.topUps.get(y);
    expect(held?.status).toBe("held");
    expect(held?.held?.reasons).toEqual(["cap"]);
    expect(held?.held?.reportedPaisa).toBe(50_000);
    expect(await postedOf(r.ledger, user)).toBe(0);
    expect(r.notices.some((x) => x.audience === "admin" && x.reason === "held")).toBe(true);
    expect(r.unreadable.map((a) => a.paymentId)).toEqual(["BadSiblingX3"]);
    expect(await r.visit(y)).toEqual({ status: 200, outcome: "checking" });
    expect(await r.topUps.remainingToday(user)).toBe(0);
    expect(await r.topUps.decide(y, "credit_paid", 3001, 50_000)).toEqual({
      ok: false,
      reason: "above_cap",
    });
    expect(await postedOf(r.ledger, user)).toBe(0);
    await r.gateway.close();
  });
});
