import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import type { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { creditedCustomer, standInOf } from "../support/whatsapp-steps.ts";

/**
 * Review s32-whatsapp, finding 4: an image or a document a customer sends with a caption was
 * answered "I did not understand that…", the caption dropped: a screenshot captioned with the
 * number to recharge, a bill's PDF captioned with the amount. Now the caption is read as the
 * words typed, at whatever question stands (the file never is). A file without a caption (and
 * a sticker, a location) is a message without words: a question answers "please answer with a
 * text", the chat outside one that the bot reads only text and buttons.
 * Finding 7: WhatsApp's answers named slash commands ("Send /recharge … or /help"), a Telegram
 * habit; they name the words to type there. Telegram's words are unchanged (bot-setup.test.ts).
 */
const image = (caption?: string) => ({
  type: "image",
  image: {
    id: "1479537139650973",
    mime_type: "image/jpeg",
    sha256: "u8Ux4Cz1fBcnJ1nvtGwrq8ZNd0AQgX9ojdMGeCZZ2qs=",
    ...(caption === undefined ? {} : { caption }),
  },
});

/**
 * The customer sends `message` (a Cloud API message body); the first business message after it
 * (matching `expect`: a second wrong answer puts the question's own words back first).
 */
async function sends(
  ts: Parameters<typeof standInOf>[0],
  u: WhatsAppChatUser,
  message: object,
  expect?: RegExp,
) {
  const wamid = await standInOf(ts).userSendsMessage({ waId: u.waId }, { ...message });
  return u.waitFor(expect, { afterWamid: wamid });
}

describe("WhatsApp: files, captions and the words to type", () => {
  const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

  it("a caption is read as the words typed, at whatever question stands", async () => {
    const { u } = await creditedCustomer(ts, "9779841000831", 500_000);
    // A screenshot captioned with the number: the recharge starts with it, as typing it does.
    const asked = await sends(ts, u, image("  9841234567 "));
    expect(asked.text).toMatch(/How much/);
    // The bill's PDF captioned with the amount, at the amount question.
    const check = await sends(ts, u, {
      type: "document",
      document: { id: "2", filename: "bill.pdf", mime_type: "application/pdf", caption: "150" },
    });
    expect(check.text).toMatch(/Please check your order/);
    expect(check.text).toContain("9841234567");
  });

  it("a file without a caption is told the bot reads only text and buttons", async () => {
    const { u } = await creditedCustomer(ts, "9779841000832", 500_000);
    await u.say("hi", /Choose what you want to pay/);
    const told = await sends(ts, u, image());
    expect(told.text).toContain("I can read only text messages and buttons");
    expect(told.text).not.toContain("/recharge");
    const sticker = await sends(ts, u, { type: "sticker", sticker: { id: "3", animated: false } });
    expect(sticker.text).toContain("I can read only text messages and buttons");

    // At a question, the question again with how to answer it; the flow goes on from there.
    await u.say("9841234567", /How much/);
    const again = await sends(ts, u, { type: "audio", audio: { id: "4", voice: true } });
    expect(again.text).toMatch(/^Please answer with a text message or use the buttons/);
    const location = { type: "location", location: { latitude: 27.7, longitude: 85.3 } };
    await sends(ts, u, location, /^Please answer with a text message or use the buttons/);
    await u.say("150", /Please check your order/);
  });

  it("WhatsApp's answers name the words to type, not slash commands", async () => {
    const { u } = await creditedCustomer(ts, "9779841000833", 500_000);
    const menu = await u.say("hi", /Choose what you want to pay/);
    expect(menu.text).toContain('Choose what you want to pay, or type "help".');
    const unknown = await u.say("what is this", /I did not understand that/);
    expect(unknown.text).toBe(
      'I did not understand that. Type "recharge" to pay something, or "help" for help.',
    );
    await u.say("9841234567", /How much/);
    const cancelled = await u.tap(/Cancel/, /Cancelled/);
    expect(cancelled.text).toBe('Cancelled. Nothing was charged. Type "recharge" to start again.');

    await u.say("language", /Choose your language/);
    await u.tap("नेपाली", /नेपाली/);
    const ne = await u.say("what is this", /मैले बुझिनँ/);
    expect(ne.text).toContain('"recharge"');
    expect(ne.text).not.toContain("/recharge");
  });
});
