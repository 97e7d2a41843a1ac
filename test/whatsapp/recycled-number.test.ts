import { describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { account } from "../../src/ledger/index.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  agentCashIn,
  availableOf,
  creditPerson,
  fundAgent,
  shareContact,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp-born account belongs to the Meta user id (`contacts[].user_id`) first seen for it
 * (trust on first use), not to the number: Meta hands a recycled number to its next holder with
 * another user id. That sender is held (freeze and escalate): told the account is under review,
 * nothing shown, spent, opened or moved; the admins get one durable alert (the notifier's outbox)
 * per (account, user id) and decide with /waid <phone> accept | release.
 */

const ADMIN_PHONE = "9779800044000";
const AGENT = 12_911;
/** Another agent, for a cash-in of its own (AGENT's flow of an earlier test may still wait). */
const AGENT2 = 12_912;
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}`, AGENT_IDS: `${AGENT},${AGENT2}` },
});

const waUser = (phone: string, name: string, userId?: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, ...(userId ? { userId } : {}) });
const admin = {
  say: (...a: Parameters<WhatsAppChatUser["say"]>) => adminChat().say(...a),
  waitFor: (...a: Parameters<WhatsAppChatUser["waitFor"]>) => adminChat().waitFor(...a),
  texts: () => adminChat().texts(),
};
const adminChat = () => waUser(ADMIN_PHONE, "Admin", "NP.admin");
const HELD = /under review by our support/;
const ALERT = /writes as another WhatsApp user/;
const alertsAbout = (phone: string) =>
  admin.texts().filter((t) => ALERT.test(t) && t.includes(phone.slice(-10)));

/** Asha's account with Rs 400, then Bikash (another Meta user id) writes from her number. */
async function recycled(phone: string, n: string) {
  await admin.say("hi");
  const asha = waUser(phone, "Asha", `NP.asha-${n}`);
  await asha.say("hi", /Namaste Asha/);
  const old = waPerson(phone);
  await creditPerson(ts, old, 40_000);
  await asha.say("balance", /Rs 400/);
  const bikash = waUser(phone, "Bikash", `NP.bikash-${n}`);
  // One chat (one number): what Bikash is shown is what comes after Asha's last answer.
  const since = asha.texts().length;
  await bikash.say("balance", HELD);
  return { asha, bikash, old, shownToBikash: () => bikash.texts().slice(since) };
}

describe("a recycled WhatsApp number (same wa_id, another Meta user id): freeze and escalate", () => {
  it("the new holder sees and spends nothing, gets the held answer every time; one durable alert", async () => {
    const phone = "9779800044001";
    const { bikash, old, shownToBikash } = await recycled(phone, "1");
    for (const text of ["history", "recharge", "balance", "saved"]) {
      const seen = await bikash.say(text, HELD);
      expect(seen.text).not.toMatch(/Rs 400/);
    }
    expect(shownToBikash()).toHaveLength(5);
    expect(shownToBikash().join("\n")).not.toMatch(/Rs 400|Namaste|Your balance/);
    // Nothing opened or moved: the number is still the old account's, its money untouched.
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(old);
    expect(await availableOf(ts, old)).toBe(40_000);
    expect(await ts.system.orders.listByUser(old, 10)).toEqual([]);
    // The admins' alert comes through the notifier, once for all those messages.
    await admin.waitFor(ALERT);
    await admin.say("waid", /Send "waid" <number>/);
    expect(alertsAbout(phone)).toHaveLength(1);
  });

  it("the same Meta user id keeps its account", async () => {
    const phone = "9779800044002";
    const ram = waUser(phone, "Ram", "NP.bsuid-ram-2");
    await ram.say("hi", /Namaste Ram/);
    await creditPerson(ts, waPerson(phone), 25_000);
    await ram.say("balance", /Rs 250/);
    await ram.say("balance", /Rs 250/);
    expect(ram.texts().join("\n")).not.toMatch(HELD);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(waPerson(phone));
  });

  it("/waid accept: the held user id becomes the account's (the same person, a re-issued id)", async () => {
    const phone = "9779800044003";
    const { asha, bikash, old } = await recycled(phone, "3");
    await admin.say(`waid +${phone} accept kash-3`, /now owns account/);
    await bikash.say("balance", /Rs 400/);
    expect(await availableOf(ts, old)).toBe(40_000);
    // The user id it belonged to before is now the one held.
    await asha.say("balance", HELD);
    // Asked again: nothing waits any more.
    await admin.say(`waid ${phone.slice(3)} accept kash-3`, /waiting for a decision/);
  });

  it("/waid release: the old account keeps its money; the new holder opens a fresh one here", async () => {
    const phone = "9779800044004";
    const { bikash, old } = await recycled(phone, "4");
    await admin.say(`waid +${phone} release`, /was released from account/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBeNull();
    expect(await availableOf(ts, old)).toBe(40_000);
    // A message that does not say who sent it opens nothing: the chat's own account stays the
    // old holder's, never claimed again.
    standInOf(ts).faults.omitUserIdOf(phone);
    const noId = await waUser(phone, "Bikash").say("balance", /no longer tied to the account/);
    expect(noId.text).not.toMatch(/Rs 400/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBeNull();
    // Bikash's own user id: a fresh, empty account of his own, on WhatsApp.
    const seen = await bikash.say("balance", /Rs 0/);
    expect(seen.text).not.toMatch(/Rs 400/);
    const fresh = await ts.system.deps.accounts.userByPhone(phone as Phone);
    expect(fresh).not.toBeNull();
    expect(fresh).not.toBe(old);
    expect(await availableOf(ts, fresh ?? 0)).toBe(0);
    expect(await availableOf(ts, old)).toBe(40_000);
  });

  it("review must-fix 1: a Telegram account carrying the number neither joins nor takes it; no cash reaches it", async () => {
    const phone = "9779800044005";
    const { old } = await recycled(phone, "5");
    const tg = ts.user(12_915);
    await shareContact(tg, phone, /cannot be joined to this chat/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(old);
    // An agent's cash-in to the number is refused while the account is held.
    await fundAgent(ts, AGENT, "waid2-float-5");
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone.slice(3), /under review by support/);
    expect(await availableOf(ts, 12_915)).toBe(0);
    expect(await availableOf(ts, old)).toBe(40_000);
  });

  it("review s22-waid2 1: while held, a message without a user id is held too (nothing shown)", async () => {
    const phone = "9779800044006";
    await recycled(phone, "6");
    // Meta's next payload from the number carries no user_id (the stand-in remembers the last one).
    standInOf(ts).faults.omitUserIdOf(phone);
    const noId = waUser(phone, "Bikash");
    for (const text of ["balance", "recharge", "saved"]) {
      const seen = await noId.say(text, /./);
      expect(seen.text).toMatch(HELD);
      expect(seen.text).not.toMatch(/Rs 400/);
    }
    // Once the owner's id is back, the account is its own again.
    await waUser(phone, "Asha", "NP.asha-6").say("balance", /Rs 400/);
  });

  it("review s22-waid2 2: after release, `new yes` never puts the number back on the old account", async () => {
    const phone = "9779800044007";
    const { bikash, old } = await recycled(phone, "7");
    await admin.say(`waid +${phone} release`, /was released from account/);
    // Bikash registers on Telegram with the number, as he is told; his WhatsApp chat is then
    // under the link gate (the number is a Telegram account's).
    const tg = ts.user(12_917);
    await tg.register(phone);
    await bikash.say("hi", /registered with us on Telegram/);
    // `new yes` gives Bikash a fresh account of his own (released-telegram.test.ts), never Asha's.
    await bikash.say("new", /type new yes/);
    await bikash.say("new yes", /now has its own account here/);
    const fresh = await ts.system.deps.accounts.userByPhone(phone as Phone);
    expect(fresh).not.toBe(old);
    expect(fresh).not.toBe(12_917);
    await bikash.say("balance", /Rs 0/);
    expect(await ts.system.deps.accounts.phoneOf(old)).toBeNull();
    expect(await availableOf(ts, old)).toBe(40_000);
  });

  it("review s22-waid2 2: a hold that comes again after a decision is alerted again", async () => {
    const phone = "9779800044008";
    const { asha, bikash } = await recycled(phone, "8");
    await admin.waitFor(ALERT);
    await admin.say(`waid +${phone} accept kash-8`, /now owns account/);
    await asha.say("balance", HELD);
    await admin.waitFor(() => alertsAbout(phone).length >= 2);
    await admin.say(`waid +${phone} accept asha-8`, /now owns account/);
    // Bikash (held and decided once already) writes again: a new hold, a new alert.
    await bikash.say("balance", HELD);
    await admin.waitFor(() => alertsAbout(phone).length >= 3);
    expect(alertsAbout(phone)).toHaveLength(3);
  });

  it("review s22-waid2 3: accept names the held sender (the alert's id): a later sender's hold is not accepted", async () => {
    const phone = "9779800044009";
    const { bikash, old } = await recycled(phone, "9");
    // The alert names the held sender by a short id and how to accept exactly that one.
    await admin.waitFor(() => alertsAbout(phone).length >= 1);
    expect(alertsAbout(phone)[0]).toMatch(/accept kash-9/);
    const carol = waUser(phone, "Carol", "NP.carol-9");
    await carol.say("hi", HELD);
    await admin.waitFor(() => alertsAbout(phone).length >= 2);
    expect(alertsAbout(phone).at(-1)).toMatch(/accept arol-9/);
    // Without an id, accept is not taken.
    await admin.say(`waid +${phone} accept`, /Send "waid" <number>/);
    // The admin answers the first alert: Carol's hold is the one waiting, so nothing is done.
    const refused = await admin.say(`waid +${phone} accept kash-9`, /not kash-9/);
    expect(refused.text).toMatch(/arol-9/);
    const seen = await carol.say("balance", HELD);
    expect(seen.text).not.toMatch(/Rs 400/);
    await bikash.say("balance", HELD);
    expect(await ts.system.deps.accounts.waUserOf(old)).toBe("NP.asha-9");
    expect(await availableOf(ts, old)).toBe(40_000);
  });
});

/** Whether the router logged a message to `chatId` withheld (its account held). */
const withheldIn = (chatId: number) =>
  ts.logs.some((l) => l.includes("whatsapp message withheld") && l.includes(`"chatId":${chatId}`));

/** A Khalti top-up of `paisa` for the WhatsApp account `person`, paid and confirmed. */
async function paidTopUp(person: number, paisa: number) {
  const started = await ts.system.topUps!.start({
    userId: person,
    chatId: person,
    locale: "en",
    amountPaisa: paisa,
  });
  if (!started.ok) throw new Error("top-up start refused");
  const pidx = started.topUp.paymentId;
  ts.system.khalti!.act(pidx, "pay");
  expect((await ts.system.topUps!.confirm("khalti", pidx))?.status).toBe("completed");
}

const ADDED = /added to your balance/;

describe("review s22-waid2 4 and 5: nothing of a held account reaches its number; no cash-in books", () => {
  it("a top-up's notice (with the balance) does not reach the held chat; after accept it does", async () => {
    const phone = "9779800044011";
    const { bikash, old, shownToBikash } = await recycled(phone, "11");
    // The account's money moves on (the books), its notice is withheld from the number.
    await paidTopUp(old, 10_000);
    await waitUntil(
      () => withheldIn(old) || shownToBikash().some((t) => ADDED.test(t)),
      "the top-up notice handled",
    );
    expect(shownToBikash().join("\n")).not.toMatch(/added to your balance|Rs 500|Rs 400/);
    expect(await availableOf(ts, old)).toBe(50_000);
    // The held sender's own answer still goes.
    await bikash.say("balance", HELD);
    // The admin accepts the held sender: the account's notices reach the chat again.
    await admin.say(`waid +${phone} accept ash-11`, /now owns account/);
    await paidTopUp(old, 5_000);
    const notice = await bikash.waitFor((m) => ADDED.test(m.text));
    expect(notice.text).toMatch(/Rs 550/);
    expect(shownToBikash().filter((t) => ADDED.test(t))).toHaveLength(1);
  });

  it("a reversal's notice from an admin's flow does not reach the held chat; the admin's own answer does", async () => {
    const phone = "9779800044013";
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-13");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    const id = await agentCashIn(ts, AGENT2, "waid4-float-13", phone);
    await asha.waitFor(/Rs 300/);
    const bikash = waUser(phone, "Bikash", "NP.bikash-13");
    const since = asha.texts().length;
    await bikash.say("balance", HELD);
    await admin.say(`reverse ${id}`, /Why is it reversed/);
    await admin.say("typed the wrong customer", /Reverse receipt cashin-/);
    await adminChat().tap(/Confirm/, /Reversed: Rs 300 back/);
    await waitUntil(
      () =>
        withheldIn(old) ||
        bikash
          .texts()
          .slice(since)
          .some((t) => /reversed/.test(t)),
      "the reversal notice handled",
    );
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(/reversed|Rs 300|Your balance/);
    expect(await availableOf(ts, old)).toBe(0);
  });

  it("a cash-in whose number is held between typing it and the confirm books nothing", async () => {
    const phone = "9779800044012";
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-12");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    await fundAgent(ts, AGENT2, "waid4-float-12");
    const agent = ts.user(AGENT2);
    const floatOf = async () =>
      (await ts.system.ledger.balance(account.agent(AGENT2))).availablePaisa;
    const float = await floatOf();
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone.slice(3), /How much cash/);
    await agent.say("300", /Add .* to the balance of/);
    // Bikash writes from the number now: the account is held before the agent confirms.
    await waUser(phone, "Bikash", "NP.bikash-12").say("balance", HELD);
    await agent.tap("✅ Confirm", /under review by support/);
    expect(await availableOf(ts, old)).toBe(0);
    expect(await floatOf()).toBe(float);
  });
});
