import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { monthLabel, recentMonths } from "../../src/bot/statement-document.ts";
import { account } from "../../src/ledger/index.ts";
import { pdfText } from "../support/pdf-text.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";

/**
 * Documents a customer can keep and forward (issue 30), read as the chat: a success push offers
 * "Share receipt", and a tap sends the receipt as a PDF whose text is the receipt's: the
 * reference, what was paid, the balance after, the time with its zone; in Nepali set in
 * Devanagari with its conjuncts shaped.
 */
describe("documents to keep, end to end", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid", LOW_FLOAT_ALERT: "0" } });
  const t = (locale: string, key: string, args?: Record<string, string>) =>
    ts.system.deps.i18n.t(locale, key, args);

  async function funded(id: number, fields?: { language_code?: string }): Promise<TestUser> {
    const u = ts.user(id, fields);
    await u.register();
    await u.credit(2_000_000);
    return u;
  }

  const isDocument = (e: TranscriptEntry) => e.kind === "document";

  it("Share receipt under a success push sends the receipt as a PDF with the order's figures", async () => {
    const u = await funded(3101);
    await u.mobileToConfirm("9841234567", "150");
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(u.buttons(push)).toContain("📄 Share receipt");
    const doc = await u.tap("📄 Share receipt", isDocument);
    expect(doc.document?.fileName).toBe(`receipt-${ref}.pdf`);
    expect(doc.text).toBe(`Receipt for order ${ref}: keep it or forward it.`);
    const pdf = pdfText(doc.document!.bytes).text;
    // The same lines as the push: the reference, the account, the total paid, the balance after.
    expect(pdf).toContain(`Order ${ref}`);
    expect(pdf).toContain("NTC Prepaid · 9841234567 · Rs 150");
    expect(pdf).toContain("Total paid: Rs 150");
    expect(pdf).toContain("Balance after: Rs 19,850");
    expect(pdf).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} NPT/);
    // Every line of the push, but the emoji a document's font does not draw.
    const noEmoji = (l: string) => l.replace(/\p{Extended_Pictographic}\uFE0F? ?/gu, "");
    for (const line of push.text.split("\n").slice(1)) expect(pdf).toContain(noEmoji(line));
  });

  it("in Nepali the document is set in Devanagari, conjuncts shaped, with the BS date", async () => {
    const u = ts.user(3102, { language_code: "ne" });
    u.emu.sendContact(u.id, { phoneNumber: `+${u.phone()}` });
    await u.waitFor(/दर्ता भयो/);
    await u.credit(100_000);
    await u.say("/recharge", t("ne", "menu-prompt"));
    await u.tap(t("ne", "menu-mobile"), /कुन मोबाइल नम्बर/);
    await u.say("9841234567", /NTC Prepaid\nकति\?/);
    await u.say("150", t("ne", "confirm-title"));
    const receipt = await u.tap(t("ne", "common-confirm"), /अर्डर \d+/);
    const ref = /अर्डर (\d+)/.exec(receipt.text)![1]!;
    await u.waitFor(t("ne", "notify-title-success", { ref }));
    const doc = await u.tap(t("ne", "receipt-share"), isDocument);
    const pdf = pdfText(doc.document!.bytes);
    expect(pdf.text).toContain(ref);
    expect(pdf.text).toContain("रु 150");
    expect(pdf.text).toMatch(/20\d\d/); // the Bikram Sambat year beside the Gregorian one
    expect(pdf.text).toContain("NPT");
    // Shaped, not drawn letter by letter: glyphs that stand for a conjunct or a reph.
    expect(pdf.ligatures.length).toBeGreaterThan(0);
    expect(pdf.text).not.toContain("\uFFFD");
    expect(pdf.text).not.toMatch(/[०-९]/);
  });

  it("a receipt someone else's order is not sent (forged button)", async () => {
    const owner = await funded(3103);
    await owner.mobileToConfirm("9841234567", "150");
    const { ref, push } = await owner.confirmUntil("succeeded");
    const other = await funded(3104);
    const hello = await other.say("/balance", /balance/i);
    other.emu.pressButton(other.id, hello.id, `rcp:${ref}`, { force: true });
    await other.waitFor("I found no order with that number.");
    expect(other.chat().some(isDocument)).toBe(false);
    expect(push.id).toBeGreaterThan(0);
  });

  it("/statement: the month's movements as a PDF whose balances agree with the books", async () => {
    const u = await funded(3105);
    await u.mobileToConfirm("9841234567", "150");
    const { ref } = await u.confirmUntil("succeeded");
    await u.mobileToConfirm("9841234567", "250");
    const second = await u.confirmUntil("succeeded");
    const choice = await u.say("/statement", /Which month's statement\?/);
    const month = monthLabel("en", recentMonths(Date.now(), 1)[0]!);
    expect(u.buttons(choice)[0]).toBe(month);
    const doc = await u.tap(month, isDocument);
    expect(doc.text).toBe(`Your statement for ${month}.`);
    expect(doc.document?.fileName).toMatch(/^statement-20\d\d-\d\d\.pdf$/);
    const pdf = pdfText(doc.document!.bytes).text;
    const books = await ts.system.ledger.balance(account.customer(u.id));
    expect(books.postedPaisa).toBe(2_000_000 - 15_000 - 25_000);
    expect(pdf).toContain(`Statement for ${month}`);
    expect(pdf).toContain("Available to spend at the start: Rs 0");
    expect(pdf).toContain("Money in: Rs 20,000 · Money out: Rs 400");
    // The closing balance is the books' balance now (nothing after this month, nothing held).
    expect(pdf).toContain("Available to spend at the close: Rs 19,600");
    expect(pdf).not.toContain("Held at the close");
    // Each order is a line with its reference and what was available right after it.
    expect(pdf).toMatch(new RegExp(`Order ${ref} −Rs 150 Rs 19,850`));
    expect(pdf).toMatch(new RegExp(`Order ${second.ref} −Rs 250 Rs 19,600`));
    expect(pdf).toMatch(/Credit .*\+Rs 20,000 Rs 20,000/);
  });

  it("a failed order's receipt (from /status) says the money came back and why (review s32-receipts 1)", async () => {
    const u = await funded(3107);
    await u.mobileToConfirm("9861230000", "100");
    const { ref, push } = await u.confirmUntil("failed");
    expect(push.text).toContain("Rs 100 has been returned to your balance.");
    const status = await u.say(`/status ${ref}`, new RegExp(ref));
    expect(u.buttons(status)).toContain("📄 Share receipt");
    const doc = await u.tap("📄 Share receipt", isDocument);
    const pdf = pdfText(doc.document!.bytes).text;
    expect(pdf).toContain(`Order ${ref}`);
    expect(pdf).toContain("Status: failed");
    expect(pdf).toContain("Rs 100 has been returned to your balance.");
    // The push's reason line, word for word.
    const reason = push.text.split("\n").find((l) => l.startsWith("Reason: "));
    expect(reason).toBeDefined();
    expect(pdf).toContain(reason!);
    expect(pdf).toContain("Balance after: Rs 20,000");
  });

  it("/status of a final order offers Share receipt; a tap while a flow waits keeps the question", async () => {
    const u = await funded(3106);
    await u.mobileToConfirm("9841234567", "150");
    const { ref } = await u.confirmUntil("succeeded");
    const status = await u.say(`/status ${ref}`, new RegExp(ref));
    expect(u.buttons(status)).toContain("📄 Share receipt");
    // A flow is open: its question waits while the document comes.
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const doc = await u.tap("📄 Share receipt", isDocument);
    expect(pdfText(doc.document!.bytes).text).toContain(`Order ${ref}`);
    await u.say("9841234567", /NTC Prepaid|Operator for 9841234567/);
  });
});
