import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Secret values (tokens, webhook secret) scrubbed from every line, wherever they appear. */
  secrets?: string[];
  destination?: DestinationStream;
}

/** Field paths that carry secrets; pino censors them before serialising. */
const REDACT_PATHS = [
  "token",
  "secret",
  "botToken",
  "providerToken",
  "webhookSecret",
  "*.token",
  "*.secret",
  "headers['x-auth-token']",
  "*.headers['x-auth-token']",
  "req.headers.authorization",
  "config.bot.token",
  "config.provider.token",
  "config.webhook.secret",
  // WhatsApp: the Cloud API's bearer token, the app secret (webhook HMAC) and the verify token.
  "accessToken",
  "appSecret",
  "verifyToken",
  "*.accessToken",
  "*.appSecret",
  "*.verifyToken",
  "headers.authorization",
  "*.headers.authorization",
  "config.whatsapp.accessToken",
  "config.whatsapp.appSecret",
  "config.whatsapp.verifyToken",
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A pino logger that cannot leak a configured secret: paths are redacted, and as a last line of
 * defence every serialised line is scrubbed of the secret values (an error message or URL that
 * happened to contain the bot token, say).
 */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const secrets = (opts.secrets ?? []).filter((s) => s.length >= 6);
  const scrub = secrets.length
    ? new RegExp(
        secrets
          .map(escapeRegExp)
          .sort((a, b) => b.length - a.length)
          .join("|"),
        "g",
      )
    : null;
  return pino(
    {
      level: opts.level ?? "info",
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      hooks: scrub ? { streamWrite: (line: string) => line.replace(scrub, "[redacted]") } : {},
    },
    opts.destination ?? pino.destination(1),
  );
}
