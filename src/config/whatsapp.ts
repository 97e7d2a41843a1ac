import { z } from "zod";
import { emptyToUndefined, httpUrl, int, optionalString, type Parsed } from "./fields.ts";

/** The app secret keys the webhook's HMAC: a short one is guessed offline. */
const MIN_APP_SECRET_LENGTH = 16;
/** The longest pause between two attempts of a Cloud API call (as the Bot API's policy). */
const MAX_BACKOFF_MS = 5_000;
/** Meta's webhook bodies are small batches; a larger body is refused (413) before it is buffered. */
const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/** Paths other parts already answer on the public listener (src/system, src/local-mode.ts). */
const TAKEN_PREFIXES = [
  "/telegram-webhook",
  "/telegram",
  "/sandbox",
  "/khalti",
  "/pay",
  "/dashboard",
];

/** The four credentials that make the channel: all or none. */
export const WHATSAPP_CREDENTIALS = [
  "WHATSAPP_PHONE_NUMBER_ID",
  "WHATSAPP_ACCESS_TOKEN",
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_VERIFY_TOKEN",
] as const;

/**
 * `en:en_US,hi:hi,ne:en_US`: the product's locale, then Meta's code of the template approved for
 * it. A locale left out, or mapped to another language's code (Meta has no Nepali), gets that
 * template with its words in that language (src/whatsapp/template-language.ts).
 */
const templateLanguages = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("en:en_US,hi:hi,ne:en_US")
    .transform((s, ctx) => {
      const out: Record<string, string> = {};
      for (const pair of s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([a-z]{2,3}):([a-z]{2,3}(?:_[A-Z]{2})?)$/.exec(pair);
        if (!m?.[1] || !m[2]) {
          ctx.addIssue({ code: "custom", message: `"${pair}" is not locale:code (en:en_US)` });
          return z.NEVER;
        }
        out[m[1]] = m[2];
      }
      if (!out.en) {
        ctx.addIssue({ code: "custom", message: "must name en (the fallback language)" });
        return z.NEVER;
      }
      return out;
    }),
);

/** The WhatsApp Cloud API channel: its number, credentials, webhook, template and call bounds. */
export const whatsappEnv = {
  WHATSAPP_PHONE_NUMBER_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{5,20}$/, "must be the phone number id (digits)")
      .optional(),
  ),
  WHATSAPP_ACCESS_TOKEN: optionalString,
  WHATSAPP_APP_SECRET: optionalString,
  WHATSAPP_VERIFY_TOKEN: optionalString,
  WHATSAPP_API_ROOT: z.preprocess(
    emptyToUndefined,
    httpUrl.default("https://graph.facebook.com").transform((u) => u.replace(/\/+$/, "")),
  ),
  WHATSAPP_API_VERSION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^v\d+\.\d+$/, "must look like v24.0")
      .default("v24.0"),
  ),
  WHATSAPP_WEBHOOK_PATH: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .startsWith("/", "must start with /")
      .default("/webhooks/whatsapp")
      .transform((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p)),
  ),
  WHATSAPP_TEMPLATE_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, "must be a template name (lower case, digits, _)")
      .default("order_update"),
  ),
  WHATSAPP_TEMPLATE_LANGUAGES: templateLanguages,
  WHATSAPP_TIMEOUT_MS: int(10_000, 100),
  WHATSAPP_ATTEMPTS: int(3, 1),
  WHATSAPP_MESSAGES_PER_SECOND: int(80, 1),
};
type WhatsAppEnv = Parsed<typeof whatsappEnv>;
type Credentials = Pick<WhatsAppEnv, (typeof WHATSAPP_CREDENTIALS)[number]>;

/** All four credentials are set: the channel runs. */
export function whatsappConfigured(e: Partial<Credentials>): boolean {
  return WHATSAPP_CREDENTIALS.every((name) => e[name] !== undefined);
}

/** At least one credential is set: WhatsApp was meant (the rules name what is missing). */
export function whatsappMeant(e: Partial<Credentials>): boolean {
  return WHATSAPP_CREDENTIALS.some((name) => e[name] !== undefined);
}

export function whatsappRules(e: WhatsAppEnv & { WEBHOOK_PATH?: string | undefined }): string[] {
  const problems: string[] = [];
  if (whatsappMeant(e) && !whatsappConfigured(e)) {
    const missing = WHATSAPP_CREDENTIALS.filter((name) => e[name] === undefined);
    const set = WHATSAPP_CREDENTIALS.filter((name) => e[name] !== undefined);
    problems.push(
      `${missing.join(", ")}: required when ${set.join(", ")} ${set.length > 1 ? "are" : "is"} set (the WhatsApp channel needs all four, or none)`,
    );
  }
  if (e.WHATSAPP_APP_SECRET && e.WHATSAPP_APP_SECRET.length < MIN_APP_SECRET_LENGTH)
    problems.push(`WHATSAPP_APP_SECRET: must be at least ${MIN_APP_SECRET_LENGTH} characters`);
  if (whatsappMeant(e)) problems.push(...pathProblems(e.WHATSAPP_WEBHOOK_PATH, e.WEBHOOK_PATH));
  return problems;
}

function pathProblems(path: string, providerPath: string | undefined): string[] {
  if (path === "/") return ["WHATSAPP_WEBHOOK_PATH: must not be / (the public listener's root)"];
  if (providerPath !== undefined && path === providerPath.replace(/\/+$/, ""))
    return ["WHATSAPP_WEBHOOK_PATH: must differ from WEBHOOK_PATH (the aggregator's webhook)"];
  const taken = TAKEN_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
  if (taken) return [`WHATSAPP_WEBHOOK_PATH: ${taken} is taken by another part of the server`];
  return [];
}

/** The channel's settings; undefined when WhatsApp is not configured. */
export function whatsappSettings(e: WhatsAppEnv) {
  if (
    !e.WHATSAPP_PHONE_NUMBER_ID ||
    !e.WHATSAPP_ACCESS_TOKEN ||
    !e.WHATSAPP_APP_SECRET ||
    !e.WHATSAPP_VERIFY_TOKEN
  )
    return undefined;
  return {
    phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
    accessToken: e.WHATSAPP_ACCESS_TOKEN,
    appSecret: e.WHATSAPP_APP_SECRET,
    verifyToken: e.WHATSAPP_VERIFY_TOKEN,
    apiRoot: e.WHATSAPP_API_ROOT,
    apiVersion: e.WHATSAPP_API_VERSION,
    webhookPath: e.WHATSAPP_WEBHOOK_PATH,
    /** The webhook's body limit (413 above it). */
    webhookMaxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
    /** One utility template whose single body parameter carries the update; its code per locale. */
    template: { name: e.WHATSAPP_TEMPLATE_NAME, languages: e.WHATSAPP_TEMPLATE_LANGUAGES },
    /** Bounds every Cloud API call (src/whatsapp/client.ts). */
    api: {
      timeoutMs: e.WHATSAPP_TIMEOUT_MS,
      attempts: e.WHATSAPP_ATTEMPTS,
      maxBackoffMs: MAX_BACKOFF_MS,
    },
    /** The number's throughput (80/s by default, counted in and out together). */
    messagesPerSecond: e.WHATSAPP_MESSAGES_PER_SECOND,
  };
}
export type WhatsAppSettings = NonNullable<ReturnType<typeof whatsappSettings>>;
