import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type RunningStandIn,
  startWhatsAppStandInServer,
  type WhatsAppStandIn,
  type WhatsAppStandInOptions,
} from "../../dev/whatsapp/index.ts";
import { eventually } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

const SECRET = "app-secret";
const TOKEN = "system-user-token";
const PNID = "1234567890";
const PHONE = "9779812345678";
const OTHER = "919812345678";

/** The webhook's parts these tests read. */
interface WaMessage {
  from: string;
  type: string;
  text?: { body: string };
  interactive?: { button_reply?: { id: string } };
  context?: { id: string };
}
interface WaValue {
  metadata: { phone_number_id: string };
  contacts?: unknown[];
  messages?: WaMessage[];
  statuses?: { id: string; status: string; recipient_id: string; errors?: { code: number }[] }[];
}
type WaWebhook = { object: string; entry: { changes: { value: WaValue }[] }[] };
type Received = { raw: string; signature: string; json: WaWebhook };

/** The product's webhook, as far as these tests need one: records raw bodies, answers 200. */
type OnPost = (json: WaWebhook) => Promise<void>;
async function receiver(answers: number[], onPost?: OnPost) {
  const received: Received[] = [];
  const app = new Hono();
  app.get("/hook", (c) =>
    c.req.query("hub.verify_token") === "verify-me"
      ? c.text(c.req.query("hub.challenge") ?? "")
      : c.text("no", 403),
  );
  app.post("/hook", async (c) => {
    const raw = await c.req.text();
    const status = answers.shift() ?? 200;
    if (status === 200) {
      const json = JSON.parse(raw) as WaWebhook;
      received.push({ raw, signature: c.req.header("x-hub-signature-256") ?? "", json });
      await onPost?.(json);
    }
    return c.text("", status as 200);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { received, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const valueIn = (json: WaWebhook): WaValue => json.entry[0]!.changes[0]!.value;
const messagesIn = (rs: Received[]) => rs.flatMap((r) => valueIn(r.json).messages ?? []);
const statusesIn = (rs: Received[]) => rs.flatMap((r) => valueIn(r.json).statuses ?? []);
const inboundTexts = (rs: Received[]) => messagesIn(rs).map((m) => m.text?.body);
const hmac = (bytes: string) =>
  `sha256=${createHmac("sha256", SECRET).update(bytes, "utf8").digest("hex")}`;

let running: RunningStandIn;
let standIn: WhatsAppStandIn;
let hook: Awaited<ReturnType<typeof receiver>>;
let offset = 0;

type Setup = { answers?: number[]; onPost?: OnPost; extra?: Partial<WhatsAppStandInOptions> };
async function start({ answers = [], onPost, extra }: Setup = {}) {
  offset = 0;
  hook = await receiver(answers, onPost);
  running = await startWhatsAppStandInServer({
    appSecret: SECRET,
    accessToken: TOKEN,
    phoneNumberId: PNID,
    verifyToken: "verify-me",
    webhookUrl: hook.url,
    now: () => Date.now() + offset,
    retryDelaysMs: [20, 40],
    ...extra,
  });
  standIn = running.standIn;
}

const stop = () => running.close().then(() => hook.close());
const restart = (setup: Setup) => stop().then(() => start(setup));

beforeEach(() => start());
afterEach(stop);

type GraphError = { code: number; type: string; error_data: { details: string } };
type GraphAnswer = { error?: GraphError; contacts?: unknown[]; messages?: { id: string }[] };

/** One Graph API call; `code` is the Meta error code, `id` the accepted wamid. */
async function send(body: unknown, opts: { token?: string; path?: string; method?: string } = {}) {
  const headers = new Headers({ "content-type": "application/json" });
  if (opts.token !== "") headers.set("authorization", `Bearer ${opts.token ?? TOKEN}`);
  const url = `${running.graphRoot}${opts.path ?? `/v24.0/${PNID}/messages`}`;
  const method = opts.method ?? "POST";
  const response = await fetch(url, { method, headers, body: JSON.stringify(body) });
  const json = (await response.json()) as GraphAnswer;
  const id = json.messages?.[0]?.id ?? "";
  return { status: response.status, json, code: json.error?.code, id };
}

const wa = (type: string, fields: object, to = PHONE) =>
  Object.assign({ messaging_product: "whatsapp", to, type }, fields);
const text = (body: string, to = PHONE) => wa("text", { text: { body } }, to);
const interactive = (i: Record<string, unknown>) => wa("interactive", { interactive: i });
const buttons = (titles: string[], extra: Record<string, unknown> = {}) =>
  interactive({
    type: "button",
    body: { text: "Pick one" },
    action: {
      buttons: titles.map((title, i) => ({ type: "reply", reply: { id: `b${i}`, title } })),
    },
    ...extra,
  });
const list = (sections: unknown[], button = "Choose") =>
  interactive({ type: "list", body: { text: "Operators" }, action: { button, sections } });
const rows = (n: number, row: Record<string, unknown> = {}, prefix = "r") =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}`, ...row }));
const template = (params: string[]) => {
  const parameters = params.map((p) => ({ type: "text", text: p }));
  const language = { code: "en_US", policy: "deterministic" };
  return wa("template", {
    template: { name: "renewal_due", language, components: [{ type: "body", parameters }] },
  });
};
const cta = (display_text: string) =>
  interactive({
    type: "cta_url",
    body: { text: "Pay here" },
    action: { name: "cta_url", parameters: { display_text, url: "https://pay.example/x" } },
  });

describe("sends", () => {
  it("refuses a bad token (190, 401) and an unknown phone number id (100)", async () => {
    await standIn.userSends({ waId: PHONE }, "hi");
    const none = await send(text("x"), { token: "" });
    const wrong = await send(text("x"), { token: "nope" });
    const pnid = await send(text("x"), { path: "/v24.0/999/messages" });
    expect([none.status, none.code, wrong.status, wrong.code]).toEqual([401, 190, 401, 190]);
    expect([wrong.json.error?.type, pnid.status, pnid.code]).toEqual(["OAuthException", 400, 100]);
    expect(standIn.sendCount()).toBe(0);
  });

  it("accepts a text in the window in Meta's shape; statuses go sent, delivered, read", async () => {
    await standIn.userSends({ waId: PHONE, name: "Sita" }, "hi");
    const { status, json, id } = await send(text("Hello"));
    expect([status, json.contacts]).toEqual([200, [{ input: PHONE, wa_id: PHONE }]]);
    expect(id).toMatch(/^wamid\./);
    const [m] = standIn.messagesTo(PHONE);
    expect(m).toMatchObject({ wamid: id, kind: "text", text: "Hello", buttons: [] });
    expect(m?.body).toEqual({ type: "text", text: { body: "Hello" } });
    await eventually(() => expect(standIn.statuses(id)).toEqual(["sent", "delivered", "read"]));
    await standIn.settled();
    expect(statusesIn(hook.received).map((s) => [s.id, s.status, s.recipient_id])).toEqual(
      ["sent", "delivered", "read"].map((s) => [id, s, PHONE]),
    );
    const withContacts = hook.received.filter((r) => valueIn(r.json).contacts);
    expect(withContacts).toHaveLength(1); // the user's message; statuses carry none
  });

  const two = (a: unknown[], b: unknown[], titleB: string | null = "B") => [
    { title: "A", rows: a },
    { ...(titleB ? { title: titleB } : {}), rows: b },
  ];
  it.each([
    ["empty text", text("")],
    ["text over 4096", text("x".repeat(4097))],
    ["no messaging_product", { to: PHONE, type: "text", text: { body: "x" } }],
    ["a + in to", text("x", `+${PHONE}`)],
    ["unknown type", wa("sticker", { sticker: { id: "1" } })],
    ["unknown key", { ...text("x"), edit: true }],
    ["no buttons", buttons([])],
    ["4 buttons", buttons(["a", "b", "c", "d"])],
    ["button title 21", buttons(["x".repeat(21)])],
    ["empty button title", buttons([""])],
    ["duplicate button titles", buttons(["Same", "Same"])],
    ["footer 61", buttons(["a"], { footer: { text: "f".repeat(61) } })],
    ["interactive body 1025", buttons(["a"], { body: { text: "b".repeat(1025) } })],
    ["list label 21", list([{ rows: rows(1) }], "l".repeat(21))],
    ["11 rows in one section", list([{ rows: rows(11) }])],
    ["11 rows over two sections", list(two(rows(6), rows(5, {}, "s")))],
    ["duplicate row ids", list(two(rows(1), rows(1)))],
    ["row title 25", list([{ rows: rows(1, { title: "t".repeat(25) }) }])],
    ["row id 201", list([{ rows: rows(1, { id: "i".repeat(201) }) }])],
    ["row description 73", list([{ rows: rows(1, { description: "d".repeat(73) }) }])],
    ["section title 25", list(two(rows(1), rows(1, {}, "s"), "s".repeat(25)))],
    ["untitled section among two", list(two(rows(1), rows(1, {}, "s"), null))],
    [
      "11 sections",
      list(Array.from({ length: 11 }, (_, i) => ({ title: `S${i}`, rows: rows(1, {}, `s${i}`) }))),
    ],
    ["cta display_text 21", cta("c".repeat(21))],
    ["template param with a newline", template(["line\nbreak"])],
    ["template param with a tab", template(["a\tb"])],
    ["template param with 5 spaces", template(["a     b"])],
    ["template without language", wa("template", { template: { name: "renewal_due" } })],
  ])("refuses %s with code 100", async (_what, body) => {
    await standIn.userSends({ waId: PHONE }, "hi");
    const { status, json } = await send(body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 100, type: "OAuthException" });
    expect(json.error?.error_data.details).toEqual(expect.any(String));
    expect(standIn.sendCount()).toBe(0);
  });

  const long = { title: "t".repeat(24), description: "d".repeat(72) };
  const S24 = "s".repeat(24);
  it.each([
    ["text of 4096", text("x".repeat(4096))],
    ["3 buttons of 20", buttons(["a".repeat(20), "b".repeat(20), "c".repeat(20)])],
    ["10 rows, titles 24, descriptions 72", list(two(rows(5, long), rows(5, long, "s"), S24))],
    ["cta of 20", cta("c".repeat(20))],
    ["template param with 4 spaces", template(["a    b"])],
  ])("accepts %s (at the limit)", async (_what, body) => {
    await standIn.userSends({ waId: PHONE }, "hi");
    expect((await send(body)).status).toBe(200);
  });

  it("answers the read + typing call, refuses an unknown message id, has no edit endpoint", async () => {
    const wamid = await standIn.userSends({ waId: PHONE }, "hi");
    const typing = { typing_indicator: { type: "text" } };
    const read = { messaging_product: "whatsapp", status: "read", message_id: wamid, ...typing };
    expect((await send(read)).json).toEqual({ success: true });
    expect(standIn.readMarks()).toEqual([
      expect.objectContaining({ messageId: wamid, typing: true }),
    ]);
    expect((await send({ ...read, message_id: "wamid.nope" })).code).toBe(100);
    const sent = (await send(text("v1"))).id;
    const edits = [
      await send(text("v2"), { path: `/v24.0/${sent}` }),
      await send(text("v2"), { path: `/v24.0/${PNID}/messages/${sent}` }),
      await send({ ...text("v2"), message_id: sent }, { method: "PUT" }),
      await send({ ...text("v2"), message_id: sent }, { method: "PATCH" }),
      await send(wa("edit", { edit: { message_id: sent, text: { body: "v2" } } })),
    ];
    expect(edits.map((e) => [e.status, e.code])).toEqual(edits.map(() => [400, 100]));
    expect(standIn.messagesTo(PHONE).map((m) => m.text)).toEqual(["v1"]);
  });

  it("answers 413 to a body over 3 MB", async () => {
    await standIn.userSends({ waId: PHONE }, "hi");
    expect((await send(text("x".repeat(3 * 1024 * 1024 + 10)))).status).toBe(413);
  });
});

describe("the 24-hour window", () => {
  it("refuses free-form with 131047 after closeWindow or 24 h until the user writes; templates pass", async () => {
    expect((await send(text("cold"))).code).toBe(131047);
    await standIn.userSends({ waId: PHONE }, "hi");
    expect((await send(text("warm"))).status).toBe(200);
    standIn.closeWindow(PHONE);
    const closed = await send(buttons(["a"]));
    expect([closed.status, closed.code]).toEqual([400, 131047]);
    expect((await send(template(["₹199"]))).status).toBe(200);
    await standIn.userSends({ waId: PHONE }, "again");
    expect((await send(text("warm again"))).status).toBe(200);
    offset = 24 * 3600_000 + 1000;
    expect((await send(text("late"))).code).toBe(131047);
    expect(standIn.messagesTo(PHONE).map((m) => m.kind)).toEqual(["text", "template", "text"]);
  });
});

describe("webhooks", () => {
  it("escapes non-ASCII as \\u and signs the exact bytes; re-serialised JSON does not verify", async () => {
    await standIn.userSends({ waId: PHONE, name: "राम" }, "नमस्ते");
    await standIn.settled();
    const r = hook.received[0]!;
    expect(r.raw).toContain("\\u0928\\u092e\\u0938\\u094d\\u0924\\u0947");
    expect([...r.raw].every((ch) => ch.charCodeAt(0) < 0x80)).toBe(true);
    expect(r.signature).toBe(hmac(r.raw));
    expect(hmac(JSON.stringify(JSON.parse(r.raw)))).not.toBe(r.signature);
    const value = valueIn(r.json);
    expect(r.json.object).toBe("whatsapp_business_account");
    expect(value.metadata.phone_number_id).toBe(PNID);
    expect(value.contacts).toEqual([{ profile: { name: "राम" }, wa_id: PHONE }]);
    expect(value.messages?.[0]).toMatchObject({ from: PHONE, text: { body: "नमस्ते" } });
  });

  it("keeps one phone's webhooks in order and retries one not answered 200", async () => {
    await restart({ answers: [500, 503] });
    for (const t of ["one", "two", "three"]) await standIn.userSends({ waId: PHONE }, t);
    await standIn.settled();
    expect(inboundTexts(hook.received)).toEqual(["one", "two", "three"]);
    expect(standIn.webhookDeliveries().map((d) => d.status)).toEqual([500, 503, 200, 200, 200]);
  });

  it("drops and duplicates webhooks on request", async () => {
    standIn.faults.dropNextWebhooks(1, "messages");
    await standIn.userSends({ waId: PHONE }, "lost");
    standIn.faults.duplicateNextWebhooks(1);
    await standIn.userSends({ waId: PHONE }, "twice");
    await standIn.userSends({ waId: PHONE }, "once");
    await standIn.settled(); // the delayed one below goes alone: let these land first
    standIn.faults.delayWebhooksMs(30);
    await standIn.userSends({ waId: PHONE }, "delayed");
    await standIn.settled();
    expect(inboundTexts(hook.received)).toEqual(["twice", "twice", "once", "delayed"]);
    expect(hook.received[0]?.raw).toBe(hook.received[1]?.raw);
  });

  it("delivers taps as button_reply / list_reply with context.id; calls the verify GET", async () => {
    await standIn.userSends({ waId: PHONE }, "hi");
    const b = (await send(buttons(["Yes", "No"]))).id;
    await standIn.tap(PHONE, b, "No");
    const l = (await send(list([{ rows: rows(2, { description: "d" }) }]))).id;
    await standIn.tap(PHONE, l, "r1");
    await standIn.settled();
    const taps = messagesIn(hook.received).slice(1);
    expect(taps.map((m) => [m.context?.id, m.interactive])).toEqual([
      [b, { type: "button_reply", button_reply: { id: "b1", title: "No" } }],
      [l, { type: "list_reply", list_reply: { id: "r1", title: "Row 1", description: "d" } }],
    ]);
    const verified = await standIn.verifyWebhook();
    expect([verified.status, verified.body]).toEqual([200, verified.challenge]);
    expect((await standIn.verifyWebhook("wrong")).status).toBe(403);
  });
});

describe("faults", () => {
  it("fails the next sends with a code, for one phone or any", async () => {
    await standIn.userSends({ waId: PHONE }, "hi");
    await standIn.userSends({ waId: OTHER }, "hi");
    standIn.faults.failNextSends(130429, 2, PHONE);
    const answers = [await send(text("x", OTHER)), await send(text("x")), await send(text("x"))];
    answers.push(await send(text("x")));
    standIn.faults.failNextSends(131056);
    answers.push(await send(text("x", OTHER)), await send(text("x", OTHER)));
    const seen = answers.map((a) => `${a.status} ${a.code ?? "-"}`);
    expect(seen).toEqual(["200 -", "400 130429", "400 130429", "200 -", "400 131056", "200 -"]);
  });

  it("accepts a send and then reports it failed with the code", async () => {
    await standIn.userSends({ waId: PHONE }, "hi");
    standIn.faults.failStatusFor(PHONE, 131026);
    const { id } = await send(text("doomed"));
    await eventually(() => expect(standIn.statuses(id)).toEqual(["sent", "failed"]));
    await standIn.settled();
    const failed = statusesIn(hook.received).find((s) => s.status === "failed");
    expect(failed?.errors?.[0]).toMatchObject({ code: 131026, title: "Message undeliverable" });
    expect(standIn.messagesTo(PHONE)[0]?.status).toBe("failed");
  });
});

describe("recipients and the window's late refusal", () => {
  it("sends to a BSUID; windowRefusal 'status' accepts outside the window, then fails it", async () => {
    await restart({ extra: { windowRefusal: "status" } });
    await standIn.userSends({ waId: PHONE, userId: "NP.123" }, "hi");
    const bsuid = await send({ ...text("x"), to: undefined, recipient: "NP.123" });
    expect([bsuid.status, bsuid.json.contacts]).toEqual([200, [{ input: "NP.123", wa_id: PHONE }]]);
    standIn.closeWindow(PHONE);
    const late = await send(text("late"));
    await standIn.settled();
    expect([late.status, standIn.statuses(late.id)]).toEqual([200, ["failed"]]);
    const failed = statusesIn(hook.received).find((s) => s.id === late.id);
    expect(failed?.errors?.[0]?.code).toBe(131047);
    expect(valueIn(hook.received[0]!.json).contacts).toEqual([
      { profile: { name: PHONE }, wa_id: PHONE, user_id: "NP.123" },
    ]);
  });
});

describe("WhatsAppChatUser", () => {
  /** A two-step bot: text gets buttons whose first title it cut to 20; a tap, its id and context. */
  async function bot(json: WaWebhook) {
    for (const m of valueIn(json).messages ?? []) {
      const tapped = `You chose ${m.interactive?.button_reply?.id} on ${m.context?.id}`;
      await send(m.type === "text" ? buttons(["💳 Pay the due Rs 1…", "Cancel"]) : text(tapped));
    }
  }

  it("says, taps a cut title by its full label, taps an older message, reads the chat", async () => {
    await restart({ onPost: bot });
    const user = new WhatsAppChatUser(standIn, PHONE, { name: "Sita", timeoutMs: 5_000 });
    const menu = await user.say("menu", "Pick one");
    expect(user.buttons()).toEqual(["💳 Pay the due Rs 1…", "Cancel"]);
    const chosen = await user.tap("💳 Pay the due Rs 1,250", /You chose b0/);
    expect(chosen.text).toBe(`You chose b0 on ${menu.wamid}`);
    const again = await user.say("menu again", "Pick one");
    const stale = await user.tapOn(menu, /Cancel/, /You chose b1/);
    expect(stale.text).toBe(`You chose b1 on ${menu.wamid}`);
    expect(user.texts()).toEqual(["Pick one", chosen.text, "Pick one", stale.text]);
    expect([user.last().wamid, again.wamid === menu.wamid]).toEqual([stale.wamid, false]);
    await expect(user.tap("Nothing like this")).rejects.toThrow(/no button/);
  });
});
