// The playground's WhatsApp customers over real HTTP, as the page and scripts use them: the whole
// product started as `npm start` starts it, a customer's "hi" answered with the menu list through
// the WhatsApp stand-in, a row tapped, and requests the API must refuse.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotApiEmulatorServer } from "../../dev/playground/emulator/index.ts";
import { createPlaygroundApi } from "../../dev/playground/web/api.ts";
import type { WaMessageView, WhatsAppUserView } from "../../dev/playground/web/index.ts";
import { businessView } from "../../dev/playground/web/whatsapp.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const SITA = "9779841000001";
const HARI = "9779841000002";

class WhatsAppScript {
  /** Where the WhatsApp routes are under `base`: the product mounts the API at /playground/api. */
  prefix = "/playground/api/whatsapp";
  constructor(readonly base: string) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${this.base}${this.prefix}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json: json as Record<string, unknown> };
  }

  async chat(waId: string): Promise<WaMessageView[]> {
    const res = await this.request("GET", `/users/${waId}/messages`);
    expect(res.status).toBe(200);
    return (res.json as unknown as { messages: WaMessageView[] }).messages;
  }

  /** Waits (polling the chat, as the page does) for a business message after `after` messages. */
  async waitFor(waId: string, match: RegExp, after: number): Promise<WaMessageView> {
    const deadline = Date.now() + 10_000;
    let seen: WaMessageView[] = [];
    while (Date.now() < deadline) {
      seen = await this.chat(waId);
      const found = seen.slice(after).find((m) => m.from === "business" && match.test(m.text));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 40));
    }
    const tail = seen.slice(-4).map((m) => `${m.from}: ${m.text}`);
    throw new Error(`no business message matching ${match}; chat ends:\n${tail.join("\n")}`);
  }
}

describe("playground JSON API: WhatsApp customers", () => {
  let ts: TestSystem;
  let wa: WhatsAppScript;

  beforeAll(async () => {
    ts = await startTestSystem({ env: { ACCESS_MODE: "prepaid" } });
    wa = new WhatsAppScript(ts.system.url);
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("lists the WhatsApp customers beside the Telegram ones, phone as identity", async () => {
    const res = await wa.request("GET", "/users");
    expect(res.status).toBe(200);
    const { enabled, users } = res.json as { enabled: boolean; users: WhatsAppUserView[] };
    expect(enabled).toBe(true);
    expect(users).toEqual([
      { wa_id: SITA, name: "Sita", label: "Customer (WhatsApp)", phone: "+977 9841000001" },
      { wa_id: HARI, name: "Hari", label: "Customer (WhatsApp)", phone: "+977 9841000002" },
    ]);
    expect(await wa.chat(HARI)).toEqual([]);
  });

  let menu: WaMessageView;

  it("a customer says hi and gets the menu as a list message", async () => {
    const res = await wa.request("POST", `/users/${SITA}/messages`, { text: "hi" });
    expect(res.status).toBe(200);
    expect(res.json.wamid).toMatch(/^wamid\./);
    menu = await wa.waitFor(SITA, /Namaste Sita/, 1);
    const chat = await wa.chat(SITA);
    expect(chat[0]).toMatchObject({ from: "user", text: "hi", id: res.json.wamid, reply_to: null });
    expect(menu.kind).toBe("list");
    expect(menu.buttons).toEqual([]);
    expect(menu.list?.button).toBe("Choose");
    const rows = menu.list?.sections.flatMap((s) => s.rows) ?? [];
    expect(rows.map((r) => r.id)).toContain("m:mobile");
    expect(rows.find((r) => r.id === "m:mobile")?.title).toMatch(/Mobile top-up/);
    // The same message the stand-in accepted, with the status WhatsApp reported for it.
    const accepted = ts.system.whatsapp?.messagesTo(SITA).find((m) => m.wamid === menu.id);
    expect(accepted?.kind).toBe("list");
    expect(["accepted", "sent", "delivered", "read"]).toContain(menu.status);
    // The other customer's chat is their own.
    expect(await wa.chat(HARI)).toEqual([]);
  });

  it("tapping a list row reaches the product as a list reply and quotes the list", async () => {
    const before = (await wa.chat(SITA)).length;
    const res = await wa.request("POST", `/users/${SITA}/taps`, { wamid: menu.id, id: "m:mobile" });
    expect(res.status).toBe(200);
    const question = await wa.waitFor(SITA, /Which mobile number/, before);
    const chat = await wa.chat(SITA);
    const tapped = chat[before];
    expect(tapped?.from).toBe("user");
    expect(tapped?.id).toBe(res.json.wamid);
    expect(tapped?.text).toMatch(/Mobile top-up/);
    expect(tapped?.reply_to).toEqual({ id: menu.id, text: menu.text.slice(0, 200) });
    // No edits on WhatsApp: the menu is still there as sent.
    expect(chat.find((m) => m.id === menu.id)?.text).toBe(menu.text);
    // A reply button: typed text goes on, the button shows under the question.
    expect(question.kind).toBe("button");
    expect(question.buttons.map((b) => b.title)).toContain("✖ Cancel");
    const typed = await wa.request("POST", `/users/${SITA}/messages`, { text: "9841234567" });
    expect(typed.status).toBe(200);
    await wa.waitFor(SITA, /9841234567 · NTC Prepaid/, before + 2);
  });

  it("refuses bad input with 4xx and a reason, never a 5xx", async () => {
    const cases: [string, string, unknown, number][] = [
      ["POST", `/users/${SITA}/messages`, { text: "" }, 400],
      ["POST", `/users/${SITA}/messages`, { text: "  " }, 400],
      ["POST", `/users/${SITA}/messages`, { text: "hi", extra: 1 }, 400],
      ["POST", `/users/${SITA}/messages`, "{not json", 400],
      ["POST", "/users/+9779841000001/messages", { text: "hi" }, 400],
      ["POST", "/users/12/messages", { text: "hi" }, 400],
      ["GET", "/users/abc/messages", undefined, 400],
      ["POST", `/users/${SITA}/taps`, { wamid: menu.id }, 400],
      ["POST", `/users/${SITA}/taps`, { wamid: menu.id, id: "m:nope" }, 400],
      ["POST", `/users/${SITA}/taps`, { wamid: "wamid.unknown", id: "m:mobile" }, 400],
      // Another customer cannot tap Sita's menu.
      ["POST", `/users/${HARI}/taps`, { wamid: menu.id, id: "m:mobile" }, 400],
      ["POST", `/users/${SITA}/nope`, {}, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await wa.request(method, path, body);
      expect({ path, body, status: res.status }).toEqual({ path, body, status });
      expect(typeof res.json.error).toBe("string");
    }
    const before = (await wa.chat(SITA)).length;
    // The guard covers these routes too: no JSON content type, or another origin.
    const form = await fetch(`${wa.base}/playground/api/whatsapp/users/${SITA}/messages`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ text: "hi" }),
    });
    expect(form.status).toBe(415);
    const foreign = await wa.request(
      "POST",
      `/users/${SITA}/messages`,
      { text: "hi" },
      { Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect((await wa.chat(SITA)).length).toBe(before);
  });
});

describe("playground WhatsApp views", () => {
  const base = { to: SITA, at: Date.UTC(2026, 10, 26, 4, 0), status: "delivered" as const };

  it("shows a template as its name, language and parameters, with its quick replies", () => {
    const view = businessView({
      ...base,
      wamid: "wamid.t1",
      kind: "template",
      text: "[template order_update/en_US] 1795 | succeeded",
      buttons: [{ id: "menu", title: "menu" }],
      body: {
        type: "template",
        template: { name: "order_update", language: { code: "en_US" }, components: [] },
      },
    });
    expect(view).toMatchObject({
      from: "business",
      kind: "template",
      text: "1795 | succeeded",
      template: { name: "order_update", language: "en_US" },
      buttons: [{ id: "menu", title: "menu" }],
      list: null,
      status: "delivered",
      time: "2026-11-26T04:00:00.000Z",
    });
  });

  it("shows a reply-button message's header and footer, and a URL button", () => {
    const buttons = businessView({
      ...base,
      wamid: "wamid.b1",
      kind: "button",
      text: "Pay now?",
      buttons: [{ id: "y", title: "Yes" }],
      body: {
        type: "interactive",
        interactive: {
          type: "button",
          header: { type: "text", text: "Your order" },
          body: { text: "Pay now?" },
          footer: { text: "Rs 150" },
          action: { buttons: [{ type: "reply", reply: { id: "y", title: "Yes" } }] },
        },
      },
    });
    expect(buttons).toMatchObject({ header: "Your order", footer: "Rs 150", url: null });
    const link = businessView({
      ...base,
      wamid: "wamid.u1",
      kind: "cta_url",
      text: "Top up with Khalti",
      buttons: [],
      body: {
        type: "interactive",
        interactive: {
          type: "cta_url",
          body: { text: "Top up with Khalti" },
          action: {
            name: "cta_url",
            parameters: { display_text: "Pay", url: "http://127.0.0.1/pay" },
          },
        },
      },
    });
    expect(link.url).toEqual({ display_text: "Pay", url: "http://127.0.0.1/pay" });
    expect(link.header).toBeNull();
  });
});

describe("playground WhatsApp routes without a stand-in (WHATSAPP_* configured)", () => {
  it("lists no WhatsApp customers and refuses their messages with 400", async () => {
    const running = await startBotApiEmulatorServer({ token: "424242:wa-off-test" });
    const playground = createPlaygroundApi({
      emulator: running.emulator,
      sandbox: undefined,
      sandboxToken: "",
      users: [],
      deliveriesShown: 10,
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: playground.fetch, port: 0, hostname: "127.0.0.1" }, () =>
        resolve(s),
      );
    });
    try {
      const wa = new WhatsAppScript(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      wa.prefix = "/whatsapp";
      expect(await wa.request("GET", "/users")).toEqual({ status: 200, json: { enabled: false } });
      const sent = await wa.request("POST", `/users/${SITA}/messages`, { text: "hi" });
      expect(sent.status).toBe(400);
      expect(sent.json.error).toMatch(/no WhatsApp stand-in/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await running.close();
    }
  });
});
