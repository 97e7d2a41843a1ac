import { z } from "zod";
import { faultsPatchSchema } from "./sandbox/faults.ts";

/**
 * Every setting of the process, read once from the environment. Unset optional values select the
 * embedded, zero-configuration mode: local playground instead of Telegram, embedded sandbox instead
 * of the real aggregator, memory instead of Redis.
 */

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const int = (def: number, min = 0) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).default(def));
const bool = (def: boolean) =>
  z
    .preprocess(
      emptyToUndefined,
      z.enum(["true", "false", "1", "0", "yes", "no"]).default(def ? "true" : "false"),
    )
    .transform((v) => v === "true" || v === "1" || v === "yes");
const idList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((s, ctx) => {
      const ids = s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      for (const id of ids) {
        if (!/^-?\d{1,20}$/.test(id)) {
          ctx.addIssue({ code: "custom", message: `"${id}" is not a Telegram user id` });
          return z.NEVER;
        }
      }
      return ids.map(Number);
    }),
);

const envSchema = z.object({
  BOT_TOKEN: optionalString,
  TELEGRAM_API_ROOT: z.preprocess(
    emptyToUndefined,
    z
      .url()
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  PROVIDER_URL: z.preprocess(
    emptyToUndefined,
    z
      .url()
      .refine((u) => /\/api\/v1\/?$/.test(u), "must be the base URL ending in /api/v1")
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  PROVIDER_TOKEN: optionalString,
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/").default("/webhooks/provider"),
  ),
  WEBHOOK_KEY_MODE: z.preprocess(emptyToUndefined, z.enum(["php", "sha256"]).default("php")),
  WEBHOOK_MAX_BODY_BYTES: int(64 * 1024, 256),
  WEBHOOK_CONFIRM_FINAL: bool(true),
  SANDBOX_TOKEN: z.preprocess(emptyToUndefined, z.string().default("sandbox-token")),
  SANDBOX_PORT: int(8090, 0),
  SANDBOX_WEBHOOK_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  SANDBOX_TO_PENDING_MS: int(1000, 0),
  SANDBOX_TO_FINAL_MS: int(2000, 0),
  SANDBOX_RATE_LIMIT: int(50, 0),
  SANDBOX_FAULTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("{}")
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "not valid JSON" });
          return z.NEVER;
        }
      })
      .pipe(z.record(z.string(), faultsPatchSchema)),
  ),
  REDIS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().default("ra:")),
  PORT: int(8080, 0),
  HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .url()
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  AGENT_IDS: idList,
  ADMIN_IDS: idList,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  PROVIDER_LOOKUP_TIMEOUT_MS: int(10_000, 1),
  PROVIDER_EXECUTE_TIMEOUT_MS: int(30_000, 1),
  PROVIDER_MAX_RETRIES: int(3, 0),
  PROVIDER_INDIA_EXECUTE_PATH: z.preprocess(
    emptyToUndefined,
    z.string().default("/in/recharge/execute"),
  ),
  PROVIDER_OPERATORS_PATH: z.preprocess(emptyToUndefined, z.string().default("/np/operators")),
  PROVIDER_OPERATOR_TYPES_PATH: z.preprocess(
    emptyToUndefined,
    z.string().default("/np/operator-types"),
  ),
  PROVIDER_INDIA_PLANS_PATH: z.preprocess(
    emptyToUndefined,
    z.string().default("/in/operator-plans"),
  ),
  PROVIDER_INDIA_DTH_BILL_PATH: z.preprocess(
    emptyToUndefined,
    z.string().default("/in/operator-plans"),
  ),
  NTC_MOBILE_MAX_AMOUNT: int(3000, 50),
  WATER_OPERATOR_ID: int(46, 1),
  ELECTRICITY_OPERATOR_ID: int(118, 1),
  RECONCILE_INTERVAL_MS: int(15_000, 100),
  RECONCILE_MIN_AGE_MS: int(20_000, 0),
  RECONCILE_MAX_AGE_MS: int(60 * 60_000, 1000),
  /** How long "not found" from the provider is not trusted after submit; default: the execute timeout. */
  RECONCILE_NOT_FOUND_GRACE_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).optional(),
  ),
  NOTIFY_CLAIM_IDLE_MS: int(30_000, 1000),
  NOTIFY_LOCK_MS: int(60_000, 1000),
  CONVERSATION_IDLE_MS: int(10 * 60_000, 1000),
  SESSION_TTL_SECONDS: int(7 * 24 * 3600, 60),
  DAILY_SPEND_CAP: int(25_000, 0),
  ORDERS_PER_HOUR: int(20, 1),
});

export type Env = z.input<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment into the one typed configuration object. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.PROVIDER_URL && !e.PROVIDER_TOKEN)
    problems.push("PROVIDER_TOKEN: required when PROVIDER_URL is set");
  if (e.PROVIDER_URL && !e.WEBHOOK_SECRET)
    problems.push("WEBHOOK_SECRET: required when PROVIDER_URL is set");
  if (problems.length) throw new ConfigError(problems);

  const embeddedSandbox = !e.PROVIDER_URL;
  // The development secret is only ever used against the embedded sandbox; a real provider needs its own.
  const webhookSecret = e.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET;
  return {
    mode: {
      playground: !e.BOT_TOKEN,
      embeddedSandbox,
      redis: Boolean(e.REDIS_URL),
    },
    http: { host: e.HOST, port: e.PORT, publicUrl: e.PUBLIC_URL },
    bot: {
      token: e.BOT_TOKEN,
      /** Another Bot API server (a local one, or the emulator of another process); Telegram's by default. */
      apiRoot: e.TELEGRAM_API_ROOT,
      agentIds: e.AGENT_IDS,
      adminIds: e.ADMIN_IDS,
      conversationIdleMs: e.CONVERSATION_IDLE_MS,
      sessionTtlSeconds: e.SESSION_TTL_SECONDS,
      dailySpendCapRupees: e.DAILY_SPEND_CAP,
      ordersPerHour: e.ORDERS_PER_HOUR,
    },
    provider: {
      /** Base URL ending in /api/v1; undefined means "the embedded sandbox, filled in at start". */
      baseUrl: e.PROVIDER_URL,
      token: e.PROVIDER_TOKEN ?? e.SANDBOX_TOKEN,
      lookupTimeoutMs: e.PROVIDER_LOOKUP_TIMEOUT_MS,
      executeTimeoutMs: e.PROVIDER_EXECUTE_TIMEOUT_MS,
      maxRetries: e.PROVIDER_MAX_RETRIES,
      paths: {
        indiaExecute: e.PROVIDER_INDIA_EXECUTE_PATH,
        operators: e.PROVIDER_OPERATORS_PATH,
        operatorTypes: e.PROVIDER_OPERATOR_TYPES_PATH,
        indiaPlans: e.PROVIDER_INDIA_PLANS_PATH,
        indiaDthBill: e.PROVIDER_INDIA_DTH_BILL_PATH,
      },
    },
    webhook: {
      path: e.WEBHOOK_PATH,
      secret: webhookSecret,
      secretIsDevDefault: !e.WEBHOOK_SECRET,
      keyMode: e.WEBHOOK_KEY_MODE,
      maxBodyBytes: e.WEBHOOK_MAX_BODY_BYTES,
      confirmFinalWithStatusQuery: e.WEBHOOK_CONFIRM_FINAL,
    },
    sandbox: {
      token: e.SANDBOX_TOKEN,
      port: e.SANDBOX_PORT,
      /** Standalone sandbox only: the webhook target at start (embedded: our own webhook route). */
      webhookUrl: e.SANDBOX_WEBHOOK_URL,
      delays: { toPendingMs: e.SANDBOX_TO_PENDING_MS, toFinalMs: e.SANDBOX_TO_FINAL_MS },
      rateLimitPerSecond: e.SANDBOX_RATE_LIMIT,
      /** Faults switched on at start, per token (JSON, e.g. {"sandbox-token":{"commitThenDrop":0.3}}). */
      faults: e.SANDBOX_FAULTS,
    },
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    catalog: {
      ntcMobileMaxAmount: e.NTC_MOBILE_MAX_AMOUNT,
      waterOperatorId: e.WATER_OPERATOR_ID,
      electricityOperatorId: e.ELECTRICITY_OPERATOR_ID,
    },
    reconciler: {
      intervalMs: e.RECONCILE_INTERVAL_MS,
      minAgeMs: e.RECONCILE_MIN_AGE_MS,
      maxAgeMs: e.RECONCILE_MAX_AGE_MS,
      notFoundGraceMs: e.RECONCILE_NOT_FOUND_GRACE_MS ?? e.PROVIDER_EXECUTE_TIMEOUT_MS,
    },
    notifier: {
      /** Unacknowledged pushes older than this are taken over (a crashed or stuck process). */
      claimIdleMs: e.NOTIFY_CLAIM_IDLE_MS,
      /** One process at a time sends a given push; the lock outlives a slow send. */
      lockMs: e.NOTIFY_LOCK_MS,
    },
    logLevel: e.LOG_LEVEL,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** Development-only webhook secret of the embedded sandbox; printed at start so a developer can decrypt by hand. */
export const DEV_WEBHOOK_SECRET = "dev-webhook-secret-change-me";

/** The values that must never appear in a log line or a chat message. */
export function secretsOf(config: Config): string[] {
  return [config.bot.token, config.provider.token, config.webhook.secret].filter(
    (s): s is string => typeof s === "string" && s.length >= 6,
  );
}
