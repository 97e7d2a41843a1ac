import { describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import {
  availableOf,
  confirmUntil,
  creditPerson,
  expectPaid,
  openCategory,
  standInOf,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * Meta's spam rate limit (131048) holds the number's sends for a minute at a time, for hours
 * maybe. A customer who answers a flow's question meanwhile: the bot's next question is owed, not
 * failed, and arrives once WhatsApp takes sends again; the flow is where the customer left it.
 * Before (review s31-notify, finding 2): the reply failed ("nothing sent"), the conversation ended
 * with the error, the customer's answer was lost and the flow gone once the hold lifted.
 */
const clock = { shift: 0 };

describe("WhatsApp: an answer held by Meta's rate limit is owed, not lost", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid" },
    now: () => Date.now() + clock.shift,
  });

  it("the next question arrives after the hold, the flow finishes, nothing is sent twice", async () => {
    const u = waCustomer(ts, "9779841000961");
    const person = waPerson(u.waId);
    await creditPerson(ts, person, 100_000);
    const before = await availableOf(ts, person);
    await openCategory(u, /Mobile top-up/, /Which mobile number/);
    const standIn = standInOf(ts);
    standIn.faults.failNextSends(131048, 1, u.waId);
    const sent = standIn.sendCount();
    const answer = await standIn.userSends({ waId: u.waId, name: u.name }, "9841234567");
    // Handled: marked read, then its chat's line empty (the queue moves on after the handling).
    const redis = ts.system.redis;
    if (!redis) throw new Error("the test system runs without Redis");
    const pending = keyspace(ts.prefix).waPending(person);
    await waitUntil(async () => {
      if (!standIn.readMarks().some((m) => m.messageId === answer)) return false;
      return (await redis.zcard(pending)) === 0;
    }, "the customer's answer handled");
    // Nothing went out while the limit stands: the refused send counted none, the rest held.
    expect(standIn.sendCount()).toBe(sent);

    clock.shift += 61_000;
    // Before the fix: never (the flow had ended, its answer failed for good).
    const next = await u.waitFor(/How much\?/, { afterWamid: answer, timeoutMs: 15_000 });
    expect(u.messages().at(-1)?.wamid).toBe(next.wamid);
    await u.say("120", /Please check your order/);
    const { ref } = await confirmUntil(u, "succeeded");
    await expectPaid(ts, ref, person, before, 12_000);

    // Each question once, no error reply, and every message after the answer once.
    const texts = u.texts();
    expect(texts.filter((t) => /How much\?/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /Something went wrong/.test(t))).toEqual([]);
    const wamids = u.messages().map((m) => m.wamid);
    expect(new Set(wamids).size).toBe(wamids.length);
  });
});
