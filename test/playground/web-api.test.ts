// The playground's JSON API over real HTTP, as a script would use it: the whole product started as
// `npm start` starts it, a data-pack purchase by a customer, the order checked by an agent. It is
// the one HTTP control API of the Bot API emulator, so every kind of live event is checked here.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Api, InlineKeyboard } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotApiEmulatorServer } from "../../dev/playground/emulator/index.ts";
import { createPlaygroundApi } from "../../dev/playground/web/api.ts";
import type { MessageView, SandboxView } from "../../dev/playground/web/index.ts";
import {
  PLAYGROUND_ON_REAL_PROVIDER,
  startTestSystem,
  type TestSystem,
} from "../support/system.ts";

const CUSTOMER = 1001;
const OTHER_CUSTOMER = 1002;
const AGENT = 2001;
const ADMIN = 3001;

interface Transcript {
  user: { id: number; name: string; role: string };
  messages: MessageView[];
  typing: string | null;
  reply_keyboard: string[][] | null;
}

/** A script's view of the playground: plain fetch calls against the documented routes. */
class PlaygroundScript {
  constructor(readonly base: string) {}

  async request(method: string, path: string, body?: unknown) {
    const res = await fetch(`${this.base}/playground/api${path}`, {
      method,
      ...(body === undefined
        ? {}
        : {
            headers: { "Content-Type": "application/json" },
            body: typeof body === "string" ? body : JSON.stringify(body),
          }),
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

  async transcript(userId: number): Promise<Transcript> {
    const res = await this.request("GET", `/users/${userId}/messages`);
    expect(res.status).toBe(200);
    return res.json as unknown as Transcript;
  }

  async lastId(userId: number): Promise<number> {
    return (await this.transcript(userId)).messages.at(-1)?.id ?? 0;
  }

  /** Waits (polling the transcript) until a bot message newer than `afterId` matches. */
  async waitFor(userId: number, match: RegExp, afterId = 0): Promise<MessageView> {
    const deadline = Date.now() + 8000;
    let last: MessageView[] = [];
    while (Date.now() < deadline) {
      last = (await this.transcript(userId)).messages;
      const found = last.find((m) => m.id > afterId && m.from === "bot" && match.test(m.text));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 40));
    }
    const tail = last.slice(-4).map((m) => `#${m.id} ${m.from}: ${m.text}`);
    throw new Error(
      `no bot message matching ${match} after #${afterId}; chat ends:\n${tail.join("\n")}`,
    );
  }

  /** Sends text and waits for the bot's answer matching `expect`. */
  async say(userId: number, text: string, expectText: RegExp): Promise<MessageView> {
    const res = await this.request("POST", `/users/${userId}/messages`, { text });
    expect(res.status).toBe(200);
    const sent = res.json as { message_id: number; update_id: number };
    expect(sent.message_id).toBeGreaterThan(0);
    return this.waitFor(userId, expectText, sent.message_id);
  }

  /** Presses the inline button labelled `label` on the newest message showing it. */
  async tap(userId: number, label: string, expectText: RegExp): Promise<MessageView> {
    const { messages } = await this.transcript(userId);
    const message = messages.findLast((m) =>
      (m.inline_keyboard ?? []).flat().some((b) => b.text === label),
    );
    const button = message?.inline_keyboard?.flat().find((b) => b.text === label);
    if (!message || !button?.callback_data) throw new Error(`no button labelled ${label}`);
    const after = messages.at(-1)?.id ?? 0;
    const res = await this.request("POST", `/users/${userId}/callbacks`, {
      message_id: message.id,
      data: button.callback_data,
    });
    expect(res.status).toBe(200);
    return this.waitFor(userId, expectText, after);
  }

  async sandbox(): Promise<SandboxView> {
    const res = await this.request("GET", "/sandbox");
    expect(res.status).toBe(200);
    return res.json as unknown as SandboxView;
  }
}

const labels = (m: MessageView) => (m.inline_keyboard ?? []).flat().map((b) => b.text);

describe("playground JSON API", () => {
  let ts: TestSystem;
  let api: PlaygroundScript;

  beforeAll(async () => {
    ts = await startTestSystem({
      env: { AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) },
    });
    api = new PlaygroundScript(ts.system.url);
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("serves the chat page and its assets locally, with nothing loaded from elsewhere", async () => {
    const page = await fetch(`${ts.system.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('src="/playground/assets/app.js"');
    expect(html).toContain('href="/playground/assets/style.css"');
    for (const [asset, type] of [
      ["app.js", "text/javascript"],
      ["style.css", "text/css"],
      ["favicon.svg", "image/svg+xml"],
    ] as const) {
      const res = await fetch(`${ts.system.url}/playground/assets/${asset}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(type);
      const body = await res.text();
      // No CDN, no web fonts: every URL the page uses is on this server.
      expect(body).not.toMatch(/(?:src|href|url)\s*[=(]\s*["']?(?:https?:)?\/\//);
      expect(body).not.toContain("@import");
    }
    expect(html).not.toMatch(/(?:src|href)=["'](?:https?:)?\/\//);
    expect((await fetch(`${ts.system.url}/playground/assets/nope.js`)).status).toBe(404);
  });

  it("lists the four demo users with the roles the configuration gives them", async () => {
    const res = await api.request("GET", "/users");
    expect(res.status).toBe(200);
    const { users, bot } = res.json as {
      users: { id: number; name: string; role: string; commands: { command: string }[] }[];
      bot: { name: string };
    };
    expect(bot.name).toBe("Recharge Assistant");
    expect(users.map((u) => [u.id, u.role])).toEqual([
      [CUSTOMER, "customer"],
      [OTHER_CUSTOMER, "customer"],
      [AGENT, "agent"],
      [ADMIN, "admin"],
    ]);
    const commands = (id: number) =>
      users.find((u) => u.id === id)?.commands.map((c) => c.command) ?? [];
    expect(commands(CUSTOMER)).toContain("recharge");
    // Everyone has /balance; /dashboard is in the agent's own menu, /credit and /reverse the
    // admin's. No /cashin: the test system is in staff mode, where cash-ins are off
    // (test/e2e/staff-menu.test.ts; prepaid mode's agent menu has it).
    expect(commands(CUSTOMER)).toContain("balance");
    expect(commands(AGENT)).toContain("dashboard");
    expect(commands(AGENT)).not.toContain("cashin");
    expect(commands(ADMIN)).toEqual(expect.arrayContaining(["credit", "reverse"]));
    expect(commands(CUSTOMER)).not.toContain("cashin");
    expect(commands(CUSTOMER)).not.toContain("reverse");
  });

  let ref = "";

  it("buys a data pack through the API, and the transcript shows every step", async () => {
    const walletBefore = await api.sandbox();
    const menu = await api.say(CUSTOMER, "/recharge", /What would you like to pay/);
    expect(labels(menu)).toContain("📶 Data pack");
    await api.tap(CUSTOMER, "📶 Data pack", /Which mobile number is the pack for/);
    const products = await api.say(CUSTOMER, "9801234567", /9801234567 is an Ncell number/);
    expect(labels(products)).toContain("📶 Data");
    const list = await api.tap(CUSTOMER, "📶 Data", /Ncell Data packs for 9801234567/);
    expect(labels(list)).toContain("1.5 GB / 1 day · Rs 100");
    const confirm = await api.tap(CUSTOMER, "1.5 GB / 1 day · Rs 100", /Please check your order/);
    expect(confirm.text).toContain("Package: 1.5 GB / 1 day");
    expect(confirm.text).toContain("Amount: Rs 100");
    expect(labels(confirm)).toContain("✅ Confirm");
    const receipt = await api.tap(CUSTOMER, "✅ Confirm", /Order \d+/);
    ref = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
    expect(ref).not.toBe("");
    const push = await api.waitFor(CUSTOMER, new RegExp(`Order ${ref} succeeded`), receipt.id);
    expect(push.text).toContain("Ncell Data · 9801234567 · Rs 100");
    // The push comes first; the receipt is brought up to date right after it.
    await api.waitFor(CUSTOMER, /Status: ✅ successful/, receipt.id - 1);

    const { messages, user } = await api.transcript(CUSTOMER);
    expect(user).toMatchObject({ id: CUSTOMER, name: "Asha", role: "customer" });
    // What the user typed is on the user's side, in order, with the bot's answers between.
    expect(
      messages.filter((m) => m.from === "user" && m.kind === "text").map((m) => m.text),
    ).toEqual(["/recharge", "9801234567"]);
    const ids = messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const m of messages) {
      expect(new Date(m.time).toISOString()).toBe(m.time);
      expect(typeof m.edited).toBe("boolean");
    }
    // The receipt was edited in place to the final status; the confirmation lost its buttons.
    const finalReceipt = messages.find((m) => m.id === receipt.id);
    expect(finalReceipt?.text).toContain("Status: ✅ successful");
    expect(finalReceipt?.edited).toBe(true);
    expect(finalReceipt?.edited_time).toBeDefined();
    const confirmed = messages.find((m) => m.id === confirm.id);
    expect(confirmed?.inline_keyboard).toBeNull();
    expect(messages.at(-1)?.id).toBe(push.id);

    // The side panel's data: the wallet paid, and the webhook reached us.
    const wallet = await api.sandbox();
    if (!wallet.enabled || !walletBefore.enabled) throw new Error("the sandbox should be on");
    // Packs are bought at a commission: the wallet pays less than the face value, but pays.
    expect(wallet.balance_paisa).toBeLessThan(walletBefore.balance_paisa);
    expect(wallet.balance_paisa).toBe(ts.system.sandbox!.balance(ts.system.config.sandbox.token));
    expect(wallet.balance).toMatch(/^Rs [\d,]+(\.\d\d)?$/);
    const success = wallet.deliveries.find((d) => d.order_id === ref && d.status === "success");
    expect(success).toMatchObject({ kind: "event", state: "delivered", http_status: 200 });
    expect(wallet.deliveries[0]!.id).toBeGreaterThanOrEqual(success!.id);
  });

  it("shows the order to an agent by /status, and not to another customer", async () => {
    expect(ref).not.toBe("");
    const shown = await api.say(AGENT, `/status ${ref}`, new RegExp(`Order ${ref}`));
    expect(shown.text).toContain("Ncell Data · 9801234567");
    expect(shown.text).toContain("Status: ✅ successful");
    expect(shown.text).toContain(`Customer (Telegram id): ${CUSTOMER}`);
    expect((await api.transcript(AGENT)).user).toMatchObject({ name: "Chandra", role: "agent" });

    const other = await api.say(OTHER_CUSTOMER, `/status ${ref}`, /./);
    expect(other.text).toBe("I found no order with that number.");
  });

  it("streams the chat live as server-sent events", async () => {
    const abort = new AbortController();
    const res = await fetch(`${ts.system.url}/playground/api/events?user_id=${OTHER_CUSTOMER}`, {
      signal: abort.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: { event: string; data: Record<string, unknown> }[] = [];
    let buffer = "";
    const next = async (want: (e: (typeof events)[number]) => boolean) => {
      for (;;) {
        const found = events.find(want);
        if (found) return found;
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf("\n\n");
        }
      }
    };
    try {
      await next((e) => e.event === "ready");
      await api.request("POST", `/users/${AGENT}/messages`, { text: "/help" });
      await api.request("POST", `/users/${OTHER_CUSTOMER}/messages`, { text: "/start" });
      const mine = await next((e) => e.event === "message" && e.data.user_id === OTHER_CUSTOMER);
      expect((mine.data.message as MessageView).text).toBe("/start");
      const answer = await next(
        (e) => e.event === "message" && (e.data.message as MessageView).from === "bot",
      );
      expect((answer.data.message as MessageView).text).toContain("Namaste Bikash");
      expect(answer.data).toHaveProperty("reply_keyboard", null);
      // Only the chat asked for: the agent's /help never shows up here.
      expect(events.every((e) => e.event === "ready" || e.data.user_id === OTHER_CUSTOMER)).toBe(
        true,
      );
    } finally {
      abort.abort();
    }
  });

  it("answers malformed requests with 400 and a reason, never 5xx", async () => {
    const welcome = await api.say(OTHER_CUSTOMER, "/start", /Namaste/);
    const data = welcome.inline_keyboard?.[0]?.[0]?.callback_data;
    expect(data).toBeDefined();
    const before = await api.lastId(OTHER_CUSTOMER);
    const bad: [string, string, unknown][] = [
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, "not json"],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, "[1,2"],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, {}],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, { text: "" }],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, { text: "   " }],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, { text: 42 }],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, { text: "hi", extra: true }],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, { text: "x".repeat(4097) }],
      ["POST", `/users/${OTHER_CUSTOMER}/messages`, null],
      ["POST", "/users/abc/messages", { text: "hi" }],
      ["POST", "/users/0/messages", { text: "hi" }],
      ["POST", "/users/-5/messages", { text: "hi" }],
      ["POST", "/users/1.5/messages", { text: "hi" }],
      ["GET", "/users/abc/messages", undefined],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: welcome.id }],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: String(welcome.id), data }],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: welcome.id, data: "" }],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: -1, data }],
      // Well-formed but impossible: a button the message does not have, a message that is not there.
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: welcome.id, data: "m:nope" }],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: 999_999, data }],
      ["POST", `/users/${OTHER_CUSTOMER}/callbacks`, { message_id: before - 1, data }],
      ["GET", "/events?user_id=zero", undefined],
    ];
    for (const [method, path, body] of bad) {
      const res = await api.request(method, path, body);
      expect({ method, path, body, status: res.status }).toEqual({
        method,
        path,
        body,
        status: 400,
      });
      expect(typeof res.json.error).toBe("string");
    }
    const unknown = await api.request("GET", "/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "no such playground endpoint" });
    // Nothing reached the chat.
    expect(await api.lastId(OTHER_CUSTOMER)).toBe(before);
  });
});

describe("playground JSON API with a real provider configured", () => {
  it("reports the sandbox as off", async () => {
    const ts = await startTestSystem({
      env: PLAYGROUND_ON_REAL_PROVIDER,
    });
    try {
      const res = await fetch(`${ts.system.url}/playground/api/sandbox`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ enabled: false });
      expect((await fetch(`${ts.system.url}/sandbox/api/v1/np/operators`)).status).toBe(404);
    } finally {
      await ts.cleanup();
    }
  });
});

describe("playground JSON API over a bare emulator", () => {
  it("streams one chat's typing, messages, button answers, edits and deletions", async () => {
    const running = await startBotApiEmulatorServer({ token: "424242:control-test" });
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
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const abort = new AbortController();
    try {
      const res = await fetch(`${base}/events?user_id=504`, { signal: abort.signal });
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const events: { event: string; data: Record<string, unknown> }[] = [];
      let buffer = "";
      const readUntil = async (count: number) => {
        while (events.length < count) {
          const chunk = await reader.read();
          if (chunk.done) throw new Error("the event stream ended");
          buffer += chunk.value;
          let end = buffer.indexOf("\n\n");
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
            end = buffer.indexOf("\n\n");
          }
        }
      };
      await readUntil(1);
      expect(events[0]).toEqual({ event: "ready", data: { user_id: 504 } });

      running.emulator.sendText(505, "someone else");
      const hello = await fetch(`${base}/users/504/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hello" }),
      });
      expect(hello.status).toBe(200);
      const api = new Api("424242:control-test", { apiRoot: running.apiRoot });
      await api.sendChatAction(504, "typing");
      const sent = await api.sendMessage(504, "Processing", {
        reply_markup: new InlineKeyboard().text("Refresh", "refresh"),
      });
      const pressed = await fetch(`${base}/users/504/callbacks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message_id: sent.message_id, data: "refresh" }),
      });
      const { callback_query_id } = (await pressed.json()) as { callback_query_id: string };
      await api.answerCallbackQuery(callback_query_id, { text: "Still processing" });
      await api.editMessageText(504, sent.message_id, "Done");
      await api.deleteMessage(504, sent.message_id);
      await readUntil(7);

      expect(events.slice(1).map((e) => e.event)).toEqual([
        "message",
        "typing",
        "message",
        "callback_answer",
        "edit",
        "delete",
      ]);
      expect(events.slice(1).every((e) => e.data.user_id === 504)).toBe(true);
      expect(events[1]?.data.message).toMatchObject({ from: "user", text: "hello" });
      expect(events[2]?.data.action).toBe("typing");
      expect(events[3]?.data.message).toMatchObject({
        id: sent.message_id,
        from: "bot",
        text: "Processing",
        inline_keyboard: [[{ text: "Refresh", callback_data: "refresh" }]],
      });
      expect(events[4]?.data).toMatchObject({
        message_id: sent.message_id,
        text: "Still processing",
        show_alert: false,
      });
      expect(events[5]?.data.message).toMatchObject({ text: "Done", edited: true });
      expect(events[6]?.data).toEqual({ user_id: 504, message_id: sent.message_id });
    } finally {
      abort.abort();
      server.close();
      if ("closeAllConnections" in server) server.closeAllConnections();
      await running.close();
    }
  });
});
