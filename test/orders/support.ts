import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Redis } from "ioredis";
import type { Order } from "../../src/orders/model.ts";
import type { PlaceInput } from "../../src/orders/service.ts";

/** Shared helpers of the money-path tests (orders, notify, webhook). */

/** Polls `probe` until it returns a truthy value; fails after `timeoutMs` with `what`. */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = 15_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export const REDIS_URL = "redis://127.0.0.1:6379";

/** A Redis connection and a key prefix of its own; `cleanup` deletes every key under it. */
export function testRedis(name: string) {
  const prefix = `test:${name}:${randomUUID().slice(0, 8)}:`;
  const clients: Redis[] = [];
  const connect = () => {
    const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false });
    clients.push(r);
    return r;
  };
  const redis = connect();
  return {
    redis,
    prefix,
    /** Another connection, as a second process would have. */
    connect,
    async cleanup() {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== "0");
      for (const c of clients) c.disconnect();
    },
  };
}

/** Serves a fetch handler on a loopback port; env (node-server bindings) is passed through. */
export async function serveFetch(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}

let seq = 0;
/** A valid NTC prepaid mobile order input. */
export function mobileInput(over: Partial<PlaceInput> = {}): PlaceInput {
  seq++;
  return {
    idempotencyKey: `key-${randomUUID()}`,
    userId: 1000 + (seq % 5),
    chatId: 1000 + (seq % 5),
    locale: "en",
    category: "mobile",
    region: "np",
    operatorId: 5,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: "9841234567",
    amountPaisa: 10_000,
    details: {},
    ...over,
  };
}

/** A stored-shape order in "placed", for pure state-machine tests. */
export function placedOrder(over: Partial<Order> = {}): Order {
  return {
    reference: "1700000000001",
    idempotencyKey: "k1",
    userId: 42,
    chatId: 42,
    locale: "en",
    category: "mobile",
    region: "np",
    operatorId: 5,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: "9841234567",
    amountPaisa: 10_000,
    details: {},
    status: "placed",
    history: [{ source: "system", status: "placed", at: 1 }],
    createdAt: 1,
    updatedAt: 1,
    version: 0,
    ...over,
  };
}
