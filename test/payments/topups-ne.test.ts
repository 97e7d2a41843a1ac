import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import type { TopUp } from "../../src/payments/index.ts";
import { unreadableTopUpsKey } from "../../src/payments/redis-store.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTopUpSystem } from "../support/topup-system.ts";

/**
 * /topups answers an admin in the admin's language (review s23-e, 3): before, the held top-ups'
 * facts, the open ones past the refund watch, the unreadable records and a decision's outcome
 * were English in a Nepali chat. Every reply to the command and to its buttons is checked for
 * Latin words once the names it quotes are taken out (payment and top-up ids, the gateway's name,
 * its transaction id, /commands), as test/unit/locale-words.test.ts checks the files.
 */

const ADMIN = 3001;

/** Latin words of `text` outside the given names and /commands. */
function englishWords(text: string, names: readonly string[]): string[] {
  let rest = text;
  for (const n of [...names].sort((a, b) => b.length - a.length)) rest = rest.split(n).join(" ");
  rest = rest.replace(/(^|\s)\/[a-z_]+/g, " ");
  return [...rest.matchAll(/[A-Za-z][A-Za-z'-]*/g)].map((m) => m[0]);
}

describe("/topups in Nepali", () => {
  const sys = useTopUpSystem(true, {
    // A top-up just started is past the watch, so the list has one.
    TOPUP_REFUND_WATCH_MS: "0",
    TOPUP_REFUND_CHECK_MS: "3600000",
  });

  async function pay(t: TopUp): Promise<void> {
    const res = await fetch(`${sys.ts().system.url}/khalti/pay/${t.paymentId}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    await res.text();
    const back = res.headers.get("location");
    if (!back) throw new Error(`no redirect (${res.status})`);
    await (await fetch(back)).text();
  }

  it("has no English sentence in its list, its decision or its refusal", async () => {
    const admin = sys.ts().user(ADMIN, { language_code: "ne" });
    const held = await sys.start(961, 140);
    sys.khalti().misreport(held.paymentId, { totalAmount: 15_000 });
    await pay(held);
    const stored = await sys.topUps().get(held.paymentId);
    expect(stored?.status).toBe("held");
    const open = await sys.start(962, 125);
    const redis = new Redis(REDIS_URL);
    const bad = "khalti:NepaliBadRecord";
    try {
      await redis.sadd(unreadableTopUpsKey(sys.ts().prefix), bad);
      const from = admin.botTexts().length;
      await admin.say("/topups", (m) => m.text.includes(bad));
      const names = [
        held.paymentId,
        held.id,
        open.paymentId,
        open.id,
        bad,
        "khalti",
        stored?.held?.transactionId ?? "-",
      ];
      const list = admin.botTexts().slice(from);
      expect(list.some((x) => x.includes(held.paymentId))).toBe(true);
      expect(list.some((x) => x.includes(open.paymentId))).toBe(true);
      expect(list.join("\n")).toContain("रु 140");
      expect(list.join("\n")).toContain("0 दिन 0 घण्टा");
      expect(list.flatMap((x) => englishWords(x, names))).toEqual([]);
      const reject = "अस्वीकार गर्नुहोस् (गेटवेमा फिर्ता)";
      const done = await admin.tap(reject, (m) => m.text.startsWith(`${held.paymentId}:`));
      expect(englishWords(done.text, names)).toEqual([]);
      expect(done.text).toContain("अस्वीकार");
      // A second tap: the refusal (not held any more) in Nepali too.
      const again = await admin.tap(
        reject,
        (m) => m.text.startsWith(`${held.paymentId}:`) && m !== done,
      );
      expect(again.text).toContain("अब रोकिएको छैन");
      expect(englishWords(again.text, names)).toEqual([]);
    } finally {
      await redis.quit();
    }
  });
});
