import { type BotApiPolicy, DEFAULT_BOT_API_POLICY } from "../telegram/policy.ts";
import { int, optionalBaseUrl, optionalString, type Parsed } from "./fields.ts";

/** The bot: its token and Bot API, its calls' bounds, and the chat's own timings and limits. */
export const telegramEnv = {
  BOT_TOKEN: optionalString,
  TELEGRAM_API_ROOT: optionalBaseUrl,
  TELEGRAM_TIMEOUT_MS: int(DEFAULT_BOT_API_POLICY.timeoutMs, 100),
  TELEGRAM_ATTEMPTS: int(DEFAULT_BOT_API_POLICY.attempts, 1),
  TELEGRAM_WEBHOOK_ANSWER_MS: int(3_000, 100),
  CONVERSATION_IDLE_MS: int(10 * 60_000, 1000),
  SESSION_TTL_SECONDS: int(7 * 24 * 3600, 60),
  DAILY_SPEND_CAP: int(25_000, 0),
  ORDERS_PER_HOUR: int(20, 1),
};
type TelegramEnv = Parsed<typeof telegramEnv>;

/** Bounds every Bot API call (src/telegram/policy.ts, enforced in src/telegram/api.ts). */
export function botApiPolicyOf(e: TelegramEnv): BotApiPolicy {
  return {
    timeoutMs: e.TELEGRAM_TIMEOUT_MS,
    attempts: e.TELEGRAM_ATTEMPTS,
    maxDelayMs: DEFAULT_BOT_API_POLICY.maxDelayMs,
  };
}

export function botSettings(
  e: TelegramEnv,
  roles: { agentIds: number[]; adminIds: number[] },
  api: BotApiPolicy,
) {
  return {
    token: e.BOT_TOKEN,
    /**
     * Telegram is configured (BOT_TOKEN set). False with WhatsApp alone: no grammY bot against
     * Telegram then; the playground's emulated Telegram is `mode.playground`.
     */
    telegram: e.BOT_TOKEN !== undefined,
    /** Another Bot API server (a local one, or the emulator of another process); Telegram's by default. */
    apiRoot: e.TELEGRAM_API_ROOT,
    agentIds: roles.agentIds,
    adminIds: roles.adminIds,
    conversationIdleMs: e.CONVERSATION_IDLE_MS,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    dailySpendCapRupees: e.DAILY_SPEND_CAP,
    ordersPerHour: e.ORDERS_PER_HOUR,
    /** Bounds every Bot API call (src/telegram/policy.ts, enforced in src/telegram/api.ts). */
    api,
    /** Telegram's webhook is answered within this long, the update handled on (webhook-transport.ts). */
    webhookAnswerMs: e.TELEGRAM_WEBHOOK_ANSWER_MS,
  };
}
