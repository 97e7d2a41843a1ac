import { describe, expect, it } from "vitest";
import { createRedisCrossings } from "../../src/books/index.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisTopUpStore } from "../../src/payments/index.ts";
import { topUpRefusedAlert } from "../../src/system/topup-refused.ts";
import { adminAlertReader } from "../support/books.ts";
import { topUpService } from "../support/khalti.ts";
import { useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * Khalti refusing to start a checkout (a wrong key: 401) is not "try again in a few minutes":
 * the start says refused, and the admins are told once per spell across processes, until a
 * checkout Khalti starts re-arms it (review s31-pay, 5: before, every refusal read as
 * unavailable, with a warn line only). A gateway that does not answer stays unavailable, with no
 * alert. Two processes on one Redis prefix, the Khalti stand-in over loopback.
 */

const ADMINS = [3001, 3002];

describe("a checkout Khalti refuses", () => {
  const khalti = useKhaltiStandIn();
  const env = useTestRedis("initiate-refused");

  /** One process's top-up service on the file's prefix, sending `secretKey` (default: right). */
  const instance = (secretKey?: string, apiUrl = khalti.apiUrl) =>
    topUpService({
      apiUrl,
      store: createRedisTopUpStore({ redis: env.connect(), prefix: env.prefix }),
      ledger: createRedisLedger({ redis: env.connect(), prefix: env.prefix }),
      notices: [],
      adminChatIds: ADMINS,
      ...(secretKey ? { secretKey } : {}),
      initiateRefused: topUpRefusedAlert(createRedisCrossings(env.connect(), env.prefix), ADMINS),
    });
  const start = (svc: ReturnType<typeof instance>, userId: number) =>
    svc.topUps.start({ userId, chatId: userId, locale: "en", amountPaisa: 50_000 });

  // Failed on the code before: "unavailable", and no alert queued.
  it("is refused, and the admins are told once across processes until one starts again", async () => {
    const alerts = adminAlertReader(env.connect(), env.prefix);
    const a = instance("live_secret_key_not_this_one");
    const b = instance("live_secret_key_not_this_one");
    for (const [svc, user] of [
      [a, 991],
      [b, 992],
      [a, 993],
      [b, 994],
    ] as const)
      expect(await start(svc, user)).toEqual({ ok: false, reason: "refused" });
    const first = await alerts();
    expect(first.map((n) => n.chatId).sort()).toEqual(ADMINS);
    expect(first[0]?.note).toContain("Khalti refused to start a top-up's checkout (refused:");
    expect(first[0]?.note).toContain("KHALTI_SECRET_KEY");
    // A checkout Khalti starts ends the spell; the next refusal is told again.
    const good = instance();
    expect((await start(good, 995)).ok).toBe(true);
    expect(await start(b, 996)).toEqual({ ok: false, reason: "refused" });
    expect(await start(a, 997)).toEqual({ ok: false, reason: "refused" });
    expect((await alerts()).length).toBe(2 * ADMINS.length);
    for (const s of [a, b, good]) await s.gateway.close();
  });

  // A guard (passed before too): a gateway that does not answer is worth trying again.
  it("a gateway that does not answer is unavailable, with no alert", async () => {
    const prefixAlerts = adminAlertReader(env.connect(), env.prefix);
    const before = (await prefixAlerts()).length;
    const down = instance(undefined, "http://127.0.0.1:9/api/v2");
    expect(await start(down, 998)).toEqual({ ok: false, reason: "unavailable" });
    expect((await prefixAlerts()).length).toBe(before);
    await down.gateway.close();
  });
});
