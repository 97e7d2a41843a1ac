import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A new complaint's alert that an admin's chat refused is logged, naming the admin and the
 * complaint (review s33-rvcomp 3): an ADMIN_IDS entry of someone who never started the bot
 * ("chat not found") or who blocked it lost every complaint alert to them without a line, so
 * nobody learnt that an admin hears of no complaint. The other admins are still told. The alerts
 * go through the notifier's outbox (review s33-rvcomp 4), the refusal is logged there.
 */

const ADMIN = 3_301;
/** Listed in ADMIN_IDS, blocked the bot: Telegram answers "bot was blocked by the user". */
const SILENT_ADMIN = 3_399;

describe("a new complaint's alert to an admin", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `${SILENT_ADMIN},${ADMIN}` },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("that the admin's chat refused is logged; the other admin is told", async () => {
    const admin = ts.user(ADMIN);
    await admin.say("/start", /./);
    const silent = ts.user(SILENT_ADMIN);
    await silent.say("/start", /./);
    silent.emu.users.upsert(SILENT_ADMIN, { first_name: "Admin", blocked: true });
    const u = ts.user(10_531);
    await u.register();
    await u.credit(50_000);
    const ref = await u.placeMobile("9841234567", "100");
    await u.outcome(ref, "succeeded");
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.status === "success",
      "the order success",
    );
    const raised = await ts.system.deps.complaints!.raise({
      userId: 10_531,
      chatId: 10_531,
      locale: "en",
      orderReference: ref,
      reason: "not_received",
    });
    if (!raised.ok) throw new Error("not raised");
    await admin.waitFor(new RegExp(`New complaint ${raised.complaint.reference}`));
    // Each admin's alert is an entry of its own in the outbox: the refused one may come later.
    const refusal = () =>
      ts.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === "complaint alert not sent to an admin");
    await waitUntil(() => refusal() !== undefined, "the refused alert logged");
    const line = refusal();
    expect(line).toMatchObject({
      complaint: raised.complaint.reference,
      admin: SILENT_ADMIN,
      level: 40,
    });
    expect(String(line?.err)).toContain("bot was blocked by the user");
  });
});
