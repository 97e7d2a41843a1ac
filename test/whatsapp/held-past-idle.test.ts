import { describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";
import { type TestSystem, useTestSystem } from "../support/system.ts";
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
 * Left s33, 2: Meta's spam rate limit (131048) holds the number's sends for a minute at a time, for
 * hours maybe. A customer's answer meanwhile owes the bot's next question (h-wahold), sent once
 * sends go again. But its idle deadline counted from when the bot asked, not from when the
 * question reached the customer: a hold longer than the idle time (20 s here, 10 minutes in
 * production) had the sweeper claim it (its notice could not go: the chat owed answers), and the
 * customer's answer to the late question found the flow over. Now time in a hold is not their
 * idleness: the question's deadline counts from when it went out.
 *
 * The process's clock (the hold's, the sweeper's, the owed answers' worker's) is moved past the
 * idle time and then past the hold; a Telegram customer's question armed just before is the sign
 * that the sweeper has swept past the held question's old deadline (both due in the same sweep).
 */
const clock = { shift: 0 };
const IDLE_MS = 20_000;

describe("WhatsApp: a question held past the idle time keeps its flow", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid", CONVERSATION_IDLE_MS: String(IDLE_MS) },
    now: () => Date.now() + clock.shift,
  });

  /** A Telegram customer at a question: its idle notice tells the sweeper got that far. */
  async function canary(id: number) {
    const c = ts.user(id);
    await c.register();
    await c.credit(100_000);
    await c.menu("📱 Mobile top-up", /Which mobile number/);
    return c;
  }

  /** `u` answers the number while 131048 holds the sends: "How much?" is owed, not sent. */
  async function answeredInHold(system: TestSystem, waId: string) {
    const u = waCustomer(system, waId);
    const person = waPerson(u.waId);
    await creditPerson(system, person, 100_000);
    const before = await availableOf(system, person);
    await openCategory(u, /Mobile top-up/, /Which mobile number/);
    const standIn = standInOf(system);
    standIn.faults.failNextSends(131048, 1, u.waId);
    const answer = await standIn.userSends({ waId: u.waId, name: u.name }, "9841234567");
    const redis = system.system.redis;
    if (!redis) throw new Error("the test system runs without Redis");
    const pending = keyspace(system.prefix).waPending(person);
    await waitUntil(async () => {
      if (!standIn.readMarks().some((m) => m.messageId === answer)) return false;
      return (await redis.zcard(pending)) === 0;
    }, "the customer's answer handled");
    return { u, person, before, answer };
  }

  it("the answer to the late question goes on: the hold's time was not the customer's", async () => {
    const c = await canary(1_960_001);
    const { u, person, before, answer } = await answeredInHold(ts, "9779841000971");
    // Past the idle time, inside the hold (a minute): the sweeper sweeps past both deadlines.
    clock.shift += IDLE_MS + 10_000;
    await c.waitFor(/ended after 20 seconds/, 15_000);
    // Past the hold: the owed question goes out.
    clock.shift += 35_000;
    const next = await u.waitFor(/How much\?/, { afterWamid: answer, timeoutMs: 15_000 });
    // Before the fix: the flow was over, "120" answered as a message outside any flow.
    await u.say("120", /Please check your order/);
    const { ref } = await confirmUntil(u, "succeeded");
    await expectPaid(ts, ref, person, before, 12_000);
    expect(u.texts().filter((t) => /ended after/.test(t))).toEqual([]);
    expect(u.messages().some((m) => m.wamid === next.wamid)).toBe(true);
  });

  it("the late question's idle time counts from when it went out, and then ends the flow", async () => {
    const { u, answer } = await answeredInHold(ts, "9779841000972");
    clock.shift += 65_000;
    await u.waitFor(/How much\?/, { afterWamid: answer, timeoutMs: 15_000 });
    // Its deadline moved to the idle time from then (right after the send: the worker's next step).
    const redis = ts.system.redis!;
    const due = keyspace(ts.prefix).idleDue;
    await waitUntil(async () => {
      const at = Number(await redis.zscore(due, String(waPerson(u.waId))));
      return at <= Date.now() + clock.shift + IDLE_MS;
    }, "the question's deadline moved");
    expect(u.texts().filter((t) => /ended after/.test(t))).toEqual([]);
    // The idle time from then on is the customer's: past it, the notice comes by itself.
    clock.shift += IDLE_MS + 5_000;
    const notice = await u.waitFor(/ended after 20 seconds/, { timeoutMs: 15_000 });
    expect(notice.text).toContain("Nothing was charged");
  });
});
