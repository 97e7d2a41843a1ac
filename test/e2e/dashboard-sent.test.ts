import { describe, expect, it } from "vitest";
import { client, linkIn } from "../support/dashboard.ts";
import { useTestSystem } from "../support/system.ts";

/**
 * An order's page lists the messages the notifier sent for it (issue 29: "every message sent and
 * its delivery"): the final push, when, to which chat, and that the messenger took it; on Redis,
 * so the record is the one every instance reads.
 */
describe("an order's page: the messages sent", () => {
  const ts = useTestSystem({ redis: true });

  it("shows the success push of an order placed in the chat", async () => {
    const u = ts.user(1201);
    await u.mobileToConfirm("9841231201", "120");
    const { ref } = await u.confirmUntil("succeeded");
    const reply = await ts.user(3001).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text) as string).pathname)).status).toBe(303);
    const pageText = async () => (await c.get(`/dashboard/orders?ref=${ref}`)).text();
    let body = await pageText();
    // The push is written down right after the messenger took it: the page may come first.
    for (let i = 0; i < 50 && !body.includes("push: success"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      body = await pageText();
    }
    expect(body).toContain("Messages sent");
    expect(body).toContain("push: success");
    expect(body).toContain("taken by the messenger");
    expect(body).toContain(">1201<");
  });
});
