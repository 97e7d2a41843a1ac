import { createHmac } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { keyspace } from "../../src/redis/keyspace.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";

/**
 * Review s31-notify, finding 3: a message whose sender has no phone number (a WhatsApp username:
 * the business-scoped user id only) cannot be answered (chats key on the phone). It used to be
 * dropped at the webhook without a trace; now it is logged (user id and wamid, not its words) and
 * counted in `whatsapp_inbound_unanswerable_total`, and still not queued.
 */

const PATH = "/webhooks/whatsapp";
const APP_SECRET = "unanswerable-test-app-secret-0123";
const METRICS_TOKEN = "unanswerable-metrics-token";
const WAMID = "wamid.bsuid-only-0001";
const USER_ID = "NP.1234567890123456";
const WORDS = "secret words of a username sender";

/** Meta's webhook for a text from a username: `from_user_id` and a contact with `user_id` only. */
const body = JSON.stringify({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "WABA-1",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550001111", phone_number_id: "100000000000031" },
            contacts: [{ profile: { name: "Sita" }, user_id: USER_ID }],
            messages: [
              {
                from_user_id: USER_ID,
                id: WAMID,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: "text",
                text: { body: WORDS },
              },
            ],
          },
        },
      ],
    },
  ],
});

/** The counter's value in a scrape; undefined when the product has no such metric. */
function unanswerable(scrape: string): number | undefined {
  const line = scrape.split("\n").find((l) => l.startsWith("whatsapp_inbound_unanswerable_total "));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

describe("a WhatsApp message without a phone number", () => {
  const ts = useTestSystem({
    redis: true,
    env: {
      METRICS_TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: "100000000000031",
      WHATSAPP_ACCESS_TOKEN: "unanswerable-test-access-token",
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: "unanswerable-test-verify-token",
      // Nothing here is sent: a closed port, never reached.
      WHATSAPP_API_ROOT: "http://127.0.0.1:9",
      WHATSAPP_WEBHOOK_PATH: PATH,
    },
  });
  const redis = new Redis(REDIS_URL);
  afterAll(() => redis.quit());
  const scrape = async () => {
    const res = await fetch(ts.system.metricsUrl, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    return res.text();
  };

  it("is answered 200, logged with its user id and wamid (not its words), counted, not queued", async () => {
    // Undefined before the fix (no such metric): the log line is what fails first there.
    expect(unanswerable(await scrape()) ?? 0).toBe(0);
    const res = await fetch(`${ts.system.url}${PATH}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}`,
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("EVENT_RECEIVED");

    const lines = ts.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const about = lines.filter((l) => JSON.stringify(l).includes(WAMID));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({
      level: 40,
      wamid: WAMID,
      userId: USER_ID,
      msg: "whatsapp message without a phone number: not answered",
    });
    expect(ts.logs.join("")).not.toContain(WORDS);
    expect(unanswerable(await scrape())).toBe(1);
    expect(await redis.exists(keyspace(ts.prefix).waSeen(WAMID))).toBe(0);
  });
});
