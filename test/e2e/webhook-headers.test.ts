import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { useTestSystem } from "../support/system.ts";

/**
 * Which answers carry the browser security headers (CSP, HSTS, X-Frame-Options...): every answer
 * of the public listener except the webhooks' POSTs, which servers read and no browser renders.
 * The webhooks sit on paths of their own here, so the rule is seen to follow the configuration.
 */

const AGGREGATOR_PATH = "/hooks/aggregator";
const META_PATH = "/hooks/meta";
const WEBHOOK_SECRET = "headers-test-webhook-secret";
const APP_SECRET = "headers-test-app-secret-0123";
const VERIFY_TOKEN = "headers-test-verify-token";

const BROWSER_HEADERS = [
  "content-security-policy",
  "strict-transport-security",
  "x-frame-options",
  "x-content-type-options",
] as const;

const browserHeadersOf = (res: Response) =>
  Object.fromEntries(BROWSER_HEADERS.map((h) => [h, res.headers.get(h)]));
const none = Object.fromEntries(BROWSER_HEADERS.map((h) => [h, null]));

function expectBrowserHeaders(res: Response) {
  for (const h of BROWSER_HEADERS) expect(res.headers.get(h), h).not.toBeNull();
  expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
}

/** A delivery status for a message this product never sent: valid, signed, and nothing to do. */
const metaStatus = JSON.stringify({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "1",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            statuses: [
              {
                id: "wamid.headers-test-unknown",
                status: "delivered",
                timestamp: String(Math.floor(Date.now() / 1000)),
                recipient_id: "9779800000001",
              },
            ],
          },
        },
      ],
    },
  ],
});
const metaSignature = (body: string) =>
  `sha256=${createHmac("sha256", APP_SECRET).update(body, "utf8").digest("hex")}`;

/** A pending event for an order nobody placed: recorded for an admin and acknowledged (200). */
const aggregatorEvent = () =>
  JSON.stringify({
    data: encryptPayload(WEBHOOK_SECRET, {
      status: "pending",
      order_id: "HDRTEST0001",
      transaction_id: 770001,
      amount: 100,
      timestamp: new Date().toISOString(),
    }),
  });

describe("the browser security headers", () => {
  const ts = useTestSystem({
    env: {
      WEBHOOK_PATH: AGGREGATOR_PATH,
      WEBHOOK_SECRET,
      WHATSAPP_PHONE_NUMBER_ID: "100000000000009",
      WHATSAPP_ACCESS_TOKEN: "headers-test-access-token",
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      // Nothing in these tests sends; a closed port, never reached.
      WHATSAPP_API_ROOT: "http://127.0.0.1:9",
      WHATSAPP_WEBHOOK_PATH: META_PATH,
    },
  });
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${ts.system.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("are not on the aggregator's webhook answers, signed or refused", async () => {
    const ok = await post(AGGREGATOR_PATH, aggregatorEvent(), {
      "x-signature": signature(WEBHOOK_SECRET),
    });
    expect(ok.status).toBe(200);
    expect(browserHeadersOf(ok)).toEqual(none);
    const refused = await post(AGGREGATOR_PATH, aggregatorEvent(), {
      "x-signature": signature("another-webhook-secret"),
    });
    expect(refused.status).toBe(400);
    expect(browserHeadersOf(refused)).toEqual(none);
  });

  it("are not on WhatsApp's webhook answers, signed or refused", async () => {
    const ok = await post(META_PATH, metaStatus, {
      "x-hub-signature-256": metaSignature(metaStatus),
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("EVENT_RECEIVED");
    expect(browserHeadersOf(ok)).toEqual(none);
    const refused = await post(META_PATH, metaStatus, { "x-hub-signature-256": "sha256=00" });
    expect(refused.status).toBe(401);
    expect(browserHeadersOf(refused)).toEqual(none);
  });

  it("stay on WhatsApp's verification GET, which echoes a query parameter", async () => {
    const query = new URLSearchParams({
      "hub.mode": "subscribe",
      "hub.verify_token": VERIFY_TOKEN,
      "hub.challenge": "1158201444",
    });
    const res = await fetch(`${ts.system.url}${META_PATH}?${query}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("1158201444");
    expectBrowserHeaders(res);
  });

  it("stay on the pages, the health checks, a 404 and a POST beside a webhook's path", async () => {
    for (const path of ["/", "/healthz", "/no/such/route", AGGREGATOR_PATH]) {
      const res = await fetch(`${ts.system.url}${path}`);
      expectBrowserHeaders(res);
    }
    for (const path of [`${AGGREGATOR_PATH}/x`, `${META_PATH}/`, "/hooks"]) {
      const res = await post(path, metaStatus, {});
      expect(res.status).toBe(404);
      expectBrowserHeaders(res);
    }
  });
});
