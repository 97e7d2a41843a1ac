import { describe, expect, it } from "vitest";
import type { UnreadableNotice } from "../../src/payments/index.ts";
import { useUnreadableRig } from "../support/topup-rig.ts";

/**
 * The admins' alert of a top-up record that does not parse is owed until every admin chat has it
 * (review s23-e, 2): before, it was sent once when the reconciler set the record aside, and a
 * failed send was only logged, so the admins might never hear of it. Now a failed send is tried
 * again by a later pass (of any instance) after the backoff, a chat that has it is not sent it
 * again, and two instances never both send it. Real Redis, two services over one prefix.
 */

const { instance, damagedDue } = useUnreadableRig("unreadable-owed");

describe("the admins' alert of an unreadable top-up record", () => {
  it("a failed send is tried again by a later pass, to the chat that lacks it only, then never again", async () => {
    const prefix = await damagedDue("OwedBadRecord");
    let offset = 0;
    const now = () => Date.now() + offset;
    const sent: UnreadableNotice[] = [];
    let down = true;
    // Admin 3002's chat fails at first; 3001's does not.
    const send = async (x: UnreadableNotice) => {
      if (down && x.chatId === 3002) throw new Error("Bot API: 502");
      sent.push(x);
    };
    const a = instance(prefix, now, send);
    const b = instance(prefix, now, send);
    await a.topUps.reconcile(50);
    expect(sent.map((x) => x.chatId)).toEqual([3001]);
    expect(a.lines.some((l) => l.msg === "unreadable top-up alert failed")).toBe(true);
    down = false;
    // Still owed: another instance's pass after the backoff sends it to 3002 only.
    offset += 10_000;
    await b.topUps.reconcile(50);
    expect(sent.map((x) => x.chatId)).toEqual([3001, 3002]);
    expect(sent[1]).toEqual({ chatId: 3002, gateway: "khalti", paymentId: "OwedBadRecord" });
    // Every admin has it: no pass of either sends it again.
    for (const i of [a, b, a]) {
      offset += 3_600_000;
      await i.topUps.reconcile(50);
    }
    expect(sent).toHaveLength(2);
    expect((await a.topUps.pastWatch()).unreadable).toEqual(["khalti:OwedBadRecord"]);
    await a.close();
    await b.close();
  });

  it("two instances' passes at once send it once to each admin", async () => {
    const prefix = await damagedDue("TwiceBadRecord");
    let offset = 0;
    const now = () => Date.now() + offset;
    const sent: Array<[string, number]> = [];
    let entered!: () => void;
    const inSend = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const a = instance(prefix, now, async (x) => {
      entered();
      await gate;
      sent.push(["a", x.chatId]);
    });
    const b = instance(prefix, now, async (x) => {
      sent.push(["b", x.chatId]);
    });
    const first = a.topUps.reconcile(50);
    await inSend;
    // A is sending: B's pass finds the alert taken.
    await b.topUps.reconcile(50);
    release();
    await first;
    offset += 3_600_000;
    await b.topUps.reconcile(50);
    await a.topUps.reconcile(50);
    expect(sent).toEqual([
      ["a", 3001],
      ["a", 3002],
    ]);
    await a.close();
    await b.close();
  });
});
