import { z } from "zod";
import { booksEnv, booksSettings } from "./books.ts";
import { catalogEnv, catalogRules, catalogSettings } from "./catalog.ts";
import { ConfigError } from "./error.ts";
import { khaltiEnv, khaltiRules, topUpSettings } from "./khalti.ts";
import { localEnv, localRules, modeOf, sandboxSettings } from "./local.ts";
import { notifierSettings, notifyEnv, notifyRules } from "./notify.ts";
import { readPricesFile } from "./prices-file.ts";
import { pricingEnv, pricingSettings } from "./pricing.ts";
import { providerEnv, providerRules, providerSettings } from "./provider.ts";
import { reconcilerEnv, reconcilerSettings } from "./reconciler.ts";
import { redisEnv, redisRules, redisSettings, usesRedis } from "./redis.ts";
import { remindersEnv, remindersSettings } from "./reminders.ts";
import { rolesEnv, rolesSettings } from "./roles.ts";
import { serverEnv, serverRules, serverSettings } from "./server.ts";
import { botApiPolicyOf, botSettings, telegramEnv } from "./telegram.ts";
import { webhookEnv, webhookRules, webhookSettings } from "./webhook.ts";
import { whatsappEnv, whatsappRules, whatsappSettings } from "./whatsapp.ts";

export { ConfigError } from "./error.ts";
export { isLoopbackHost } from "./fields.ts";
export { DEV_WEBHOOK_SECRET } from "./webhook.ts";

/**
 * Every setting of the process, read once from the environment. Unset optional values select the
 * embedded, zero-configuration mode: local playground instead of Telegram, embedded sandbox instead
 * of the real aggregator, memory instead of Redis. Each concern (one module here) owns its
 * variables' schema, the rules between them and the settings it hands on; this module only
 * composes them.
 */
const envSchema = z.object({
  ...telegramEnv,
  ...rolesEnv,
  ...providerEnv,
  ...webhookEnv,
  ...reconcilerEnv,
  ...catalogEnv,
  ...redisEnv,
  ...serverEnv,
  ...localEnv,
  ...notifyEnv,
  ...pricingEnv,
  ...booksEnv,
  ...khaltiEnv,
  ...whatsappEnv,
  ...remindersEnv,
});
type ParsedEnv = z.output<typeof envSchema>;

/** The rules between variables, in the order their problems are listed. */
function problemsOf(e: ParsedEnv): string[] {
  return [
    ...catalogRules(e),
    ...providerRules(e),
    ...webhookRules(e),
    ...localRules(e),
    ...whatsappRules(e),
    ...redisRules(e),
    ...khaltiRules(e),
    ...serverRules(e),
    ...notifyRules(e, botApiPolicyOf(e), whatsappSettings(e)?.api),
  ];
}

/** Parses the environment into the one typed configuration object. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const prices = readPricesFile(e.PRICE_SCHEDULE_FILE);
  const problems = [...problemsOf(e), ...prices.problems];
  if (problems.length) throw new ConfigError(problems);

  const mode = modeOf(e, usesRedis(e));
  const { roles, accessMode, staffIds, adminPeople } = rolesSettings(e);
  const botApi = botApiPolicyOf(e);
  const whatsapp = whatsappSettings(e);
  const sandbox = sandboxSettings(e, env);
  return {
    mode,
    ...serverSettings(e, mode),
    bot: botSettings(e, roles, botApi),
    provider: providerSettings(e, sandbox.token),
    webhook: webhookSettings(e),
    /** The embedded sandbox's token, and its own variables handed to it unread. */
    sandbox,
    redis: redisSettings(e),
    catalog: catalogSettings(e),
    /** The provider's operator lookups, refreshed this often (provider/catalog-sync.ts); 0: at start only. */
    catalogRefreshMs: e.CATALOG_REFRESH_MS,
    reconciler: reconcilerSettings(e),
    notifier: notifierSettings(e, botApi, whatsapp?.api),
    pricing: pricingSettings(e, prices.schedule),
    accessMode,
    books: booksSettings(e),
    topUp: topUpSettings(e),
    staffIds,
    /** The admins' ids grouped by person (ADMIN_IDS `123=wa:+977…`; maker-checker). */
    adminPeople,
    /** The WhatsApp channel; undefined when its four credentials are not set. */
    whatsapp,
    /** Reminders: the worker on or off, and its interval (src/reminders/). */
    reminders: remindersSettings(e),
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** The values that must never appear in a log line or a chat message. */
export function secretsOf(config: Config): string[] {
  return [
    config.bot.token,
    config.provider.token,
    config.webhook.secret,
    config.metrics.token,
    config.redis.sentinel?.password,
    ...redisUrlPasswords(config.redis.url),
    config.topUp.khalti?.secretKey,
    config.whatsapp?.accessToken,
    config.whatsapp?.appSecret,
    config.whatsapp?.verifyToken,
  ].filter((s): s is string => typeof s === "string" && s.length >= 6);
}

/** REDIS_URL's password as written there (percent-encoded) and as sent to Redis (decoded). */
function redisUrlPasswords(url: string | undefined): string[] {
  const written = url ? new URL(url).password : "";
  if (!written) return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    return [written];
  }
}
