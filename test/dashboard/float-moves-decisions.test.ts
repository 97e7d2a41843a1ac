import { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { LONE_ADMIN } from "../../src/dashboard/actions/float-moves.ts";
import {
  approvalRule,
  createFloatMoves,
  type FloatMove,
  transferIdOf,
} from "../../src/dashboard/float-moves.ts";
import { type DashboardKv, redisKv } from "../../src/dashboard/index.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { ADMIN, client, form, useActions } from "../support/dashboard-actions.ts";
import { REDIS_URL } from "../support/redis.ts";

/**
 * What a float movement's decision may do (review s28-float, should-fix 1 to 4), over real Redis:
 * of an approval and a rejection at once exactly one stands (the decision's SET NX, its read gap
 * forced open); a decision never books a proposal other than the one it decided; an approval
 * whose booking was cut off stays on the page however many decisions follow; the only admin is
 * told they approve their own.
 */

const h = useActions();
const ADMIN_B = 3002;
const ADMIN_C = 3003;
const keys = () => dashboardKeys(h.deps.prefix);

beforeEach(() => {
  h.admins.clear();
  for (const a of [ADMIN, ADMIN_B, ADMIN_C]) h.admins.add(a);
});

const connections: Redis[] = [];
afterAll(() => {
  for (const r of connections) r.disconnect();
});

let n = 0;
const moveOf = (over: Partial<FloatMove> = {}): FloatMove => ({
  id: `decisions-test-${Date.now()}-${n++}`,
  direction: "refill",
  amountPaisa: 10_000,
  reason: "deposit",
  by: ADMIN,
  at: Date.now(),
  ...over,
});

const rule = () => approvalRule({ ids: () => [...h.admins], same: (a, b) => a === b });
const plain = () => createFloatMoves({ kv: h.deps.kv, keys: keys(), ledger: h.ledger });
const bookedOf = async (id: string) =>
  (await h.ledger.journal()).entries.filter((e) => e.id === transferIdOf(id));

/**
 * A barrier of two parties that a party leaves when its call ends (a phaser): every read of a
 * decision waits until the other party reads one too, or has finished.
 */
function phaser() {
  let registered = 2;
  let waiting: Array<() => void> = [];
  const release = () => {
    if (waiting.length < registered) return;
    const go = waiting;
    waiting = [];
    for (const f of go) f();
  };
  return {
    arrive: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        release();
      }),
    async party<T>(call: () => Promise<T>): Promise<T> {
      try {
        return await call();
      } finally {
        registered -= 1;
        release();
      }
    },
  };
}

/** The kv port of one process (a connection of its own) whose decision reads meet at the barrier. */
function meetingKv(ph: ReturnType<typeof phaser>): DashboardKv {
  const r = new Redis(REDIS_URL);
  connections.push(r);
  const kv = redisKv(r);
  return {
    ...kv,
    async get(key) {
      if (key.includes(":decision:")) await ph.arrive();
      return kv.get(key);
    },
  };
}

/** An approval whose booking was cut off (a crash, a ledger timeout): the decision, no transfer. */
async function cutOffApproval(id: string, by: number) {
  const cutOff = createFloatMoves({
    kv: h.deps.kv,
    keys: keys(),
    ledger: {
      transfer: async () => {
        throw new Error("the booking cut off");
      },
    },
  });
  await expect(cutOff.approve(id, by, Date.now(), rule())).rejects.toThrow("cut off");
}

describe("the decision is one atomic step (SET NX)", () => {
  it.each([1, 2, 3])(
    "an approval and a rejection in two processes at once: exactly one stands (%i)",
    async () => {
      const move = moveOf();
      expect((await plain().propose(move)).created).toBe(true);
      const ph = phaser();
      const a = createFloatMoves({ kv: meetingKv(ph), keys: keys(), ledger: h.ledger });
      const b = createFloatMoves({ kv: meetingKv(ph), keys: keys(), ledger: h.ledger });
      const [approved, rejected] = await Promise.all([
        ph.party(() => a.approve(move.id, ADMIN_B, Date.now(), rule())),
        ph.party(() => b.reject(move.id, ADMIN_C, Date.now())),
      ]);
      expect([approved.ok, rejected.ok].filter(Boolean)).toHaveLength(1);
      expect(await bookedOf(move.id)).toHaveLength(approved.ok ? 1 : 0);
      const stands = (await plain().get(move.id))?.decision?.decision;
      expect(stands).toBe(approved.ok ? "approved" : "rejected");
    },
  );
});

describe("a decision decides one proposal", () => {
  it("an approval cut off, its proposal expired, the key proposed again for more: never booked under the old approval", async () => {
    const maker = await h.login(ADMIN);
    const move = moveOf({ amountPaisa: 100 });
    expect((await plain().propose(move)).created).toBe(true);
    await cutOffApproval(move.id, ADMIN_B);
    // The 400 days of the proposal's key, passed.
    await h.redis.pexpire(keys().floatMove(move.id), 1);
    while ((await h.redis.exists(keys().floatMove(move.id))) === 1) await h.redis.ping();

    const fields = { key: move.id, direction: "refill", amount: "999999.99", reason: "deposit" };
    const again = await maker.post("/dashboard/books/float", {}, form(fields));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("was approved already and is no longer kept");
    expect(
      (await maker.post("/dashboard/books/float/approve", {}, form({ id: move.id }))).status,
    ).toBe(404);
    expect(await bookedOf(move.id)).toHaveLength(0);

    // And a proposal written under the key by other means (an older instance) is not approved by it.
    const other = moveOf({ id: move.id, amountPaisa: 99_999_999 });
    await h.deps.kv.setNx(keys().floatMove(move.id), JSON.stringify(other), 60_000);
    expect(await plain().approve(move.id, ADMIN, Date.now(), rule())).toMatchObject({
      ok: false,
      code: "not_this_proposal",
    });
    const late = await maker.post("/dashboard/books/float/approve", {}, form({ id: move.id }));
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("was of another proposal: nothing was booked");
    expect(await bookedOf(move.id)).toHaveLength(0);
  });
});

describe("an approval not yet booked", () => {
  it("stays on the books page with its Book it now after 25 more decisions, until booked", async () => {
    const cut = moveOf({ amountPaisa: 4_200 });
    expect((await plain().propose(cut)).created).toBe(true);
    await cutOffApproval(cut.id, ADMIN_B);
    for (let i = 0; i < 25; i++) {
      const m = moveOf({ amountPaisa: 100 + i });
      await plain().propose(m);
      await plain().propose(m); // a replay: listed once
      if (i % 2) expect((await plain().reject(m.id, ADMIN_C, Date.now())).ok).toBe(true);
      else expect((await plain().approve(m.id, ADMIN_C, Date.now(), rule())).ok).toBe(true);
    }
    const viewer = await h.login(ADMIN_C);
    const page = await (await viewer.get("/dashboard/books")).text();
    expect(page).toContain(`value="${cut.id}"><button type="submit">Book it now</button>`);
    expect(
      (await viewer.post("/dashboard/books/float/approve", {}, form({ id: cut.id }))).status,
    ).toBe(200);
    expect(await bookedOf(cut.id)).toHaveLength(1);
    expect(await h.deps.kv.smembers(keys().floatUnbooked)).not.toContain(cut.id);
    const after = await (await viewer.get("/dashboard/books")).text();
    expect(after).not.toContain(`value="${cut.id}"><button type="submit">Book it now`);
  });
});

describe("the only admin", () => {
  it("is told they approve their own: after proposing, beside Approve, and in the section's rule", async () => {
    h.admins.clear();
    h.admins.add(ADMIN);
    const c = await h.login(ADMIN);
    const page = await (await c.get("/dashboard/books")).text();
    expect(page).toContain(
      "An admin who is the only admin (ADMIN_IDS) approves their own, as with /settle.",
    );
    const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(page)?.[1] ?? "";
    const fields = { key, direction: "up", amount: "5", reason: "bank interest" };
    const said = await (await c.post("/dashboard/books/float", {}, form(fields))).text();
    expect(said).toContain(`Nothing moves until you approve it on the books page. ${LONE_ADMIN}`);
    expect(said).not.toContain("another admin approves");
    const own = await (await c.get("/dashboard/books")).text();
    expect(own).toContain(`Approve: book Rs 5.00</button></form><p>${LONE_ADMIN}</p>`);

    // With another admin, neither is said.
    h.admins.add(ADMIN_B);
    expect(await (await c.get("/dashboard/books")).text()).not.toContain(LONE_ADMIN);
    expect(await (await client(h.url).get("/dashboard/books")).text()).not.toContain(LONE_ADMIN);
  });
});
