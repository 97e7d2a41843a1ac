import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  creditPerson,
  linkCodeIn,
  shareContact,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * Review s33-rvlink, 1: a link code for a WhatsApp-born account goes to its number, which a
 * recycled SIM's next holder reads without ever writing (so no hold is made). The code is sent
 * only while the account's chat wrote within the 24-hour window (its own Meta user id: another's
 * puts a hold); otherwise the Telegram user is asked to write "hi" from that phone first.
 */

const DAY_MS = 24 * 3600 * 1000;
/** The process's clock, moved forward by the tests (the window is read against it). */
let ahead = 0;
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid" },
  now: () => Date.now() + ahead,
});

const WRITE_FIRST = /write "hi" to our WhatsApp number first/;
const codesTo = (phone: string) =>
  standInOf(ts)
    .messagesTo(phone)
    .filter((m) => /Your code/.test(m.text));

describe("WhatsApp: a link code only to a chat that wrote within the window", () => {
  it("a recycled number's next holder, who never wrote, gets no code and joins nothing", async () => {
    const phone = "9779800033101";
    const owner = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha", userId: "NP.owner1" });
    await owner.say("hi", /Namaste/);
    const person = waPerson(phone);
    await creditPerson(ts, person, 150_000);
    ahead += DAY_MS + 60_000;
    // The SIM is recycled; its next holder never writes on WhatsApp, but reads what arrives there.
    const thief = ts.user(33_101);
    const answer = await shareContact(thief, phone, /./);
    // They type whatever code reached the number (none: any code joins nothing, no offer was made).
    const sent = codesTo(phone).at(-1);
    // (outside the window it came as the template, on one line)
    await thief.say(`/link ${/: (\d{6})/.exec(sent?.text ?? "")?.[1] ?? "123456"}`, /./);
    expect(await ts.system.deps.accounts.links.linkOf(33_101)).toBeNull();
    expect(await availableOf(ts, person)).toBe(150_000);
    expect(answer.text).toMatch(WRITE_FIRST);
    expect(codesTo(phone)).toEqual([]);
  });

  it("the account's own holder writes hi, asks again, and gets the code", async () => {
    const phone = "9779800033102";
    const owner = new WhatsAppChatUser(standInOf(ts), phone, { name: "Ram", userId: "NP.owner2" });
    await owner.say("hi", /Namaste/);
    ahead += DAY_MS + 60_000;
    const tg = ts.user(33_102);
    await shareContact(tg, phone, WRITE_FIRST);
    await owner.say("hi", /./);
    await shareContact(tg, phone, /sent a 6-digit code to that WhatsApp chat/);
    const code = linkCodeIn(codesTo(phone).at(-1)?.text ?? "");
    await tg.say(`/link ${code}`, /Joined: this chat now uses the account/);
    expect(await ts.system.deps.accounts.links.linkOf(33_102)).toBe(waPerson(phone));
  });

  it("the words in Nepali and Hindi", async () => {
    for (const [id, lang, words] of [
      [33_103, "ne", /पहिले हाम्रो WhatsApp नम्बरमा "hi" लेख्नुहोस्/],
      [33_104, "hi", /पहले हमारे WhatsApp नंबर पर "hi" लिखिए/],
    ] as const) {
      const phone = `97798000${id}`;
      const owner = new WhatsAppChatUser(standInOf(ts), phone, {
        name: "Sita",
        userId: `NP.${id}`,
      });
      await owner.say("hi", /Namaste/);
      ahead += DAY_MS + 60_000;
      const tg = ts.user(id, { language_code: lang });
      await shareContact(tg, phone, words);
      expect(codesTo(phone)).toEqual([]);
    }
  });
});
