import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionsHarness, ADMIN, form, startActions } from "../support/dashboard-actions.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * A complaint answered from the back office says whether the customer's notice went out (review
 * s24-a, N2): the service's teller logs a failed send and does not throw, so "the customer was
 * told" was said also when the send failed.
 */

let h: ActionsHarness;
beforeAll(async () => {
  h = await startActions();
});
afterAll(async () => {
  await h?.close();
});

/** A complaint of `userId` on an order of theirs: its number. */
async function complaintOf(userId: number, reference: string): Promise<string> {
  await h.store.create(
    placedOrder({
      reference,
      idempotencyKey: `c-${reference}`,
      userId,
      chatId: userId,
      status: "success",
    }),
  );
  const r = await h.complaints.raise({
    userId,
    chatId: userId,
    locale: "en",
    orderReference: reference,
    reason: "not_received",
  });
  if (!r.ok) throw new Error("not raised");
  return r.complaint.reference;
}

describe("the complaint's page after an action", () => {
  it("says the notice was sent when the chat took it, and not delivered when the send failed", async () => {
    const c = await h.login(ADMIN);
    const reached = await complaintOf(6301, "880000000006301");
    const ok = await c.post("/dashboard/complaints/act", {}, form({ ref: reached, a: "take" }));
    expect(ok.status).toBe(200);
    const okText = await ok.text();
    expect(okText).toContain("Taken; the customer&#39;s notice was sent to their chat.");
    expect(h.told).toContainEqual({ chatId: 6301, text: `complaint ${reached} taken` });

    const blocked = await complaintOf(6302, "880000000006302");
    h.unreachable.add(6302);
    const res = await c.post(
      "/dashboard/complaints/act",
      {},
      form({ ref: blocked, a: "reject", text: "not ours to fix" }),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("the customer was told");
    expect(text).toContain(
      "Rejected; the customer&#39;s notice was NOT delivered (see the log): tell them another way.",
    );
    expect((await h.complaints.get(blocked))?.status).toBe("rejected");
  });
});
