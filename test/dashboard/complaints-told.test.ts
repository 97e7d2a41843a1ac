import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";
import { raisedComplaint } from "../support/complaints.ts";
import { type ActionsHarness, ADMIN, form, startActions } from "../support/dashboard-actions.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * A complaint answered from the back office says only what is known of the customer's notice
 * (review s24-a, N2; review s24-c, 5): the notice is queued in the notifier's outbox in the
 * complaint's own step and sent, with retries, by the notifier, so the page says it is on its way.
 * It said "the customer was told" while a failed send was only logged.
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
  return raisedComplaint(h.complaints, userId, reference);
}

/** The complaint notices queued in the outbox: complaint and status. */
async function queued(): Promise<Array<{ complaint: string; status: string; chatId: number }>> {
  const entries = await h.redis.xrange(keyspace(h.deps.prefix).outbox, "-", "+");
  return entries
    .map(([, fields]) => JSON.parse(fields[fields.indexOf("n") + 1]!))
    .filter((n) => n.kind === "complaint")
    .map((n) => ({ complaint: n.complaint, status: n.status, chatId: n.chatId }));
}

describe("the complaint's page after an action", () => {
  it("says the notice is on its way, and the notice is queued with the change", async () => {
    const c = await h.login(ADMIN);
    const taken = await complaintOf(6301, "880000000006301");
    const ok = await c.post("/dashboard/complaints/act", {}, form({ ref: taken, a: "take" }));
    expect(ok.status).toBe(200);
    const okText = await ok.text();
    expect(okText).toContain("Taken; the notice to the customer is on its way.");
    expect(okText).not.toContain("was told");

    const rejected = await complaintOf(6302, "880000000006302");
    const res = await c.post(
      "/dashboard/complaints/act",
      {},
      form({ ref: rejected, a: "reject", text: "not ours to fix" }),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("the customer was told");
    expect(text).toContain("Rejected; the notice to the customer is on its way.");
    expect((await h.complaints.get(rejected))?.status).toBe("rejected");
    expect(await queued()).toEqual(
      expect.arrayContaining([
        { complaint: taken, status: "taken", chatId: 6301 },
        { complaint: rejected, status: "rejected", chatId: 6302 },
      ]),
    );
  });
});
