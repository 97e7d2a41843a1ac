import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import type { Complaints } from "../../src/complaints/index.ts";
import { pdfText } from "../support/pdf-text.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * What the customer's own views say of an order refunded on a complaint (review s33-rvtruth 7):
 * its /history line and the receipt they share show the refund (how much, when, on which
 * complaint) and, for a part refund, what they paid in the end, where they had said "Total paid"
 * with no word of it while the back office said "refunded". And the chat receipt, edited in
 * place to "failed", says the money went back, as the push under it does (review s33-rvtruth 6).
 * On Redis and in memory, prepaid, through the complaints' own service and the chat.
 */

const ADMIN = 3001;

describe.each([
  ["memory", false],
  ["redis", true],
])("a refunded order's history and receipt (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis, env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  const complaints = (): Complaints => ts.system.deps.complaints!;
  const isDocument = (e: TranscriptEntry) => e.kind === "document";

  /** A customer with Rs 500 whose Rs 100 recharge succeeded: the order's reference. */
  async function paidOrder(u: TestUser): Promise<string> {
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841234567", "100");
    const { ref } = await u.confirmUntil("succeeded");
    return ref;
  }

  /** A complaint on the order resolved with a refund of `paisa`: its number. */
  async function refunded(u: TestUser, ref: string, paisa: number): Promise<string> {
    const raised = await complaints().raise({
      userId: u.id,
      chatId: u.id,
      locale: "en",
      orderReference: ref,
      reason: "not_received",
    });
    if (!raised.ok) throw new Error("not raised");
    const cref = raised.complaint.reference;
    const done = await complaints().resolve(cref, ADMIN, { text: "refunded", refundPaisa: paisa });
    expect(done.ok).toBe(true);
    await u.waitFor(new RegExp(`Your complaint ${cref} about order ${ref} is resolved`));
    return cref;
  }

  const sharedReceipt = async (u: TestUser) =>
    pdfText((await u.tap("📄 Share receipt", isDocument)).document!.bytes).text;

  it("refunded in full: /history and the shared receipt say so", async () => {
    const u = ts.user(10_801);
    const ref = await paidOrder(u);
    const cref = await refunded(u, ref, 10_000);

    const page = await u.say("/history", /Ref:/);
    const line = new RegExp(
      `Total: Rs 100 · refunded Rs 100 on \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} NPT \\(complaint ${cref}\\) · Ref: ${ref}`,
    );
    expect(page.text).toMatch(line);
    expect(page.text).not.toContain("in the end");

    const pdf = await sharedReceipt(u);
    expect(pdf).toContain("Total paid: Rs 100");
    expect(pdf).toMatch(new RegExp(`Refunded Rs 100 on .+ NPT \\(complaint ${cref}\\)`));
    expect(pdf).not.toContain("Paid in the end");
  });

  it("refunded in part: what the customer paid in the end, in /history and the receipt", async () => {
    const u = ts.user(10_802);
    const ref = await paidOrder(u);
    const cref = await refunded(u, ref, 500);

    const page = await u.say("/history", /Ref:/);
    expect(page.text).toMatch(
      new RegExp(
        `Total: Rs 100 · refunded Rs 5 on .+ NPT \\(complaint ${cref}\\) · paid Rs 95 in the end · Ref: ${ref}`,
      ),
    );
    const pdf = await sharedReceipt(u);
    expect(pdf).toMatch(new RegExp(`Refunded Rs 5 on .+ \\(complaint ${cref}\\)`));
    expect(pdf).toContain("Paid in the end: Rs 95");
  });

  it("an order not refunded shows no refund (the next order of the same customer)", async () => {
    const u = ts.user(10_803);
    const first = await paidOrder(u);
    await refunded(u, first, 10_000);
    await u.mobileToConfirm("9841234567", "50");
    const { ref } = await u.confirmUntil("succeeded");
    const page = await u.say("/history", /Ref:/);
    const lines = page.text.split("\n\n");
    const second = lines.find((l) => l.includes(`Ref: ${ref}`));
    expect(second).toContain("Total: Rs 50 · Ref:");
    expect(lines.find((l) => l.includes(`Ref: ${first}`))).toContain("refunded Rs 100");
  });

  it("the chat receipt edited to failed says the money went back (review s33-rvtruth 6)", async () => {
    const u = ts.user(10_804);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9861230000", "100");
    const { receipt, push } = await u.confirmUntil("failed");
    expect(push.text).toContain("Rs 100 has been returned to your balance.");
    const edited = await waitUntil(() => {
      const m = u.chat().find((e) => e.id === receipt.id);
      return m?.text.includes("failed") ? m : undefined;
    }, "the receipt edited to failed");
    expect(edited.text).toContain("Total: Rs 100");
    expect(edited.text).toContain("Rs 100 has been returned to your balance.");
    // True at that moment: the hold was voided in the write that failed the order.
    const balance = await u.say("/balance", /balance/i);
    expect(balance.text).toContain("Rs 500");
  });
});
