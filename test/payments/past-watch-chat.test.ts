import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { unreadableTopUpsKey } from "../../src/payments/redis-store.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTopUpSystem } from "../support/topup-system.ts";

/**
 * The chat's /topups (admins) lists the open top-ups past the refund watch, with reference,
 * customer, amount (money.ts) and age. The whole product with the Khalti stand-in; the watch is
 * set to 0 so that a top-up just started is past it (the age is then 0 d 0 h).
 */

const ADMIN = 3001;

describe("/topups lists open top-ups past the refund watch", () => {
  const sys = useTopUpSystem(false, { TOPUP_REFUND_WATCH_MS: "0" });

  it("one line each, for admins only", async () => {
    const t = await sys.start(931, 1250);
    await sys
      .ts()
      .user(932)
      .say("/topups", /for admins/);
    const reply = await sys
      .ts()
      .user(ADMIN)
      .say("/topups", (m) => m.text.includes("Open past the refund watch"));
    expect(reply.text).toContain(
      `${t.paymentId} (khalti, ${t.id}): user 931, Rs 1,250, initiated, 0 d 0 h old`,
    );
  });
});

describe("/topups on Redis with a top-up record that could not be read", () => {
  const sys = useTopUpSystem(true);

  it("says how many and names them instead of hiding them", async () => {
    // As the reconciler leaves a record that does not parse (review s23-d, 1).
    const redis = new Redis(REDIS_URL);
    try {
      await redis.sadd(unreadableTopUpsKey(sys.ts().prefix), "khalti:ChatBadRecord");
      const reply = await sys
        .ts()
        .user(ADMIN)
        .say("/topups", (m) => m.text.includes("could not be read"));
      expect(reply.text).toContain(
        "1 top-up record could not be read (see the log): khalti:ChatBadRecord.",
      );
    } finally {
      await redis.quit();
    }
  });
});
