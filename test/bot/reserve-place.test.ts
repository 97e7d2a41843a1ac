import { describe, expect, it } from "vitest";
import type { BotDeps, PlaceInput } from "../../src/bot/deps.ts";
import { reserveAndPlace } from "../../src/bot/flow/reserve-place.ts";
import { InsufficientFundsError, NotReservedError } from "../../src/orders/index.ts";
import type { Order } from "../../src/orders/model.ts";
import { mobileInput, placedOrder } from "../support/orders.ts";

/**
 * Confirm's reservation and create (src/bot/flow/reserve-place.ts) with a create guard: both are
 * sent at once; what each answer means for the order.
 */
describe("reserving and placing at Confirm", () => {
  const order = placedOrder();
  const input = mobileInput() as unknown as PlaceInput;

  function deps(opts: {
    verdict: { ok: true } | { ok: false; reason: "rate" | "daily_cap" };
    creates: Array<() => Promise<Order>>;
    guard?: boolean;
  }) {
    const calls: string[] = [];
    const d = {
      holdWrites: () => calls.push("hold"),
      limits: {
        ...(opts.guard === false ? {} : { reservedGuard: () => ({ key: "seen", prefix: "ok" }) }),
        reserve: async () => {
          calls.push("reserve");
          return opts.verdict;
        },
      },
      orders: {
        place: (_input: PlaceInput, o?: { guard?: unknown }) => {
          calls.push(o?.guard ? "place guarded" : "place");
          const next = opts.creates.shift();
          if (!next) throw new Error("no more creates");
          return next();
        },
      },
    } as unknown as BotDeps;
    return { d, calls };
  }

  it("sends both at once, held, and returns the order", async () => {
    const { d, calls } = deps({ verdict: { ok: true }, creates: [async () => order] });
    expect(await reserveAndPlace(d, input)).toBe(order);
    expect(calls).toEqual(["hold", "reserve", "place guarded"]);
  });

  it("a refusal: the guarded create wrote nothing, the limit is said", async () => {
    const { d } = deps({
      verdict: { ok: false, reason: "rate" },
      creates: [async () => Promise.reject(new NotReservedError("rate"))],
    });
    expect(await reserveAndPlace(d, input)).toEqual({ limit: "rate" });
  });

  it("a refusal beside a create that succeeded is an error, never an order", async () => {
    const { d } = deps({
      verdict: { ok: false, reason: "daily_cap" },
      creates: [async () => order],
    });
    await expect(reserveAndPlace(d, input)).rejects.toThrow(/did not wait/);
  });

  it("an ok whose create ran first (no ok found) is placed again, after it", async () => {
    const { d, calls } = deps({
      verdict: { ok: true },
      creates: [async () => Promise.reject(new NotReservedError("")), async () => order],
    });
    expect(await reserveAndPlace(d, input)).toBe(order);
    expect(calls).toEqual(["hold", "reserve", "place guarded", "place guarded"]);
  });

  it("the balance short is said as before; without a guard the two go one after the other", async () => {
    const short = deps({
      verdict: { ok: true },
      creates: [async () => Promise.reject(new InsufficientFundsError(100, 15_000, 14_900))],
    });
    expect(await reserveAndPlace(short.d, input)).toEqual({
      short: { balance: 100, total: 15_000 },
    });
    const plain = deps({ verdict: { ok: true }, creates: [async () => order], guard: false });
    expect(await reserveAndPlace(plain.d, input)).toBe(order);
    expect(plain.calls).toEqual(["reserve", "place"]);
    const refused = deps({ verdict: { ok: false, reason: "rate" }, creates: [], guard: false });
    expect(await reserveAndPlace(refused.d, input)).toEqual({ limit: "rate" });
    expect(refused.calls).toEqual(["reserve"]);
  });
});
