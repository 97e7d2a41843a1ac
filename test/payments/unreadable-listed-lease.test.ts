import { describe, expect, it } from "vitest";
import type { UnreadableNotice } from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { topUpRecord, useUnreadableRig } from "../support/topup-rig.ts";

/**
 * Review s24-e, 4, 5 and 10, on real Redis with two services over one prefix:
 *  - a held or partial-refund record that does not parse is off the reconciler's schedule, so its
 *    alert was never owed (only named when an admin opened a list): now the pass reads both lists
 *    and owes it, once per record, tried again until each admin has it;
 *  - the owed alert's lease was a time one instance wrote and another compared with its own
 *    clock, and the record step did not check whose lease it was: now a token the record step
 *    checks, ended by Redis's clock, each chat recorded as it gets the alert;
 *  - every read of the lists logged every bad record again: now the first finding only.
 */

const { env, nextPrefix, instance, damagedDue } = useUnreadableRig("unreadable-listed");

/** A held and a partial-refund record, damaged, in their lists (off the schedule), own prefix. */
async function damagedInLists(): Promise<string> {
  const prefix = nextPrefix();
  const k = keyspace(prefix);
  const at = Date.now() - 3_600_000;
  await env.redis.hset(k.topUp("khalti", "HeldBad"), "v", "2", "j", "{not json");
  await env.redis.zadd(k.topUpsHeld, String(at), "khalti:HeldBad");
  const drifted = {
    ...topUpRecord({
      id: "TUPartialBad",
      paymentId: "PartialBad",
      userId: 9811,
      amountPaisa: 20_000,
      status: "partial_refund",
      createdAt: at,
    }),
    status: "lost",
  };
  await env.redis.hset(k.topUp("khalti", "PartialBad"), "v", "2", "j", JSON.stringify(drifted));
  await env.redis.zadd(k.topUpsPartial, String(at), "khalti:PartialBad");
  return prefix;
}

/** A promise and its resolver: a send held until the test lets it go. */
function gate() {
  let open!: () => void;
  const shut = new Promise<void>((r) => {
    open = r;
  });
  return { shut, open };
}

describe("held and partial-refund records that do not parse", () => {
  it("the reconciler's pass owes their alert: once per record, tried again until each admin has it", async () => {
    const prefix = await damagedInLists();
    let offset = 0;
    const now = () => Date.now() + offset;
    const sent: string[] = [];
    let down = true;
    const send = async (x: UnreadableNotice) => {
      if (down && x.chatId === 3002) throw new Error("Bot API: 502");
      sent.push(`${x.chatId} ${x.paymentId}`);
    };
    const a = instance(prefix, now, send);
    const b = instance(prefix, now, send);
    // No admin opened a list: the pass alone finds them (before: never alerted).
    await a.topUps.reconcile(50);
    expect(sent.sort()).toEqual(["3001 HeldBad", "3001 PartialBad"]);
    down = false;
    offset += 10_000;
    await b.topUps.reconcile(50);
    expect(sent.sort()).toEqual(
      ["3001 HeldBad", "3001 PartialBad", "3002 HeldBad", "3002 PartialBad"].sort(),
    );
    // Every admin has both: later passes and list reads send nothing again.
    for (const i of [a, b, a]) {
      offset += 3_600_000;
      await i.topUps.held();
      await i.topUps.reconcile(50);
    }
    expect(sent).toHaveLength(4);
    expect((await a.topUps.pastWatch()).unreadable).toEqual([
      "khalti:HeldBad",
      "khalti:PartialBad",
    ]);
    await a.close();
    await b.close();
  });

  it("an unreadable record is logged once, when first found, not on every read of the lists", async () => {
    const prefix = await damagedInLists();
    const a = instance(prefix, Date.now, async () => {});
    const b = instance(prefix, Date.now, async () => {});
    for (const i of [a, b, a]) {
      await i.topUps.held();
      await i.topUps.partialRefunds();
      await i.topUps.pastWatch();
      await i.topUps.reconcile(50);
    }
    const logged = [...a.lines, ...b.lines]
      .filter((l) => String(l.msg).includes("does not parse"))
      .map((l) => l.member);
    expect(logged.sort()).toEqual(["khalti:HeldBad", "khalti:PartialBad"]);
    await a.close();
    await b.close();
  });
});

describe("the owed alert's lease", () => {
  it("an expired lease: the late holder's record is refused, the new holder sends only what is missing", async () => {
    const prefix = await damagedDue("LeaseBad");
    let offset = 0;
    const now = () => Date.now() + offset;
    const sent: Array<[string, number]> = [];
    const [gateA, gateB] = [gate(), gate()];
    const [inA, inB] = [gate(), gate()];
    let aSlow = true;
    // A's send to 3002 hangs past its lease, then fails; later ones go through.
    const a = instance(prefix, now, async (x) => {
      if (x.chatId === 3002 && aSlow) {
        aSlow = false;
        inA.open();
        await gateA.shut;
        throw new Error("Bot API: timeout");
      }
      sent.push(["a", x.chatId]);
    });
    // B's send to 3002 hangs until the test lets it go.
    const b = instance(prefix, now, async (x) => {
      if (x.chatId === 3002) {
        inB.open();
        await gateB.shut;
      }
      sent.push(["b", x.chatId]);
    });
    const passA = a.topUps.reconcile(50);
    await inA.shut;
    // A's lease runs out: the instances' clocks move past it, and Redis's own (its lease key).
    offset += 600_000;
    for (const key of await env.redis.keys(`${prefix}*unreadable:lease:*`))
      await env.redis.del(key);
    const passB = b.topUps.reconcile(50);
    await inB.shut;
    // A's send fails late: its record must not touch B's lease (before: it rescheduled the alert).
    gateA.open();
    await passA;
    offset += 3_600_000;
    await a.topUps.reconcile(50);
    gateB.open();
    await passB;
    for (const i of [a, b]) {
      offset += 3_600_000;
      await i.topUps.reconcile(50);
    }
    // 3001 from A (recorded as it went), 3002 from B only: once each.
    expect(sent).toEqual([
      ["a", 3001],
      ["b", 3002],
    ]);
    await a.close();
    await b.close();
  });

  it("instances whose clocks are ten minutes apart still send it once to each admin", async () => {
    const prefix = await damagedDue("SkewBad");
    const sent: Array<[string, number]> = [];
    const held = gate();
    const inA = gate();
    const a = instance(prefix, Date.now, async (x) => {
      inA.open();
      await held.shut;
      sent.push(["a", x.chatId]);
    });
    const b = instance(
      prefix,
      () => Date.now() + 600_000,
      async (x) => {
        sent.push(["b", x.chatId]);
      },
    );
    const passA = a.topUps.reconcile(50);
    await inA.shut;
    // B's clock is past A's lease as A wrote it: only Redis's clock may end the lease.
    await b.topUps.reconcile(50);
    held.open();
    await passA;
    expect(sent).toEqual([
      ["a", 3001],
      ["a", 3002],
    ]);
    await a.close();
    await b.close();
  });
});
