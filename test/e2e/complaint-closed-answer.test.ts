import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Review s32-accounts, 5: Resolve tapped again under a /complaints message after the complaint
 * was resolved with a refund offered "Refund Rs 100 and resolve", asked what was done and showed
 * "Refund Rs 100 to the customer's balance…" with Confirm, and only then said it was already
 * resolved (Reject the same). Now either button on a closed complaint says so at once.
 */

const ADMIN = 3001;
const CUSTOMER = 10_961;

async function paidOrder(ts: TestSystem, u: TestUser): Promise<string> {
  await u.register();
  await u.credit(50_000);
  const ref = await u.placeMobile("9841234567", "100");
  await u.outcome(ref, "succeeded");
  await waitUntil(async () => (await ts.system.orders.get(ref))?.status === "success", "success");
  return ref;
}

describe("answering a complaint already closed, in the chat", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("Resolve or Reject on a refunded complaint says it is closed, offering nothing", async () => {
    const u = ts.user(CUSTOMER);
    const ref = await paidOrder(ts, u);
    await u.say(`/complain ${ref}`, /What went wrong/);
    const raised = await u.tap("Paid but not received", /Complaint C\d+ is registered/);
    const cref = /Complaint (C\d+)/.exec(raised.text)![1]!;
    const admin = ts.user(ADMIN);
    // The new complaint's alert comes through the outbox, at its own time: once it is in, the
    // list below is the chat's latest message, whose buttons are tapped.
    await admin.waitFor(new RegExp(`New complaint ${cref}`));
    await admin.say("/complaints", new RegExp(cref));
    await admin.tap("Resolve", /how is it resolved\?/);
    await admin.tap("Refund Rs 100 and resolve", /What was done\?/);
    await admin.say("The operator did not deliver it", /Refund Rs 100/);
    await admin.tap("✅ Confirm", /resolved with a refund of Rs 100/);

    // The list message's buttons are still there: tapped again.
    const again = await admin.tap("Resolve", /./);
    expect(again.text).toBe(
      `Complaint ${cref} is already resolved: The operator did not deliver it`,
    );
    expect(admin.buttons(again)).toEqual([]);
    const rejected = await admin.tap("Reject", /./);
    expect(rejected.text).toBe(
      `Complaint ${cref} is already resolved: The operator did not deliver it`,
    );
    // One refund in the books, the balance back to Rs 500.
    expect(await ts.system.ledger.entriesOf(cref)).toHaveLength(1);
    expect((await ts.system.ledger.balance(account.customer(CUSTOMER))).availablePaisa).toBe(
      50_000,
    );
  });
});
