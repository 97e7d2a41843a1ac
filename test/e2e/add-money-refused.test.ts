import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveKhaltiStandIn } from "../support/khalti.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * /addmoney when Khalti refuses the request (here a wrong KHALTI_SECRET_KEY: 401), through the
 * chat on the Bot API emulator, on Redis: the customer is told adding money online is not
 * available now (not "try again in a few minutes"), in their language, and the admin's chat gets
 * the alert (review s31-pay, 5: before, the customer was told Khalti was not answering and the
 * admins nothing).
 */
describe("/addmoney with Khalti refusing the request", () => {
  let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
  let ts: TestSystem;
  beforeAll(async () => {
    khalti = await serveKhaltiStandIn();
    ts = await startTestSystem({
      redis: true,
      env: {
        ACCESS_MODE: "prepaid",
        ADMIN_IDS: "3040",
        KHALTI_BASE_URL: khalti.apiUrl,
        KHALTI_SECRET_KEY: "live_secret_key_not_the_stand_ins",
        TOPUP_PUBLIC_URL: "http://127.0.0.1:9",
      },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
    await khalti?.close();
  });

  // Failed on the code before: "Khalti is not answering right now… try again in a few minutes".
  it("tells the customer it is not available now and the admins why", async () => {
    const u = ts.user(1401);
    await u.say("/addmoney", /How much do you want to add/);
    const reply = await u.say("500", /not available/);
    expect(reply.text).toBe(
      "Adding money online is not available right now. Nothing was charged, and our team has been told. An agent can add money to your balance meanwhile.",
    );
    expect(u.botTexts().join("\n")).not.toContain("try again in a few minutes");
    const admin = ts.user(3040);
    await waitUntil(
      () => admin.botTexts().some((t) => t.includes("Khalti refused to start a top-up's checkout")),
      "the admins' alert",
    );
    const alert = admin.botTexts().find((t) => t.includes("Khalti refused"));
    expect(alert).toContain("KHALTI_SECRET_KEY");
    expect(alert).not.toContain("live_secret_key_not_the_stand_ins");
  });

  it("says so in Nepali", async () => {
    const u = ts.user(1402, { language_code: "ne" });
    await u.say("/addmoney", /कति थप्ने/);
    const reply = await u.say("500", /उपलब्ध छैन/);
    expect(reply.text).toContain("अनलाइन पैसा थप्ने सुविधा उपलब्ध छैन");
  });
});
