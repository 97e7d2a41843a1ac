import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCommand } from "../../conversations/dashboard/index.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { createI18n } from "../../src/bot/i18n.ts";
import {
  ADMIN,
  AGENT,
  client,
  type DashboardHarness,
  startDashboard,
} from "../support/dashboard.ts";

/**
 * /dashboard in the chat: an admin or an agent gets the one-time link with link previews off, in
 * their private chat; anyone else is told the back office is not for them; a group gets nothing.
 * The link it sends logs in (over the same Redis as the back office).
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});

interface Sent {
  method: string;
  payload: Record<string, unknown>;
}

function botWith(issueLink: (id: number) => Promise<{ url: string } | null>) {
  const bot = new Bot<BotContext>("1:test", {
    botInfo: {
      id: 1,
      is_bot: true,
      first_name: "Test",
      username: "test_bot",
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    },
  });
  const sent: Sent[] = [];
  bot.api.config.use(async (_prev, method, payload) => {
    sent.push({ method, payload: payload as Record<string, unknown> });
    return { ok: true, result: { message_id: sent.length, date: 0, chat: { id: 1 } } } as never;
  });
  bot.use(createI18n<BotContext>(() => "en"));
  bot.use(dashboardCommand({ issueLink }));
  return { bot, sent };
}

let updateId = 0;
function command(userId: number, chatType: "private" | "group" = "private"): Update {
  const chat =
    chatType === "private"
      ? { id: userId, type: "private" as const, first_name: "A" }
      : { id: -100, type: "group" as const, title: "G" };
  return {
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat,
      from: { id: userId, is_bot: false, first_name: "A" },
      text: "/dashboard",
      entities: [{ type: "bot_command", offset: 0, length: 10 }],
    },
  } as Update;
}

describe("/dashboard", () => {
  it("sends an admin a link with previews off, and the link logs in", async () => {
    const { bot, sent } = botWith((id) => h.access.issueLink(id));
    await bot.handleUpdate(command(ADMIN));
    expect(sent).toHaveLength(1);
    const [msg] = sent;
    expect(msg!.method).toBe("sendMessage");
    expect(msg!.payload.chat_id).toBe(ADMIN);
    expect(msg!.payload.link_preview_options).toEqual({ is_disabled: true });
    const url = /(http:\/\/\S+)/.exec(String(msg!.payload.text))?.[1];
    expect(url).toMatch(/\/dashboard\/login\/[A-Za-z0-9_-]{43}$/);
    const c = client(h.url);
    expect((await c.get(new URL(url!).pathname)).status).toBe(200);
    expect((await c.post(new URL(url!).pathname)).status).toBe(303);
    expect(await (await c.get("/dashboard")).text()).toContain(`admin ${ADMIN}`);
  });

  it("sends an agent a link too", async () => {
    const { bot, sent } = botWith((id) => h.access.issueLink(id));
    await bot.handleUpdate(command(AGENT));
    expect(String(sent[0]?.payload.text)).toContain("/dashboard/login/");
  });

  it("tells a customer it is not for them, and sends no link", async () => {
    const { bot, sent } = botWith((id) => h.access.issueLink(id));
    await bot.handleUpdate(command(4242));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload.text).toBe("The back office is for admins and agents.");
  });

  it("never answers with a link in a group", async () => {
    const { bot, sent } = botWith((id) => h.access.issueLink(id));
    await bot.handleUpdate(command(ADMIN, "group"));
    expect(sent).toEqual([]);
  });

  it("says so when no link can be made (Redis down)", async () => {
    const { bot, sent } = botWith(async () => {
      throw new Error("Connection is closed");
    });
    await bot.handleUpdate(command(ADMIN));
    expect(String(sent[0]?.payload.text)).toContain("cannot give a link right now");
  });
});
