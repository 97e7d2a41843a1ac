import { describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";
import { ADMIN, useActions } from "../support/dashboard-actions.ts";

/**
 * The back office's Held top-ups page with a held and a partial-refund record that do not parse
 * (review s23-e, 1): before, the page was a 500 and no held top-up was shown to anyone. Now the
 * others are listed and the bad ones are counted and named above them.
 */

const h = useActions();

describe("the Held top-ups page with records that do not parse", () => {
  it("lists the held top-up and names the bad records, not a 500", async () => {
    const t = await h.heldTopUp(6301, 20_000, 25_000);
    const k = keyspace(h.deps.prefix);
    const badHeld = "khalti:OfficeHeldDamaged";
    const badPartial = "khalti:OfficePartialDamaged";
    await h.redis.hset(`${k.topUpNamePrefix}${badHeld}`, "v", "1", "j", "{damaged");
    await h.redis.zadd(k.topUpsHeld, "1", badHeld);
    await h.redis.hset(`${k.topUpNamePrefix}${badPartial}`, "v", "1", "j", '{"status":"lost"}');
    await h.redis.zadd(k.topUpsPartial, "1", badPartial);
    try {
      const c = await h.login(ADMIN);
      const res = await c.get("/dashboard/topups");
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain(t.paymentId);
      expect(page).toContain(
        `2 top-up records could not be read (see the log): ${badHeld}, ${badPartial}`,
      );
    } finally {
      await h.redis.zrem(k.topUpsHeld, badHeld);
      await h.redis.zrem(k.topUpsPartial, badPartial);
      await h.redis.del(`${k.topUpNamePrefix}${badHeld}`, `${k.topUpNamePrefix}${badPartial}`);
    }
  });
});
