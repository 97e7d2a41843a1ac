import { createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { normalizeWebhook } from "../../src/whatsapp/payload.ts";
import { verifySignature } from "../../src/whatsapp/signature.ts";
import type { WaWebhookEvents } from "../../src/whatsapp/types.ts";
import { whatsappWebhook } from "../../src/whatsapp/webhook.ts";
import { serveFetch } from "../support/http.ts";

const APP_SECRET = "app-secret-0123456789abcdef";
const VERIFY_TOKEN = "verify-token-42";
const PATH = "/webhooks/whatsapp";
const LIMIT = 4096;

/** JSON with every non-ASCII character escaped as \uXXXX, as Meta sends it. */
const metaJson = (v: unknown) =>
  JSON.stringify(v).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
const sign = (bytes: Uint8Array | string, secret = APP_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(bytes).digest("hex")}`;

const payload = (value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "WABA-1",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550001111", phone_number_id: "1234567890" },
            ...value,
          },
        },
      ],
    },
  ],
});

const textFrom = (name: string, body: string) =>
  payload({
    contacts: [{ profile: { name }, wa_id: "9779812345678", user_id: "NP.123" }],
    messages: [
      {
        from: "9779812345678",
        id: "wamid.A1",
        timestamp: "1764130000",
        type: "text",
        text: { body },
      },
    ],
  });

let server: Awaited<ReturnType<typeof serveFetch>>;
let accepted: WaWebhookEvents[] = [];
let failAccept = false;
let logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const app = new Hono();
  app.route(
    PATH,
    whatsappWebhook({
      appSecret: APP_SECRET,
      verifyToken: VERIFY_TOKEN,
      bodyLimitBytes: LIMIT,
      accept: async (events) => {
        if (failAccept) throw new Error("queue down");
        accepted.push(events);
      },
      logger: createLogger({ level: "debug", destination: sink }),
    }),
  );
  server = await serveFetch(app.fetch);
});
afterAll(() => server.close());
beforeEach(() => {
  accepted = [];
  failAccept = false;
  logLines = [];
});

const post = (body: RequestInit["body"], headers: Record<string, string> = {}) =>
  fetch(`${server.url}${PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("whatsapp webhook: verification GET", () => {
  const get = (q: string) => fetch(`${server.url}${PATH}?${q}`);

  it("answers the raw challenge when the mode and token match", async () => {
    const res = await get(
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(await res.text()).toBe("1158201444");
  });

  it.each([
    ["a wrong token", `hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`],
    ["a longer token", `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=1`],
    ["another mode", `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`],
    ["no token", "hub.mode=subscribe&hub.challenge=1"],
    ["nothing", ""],
  ])("refuses %s with 403", async (_name, q) => {
    const res = await get(q);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain("1");
  });
});

describe("whatsapp webhook: POST", () => {
  it("refuses a missing or wrong signature with 401 before parsing, even a body that is not JSON", async () => {
    const good = metaJson(textFrom("Asha", "hi"));
    const cases: [RequestInit["body"], Record<string, string>][] = [
      [good, {}],
      [good, { "x-hub-signature-256": sign(good, "another-secret-0123456789") }],
      [good, { "x-hub-signature-256": sign(good).replace("sha256=", "sha1=") }],
      [good, { "x-hub-signature-256": `${sign(good)}00` }],
      ["{not json", {}],
      ["{not json", { "x-hub-signature-256": "sha256=00" }],
    ];
    for (const [body, headers] of cases) {
      const res = await post(body, headers);
      expect(res.status).toBe(401);
    }
    expect(accepted).toEqual([]);
    // Refused at the signature: no line says the JSON was bad.
    expect(logLines.join("")).not.toContain("not JSON");
  });

  it("verifies Devanagari escaped as \\uXXXX over the exact bytes, and normalises it", async () => {
    const body = metaJson(textFrom("सीता शर्मा", "रिचार्ज ₹199"));
    expect(body).toContain("\\u0938");
    expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
    const res = await post(body, { "x-hub-signature-256": sign(body) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("EVENT_RECEIVED");
    expect(accepted).toEqual([
      {
        messages: [
          {
            wamid: "wamid.A1",
            waId: "9779812345678",
            userId: "NP.123",
            name: "सीता शर्मा",
            timestamp: 1764130000,
            kind: "text",
            text: "रिचार्ज ₹199",
          },
        ],
        statuses: [],
      },
    ]);
  });

  it("refuses a signature made over the re-serialised (unescaped) JSON", async () => {
    const value = textFrom("सीता", "नमस्ते");
    const sent = metaJson(value);
    const res = await post(sent, { "x-hub-signature-256": sign(JSON.stringify(value)) });
    expect(res.status).toBe(401);
  });

  it("verifies raw UTF-8 bytes too (the bytes, whatever their encoding of the text)", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(textFrom("राम", "नमस्ते")));
    const res = await post(bytes, { "x-hub-signature-256": sign(bytes) });
    expect(res.status).toBe(200);
    expect(accepted[0]?.messages[0]?.name).toBe("राम");
  });

  it("answers 413 to a body over the limit, declared or streamed", async () => {
    const big = metaJson(textFrom("Asha", "x".repeat(LIMIT)));
    const declared = await post(big, { "x-hub-signature-256": sign(big) });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 3; i++) c.enqueue(new TextEncoder().encode("y".repeat(LIMIT / 2)));
        c.close();
      },
    });
    const streamed = await fetch(`${server.url}${PATH}`, {
      method: "POST",
      headers: { "x-hub-signature-256": "sha256=00" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(accepted).toEqual([]);
  });

  it("answers 400 to a signed body that is not JSON", async () => {
    const body = '{"object":"whatsapp_business_account",';
    const res = await post(body, { "x-hub-signature-256": sign(body) });
    expect(res.status).toBe(400);
    expect(accepted).toEqual([]);
  });

  it("acknowledges a signed payload that is not ours without calling accept", async () => {
    for (const v of [
      { object: "page", entry: [] },
      [1, 2],
      "text",
      null,
      payload({}),
      { ...payload({}), entry: [{ changes: [{ field: "account_update", value: {} }] }] },
    ]) {
      const body = JSON.stringify(v);
      const res = await post(body, { "x-hub-signature-256": sign(body) });
      expect(res.status).toBe(200);
    }
    expect(accepted).toEqual([]);
  });

  it("answers 503 when accept fails, so Meta delivers again, and logs no body", async () => {
    failAccept = true;
    const body = metaJson(textFrom("Asha", "secret-looking text 9812345678"));
    const res = await post(body, { "x-hub-signature-256": sign(body) });
    expect(res.status).toBe(503);
    const logged = logLines.join("");
    expect(logged).toContain("queue down");
    expect(logged).not.toContain("secret-looking text");
  });

  it("carries a payload of statuses only", async () => {
    const body = metaJson(
      payload({
        statuses: [
          {
            id: "wamid.OUT1",
            status: "failed",
            timestamp: "1764130100",
            recipient_id: "9779812345678",
            pricing: { pricing_model: "PMP", category: "utility", type: "regular" },
            errors: [
              {
                code: 131047,
                title: "Re-engagement message",
                message: "Re-engagement message",
                error_data: { details: "more than 24 hours" },
              },
            ],
          },
          {
            id: "wamid.OUT2",
            status: "read",
            timestamp: 1764130200,
            recipient_id: "919812345678",
          },
          { id: "wamid.OUT3", status: "deleted", timestamp: "1", recipient_id: "1" },
        ],
      }),
    );
    const res = await post(body, { "x-hub-signature-256": sign(body) });
    expect(res.status).toBe(200);
    expect(accepted).toEqual([
      {
        messages: [],
        statuses: [
          {
            wamid: "wamid.OUT1",
            status: "failed",
            timestamp: 1764130100,
            recipientId: "9779812345678",
            errors: [
              { code: 131047, title: "Re-engagement message", message: "Re-engagement message" },
            ],
          },
          {
            wamid: "wamid.OUT2",
            status: "read",
            timestamp: 1764130200,
            recipientId: "919812345678",
          },
        ],
      },
    ]);
  });

  it("never answers 500, whatever the signed body", async () => {
    const bodies = [
      "",
      "0",
      '{"object":"whatsapp_business_account"}',
      '{"object":"whatsapp_business_account","entry":[null]}',
      '{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":null}]}]}',
      '{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[null,{"id":1}],"contacts":"x"}}]}]}',
      "\u0000\uffff",
    ];
    for (const body of bodies) {
      const res = await post(body, { "x-hub-signature-256": sign(body) });
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe("normalizeWebhook", () => {
  it("reads every entry and change, every message kind, and matches contacts by wa_id", () => {
    const change = (value: Record<string, unknown>) => ({ field: "messages", value });
    const events = normalizeWebhook({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "W1",
          changes: [
            change({
              contacts: [
                { profile: { name: "Ram" }, wa_id: "9771" },
                { profile: { name: "Sita" }, wa_id: "9772", user_id: "NP.2" },
              ],
              messages: [
                {
                  from: "9772",
                  id: "wamid.B",
                  timestamp: "10",
                  type: "interactive",
                  context: { from: "1555", id: "wamid.MENU" },
                  interactive: { type: "button_reply", button_reply: { id: "b:1", title: "Yes" } },
                },
                {
                  from: "9771",
                  id: "wamid.L",
                  timestamp: "11",
                  type: "interactive",
                  interactive: {
                    type: "list_reply",
                    list_reply: { id: "r:2", title: "NTC", description: "Nepal Telecom" },
                  },
                },
              ],
            }),
          ],
        },
        {
          id: "W2",
          changes: [
            change({
              contacts: [{ profile: { name: "Hari" }, wa_id: "9773" }],
              messages: [
                {
                  from: "9773",
                  id: "wamid.Q",
                  timestamp: "12",
                  type: "button",
                  button: { text: "Renew", payload: "renew:1" },
                },
                { from: "9773", id: "wamid.I", timestamp: "13", type: "image", image: { id: "m" } },
                {
                  from: "9773",
                  id: "wamid.C",
                  timestamp: "14",
                  type: "document",
                  document: { id: "d", filename: "bill.pdf", caption: " 9841234567 " },
                },
                { from: "9773", id: "wamid.O", timestamp: "15", type: "location", location: {} },
              ],
            }),
          ],
        },
      ],
    });
    expect(events?.messages).toEqual([
      {
        wamid: "wamid.B",
        waId: "9772",
        userId: "NP.2",
        name: "Sita",
        timestamp: 10,
        kind: "button_reply",
        text: "Yes",
        replyId: "b:1",
        contextWamid: "wamid.MENU",
      },
      {
        wamid: "wamid.L",
        waId: "9771",
        name: "Ram",
        timestamp: 11,
        kind: "list_reply",
        text: "NTC",
        replyId: "r:2",
      },
      {
        wamid: "wamid.Q",
        waId: "9773",
        name: "Hari",
        timestamp: 12,
        kind: "quick_reply",
        text: "Renew",
        replyId: "renew:1",
      },
      { wamid: "wamid.I", waId: "9773", name: "Hari", timestamp: 13, kind: "media" },
      // A caption is the words typed with the file (review s32-whatsapp, 4).
      {
        wamid: "wamid.C",
        waId: "9773",
        name: "Hari",
        timestamp: 14,
        kind: "media",
        text: "9841234567",
      },
      { wamid: "wamid.O", waId: "9773", name: "Hari", timestamp: 15, kind: "other" },
    ]);
  });

  it("is null for what is not a WhatsApp Business Account payload", () => {
    expect(normalizeWebhook({ object: "instagram", entry: [] })).toBeNull();
    expect(normalizeWebhook(undefined)).toBeNull();
    expect(normalizeWebhook("x")).toBeNull();
  });
});

describe("verifySignature", () => {
  it("checks the exact bytes and the header's form", () => {
    const bytes = new TextEncoder().encode("{}");
    expect(verifySignature(APP_SECRET, bytes, sign(bytes))).toBe(true);
    expect(verifySignature(APP_SECRET, bytes, sign(bytes).toUpperCase())).toBe(false);
    expect(verifySignature(APP_SECRET, bytes, sign(new TextEncoder().encode("{ }")))).toBe(false);
    expect(verifySignature(APP_SECRET, bytes, undefined)).toBe(false);
    expect(verifySignature(APP_SECRET, bytes, "sha256=")).toBe(false);
    expect(verifySignature(APP_SECRET, bytes, sign(bytes).slice(0, -2))).toBe(false);
  });
});
