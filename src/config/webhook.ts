import { z } from "zod";
import { bool, emptyToUndefined, int, optionalString, type Parsed } from "./fields.ts";

/** The most any configured body limit may be: a larger body is no webhook, only a memory load. */
const MAX_BODY_LIMIT_BYTES = 1024 * 1024;
/** A webhook secret shorter than this is guessable (it keys the HMAC and the cipher). */
const MIN_WEBHOOK_SECRET_LENGTH = 16;

/** Development-only webhook secret of the embedded sandbox; printed at start so a developer can decrypt by hand. */
export const DEV_WEBHOOK_SECRET = "dev-webhook-secret-change-me";

/** The aggregator's webhooks: where they arrive, how they are keyed and checked. */
export const webhookEnv = {
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/").default("/webhooks/provider"),
  ),
  WEBHOOK_KEY_MODE: z.preprocess(emptyToUndefined, z.enum(["php", "sha256"]).default("php")),
  WEBHOOK_MAX_BODY_BYTES: int(64 * 1024, 256).refine(
    (n) => n <= MAX_BODY_LIMIT_BYTES,
    `must be at most ${MAX_BODY_LIMIT_BYTES} (1 MiB)`,
  ),
  WEBHOOK_CONFIRM_FINAL: bool(true),
};
type WebhookEnv = Parsed<typeof webhookEnv>;

export function webhookRules(e: WebhookEnv & { PROVIDER_URL?: string | undefined }): string[] {
  const problems: string[] = [];
  if (e.PROVIDER_URL && !e.WEBHOOK_SECRET)
    problems.push("WEBHOOK_SECRET: required when PROVIDER_URL is set");
  // The aggregator's webhooks are signed and encrypted with it: a short one is guessed offline.
  if (e.PROVIDER_URL && e.WEBHOOK_SECRET && e.WEBHOOK_SECRET.length < MIN_WEBHOOK_SECRET_LENGTH)
    problems.push(
      `WEBHOOK_SECRET: must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters when PROVIDER_URL is set`,
    );
  return problems;
}

export function webhookSettings(e: WebhookEnv) {
  return {
    path: e.WEBHOOK_PATH,
    // The development secret is only ever used against the embedded sandbox; a real provider needs its own.
    secret: e.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
    secretIsDevDefault: !e.WEBHOOK_SECRET,
    keyMode: e.WEBHOOK_KEY_MODE,
    maxBodyBytes: e.WEBHOOK_MAX_BODY_BYTES,
    confirmFinalWithStatusQuery: e.WEBHOOK_CONFIRM_FINAL,
  };
}
