import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * The payer's browser back from Khalti while the product's Redis does not answer: the return page
 * says the payment is being confirmed (true: the top-up reconciler looks it up once the store is
 * back; the bot tells the chat), as it does when Khalti's lookup fails, with a 503, never the
 * public app's bare `{"ok":false,"error":"internal error"}`.
 */
describe("the Khalti return page with the store down", () => {
  const ts = useTestSystem({ redis: true });

  it("is the 'confirming' page, not a 500 in JSON", async () => {
    const redis = ts.system.redis;
    if (!redis) throw new Error("the test system runs without Redis");
    const pidx = "storeDownPidx01";
    const up = await fetch(`${ts.system.url}/pay/khalti/return?pidx=${pidx}`);
    expect(up.status).toBe(200);
    expect(await up.text()).toContain("Payment not completed");
    redis.disconnect();
    try {
      const res = await fetch(`${ts.system.url}/pay/khalti/return?pidx=${pidx}`);
      const html = await res.text();
      expect([res.status, res.headers.get("content-type")]).toEqual([
        503,
        "text/html; charset=UTF-8",
      ]);
      expect(html).toContain('data-outcome="confirming"');
      expect(html).toContain("We are confirming your payment.");
      expect(html).not.toContain("internal error");
      const line = ts.logs.find((l) => l.includes("top-up return page: the store did not answer"));
      expect(line).toBeDefined();
    } finally {
      await redis.connect();
    }
  });
});
