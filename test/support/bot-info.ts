import type { UserFromGetMe } from "grammy/types";

/**
 * A bot's own getMe, handed to grammY so that it never asks Telegram (a test bot that only
 * handles updates): no group, inline or business features.
 */
export function testBotInfo(over: Partial<UserFromGetMe> = {}): UserFromGetMe {
  return {
    id: 1,
    is_bot: true,
    first_name: "bot",
    username: "bot",
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    ...over,
  } as UserFromGetMe;
}
