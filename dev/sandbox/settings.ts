import { z } from "zod";
import { emptyToUndefined, httpUrl, int, port } from "../../src/config/fields.ts";
import { ConfigError } from "../../src/config/index.ts";
import { faultsFromConfig } from "./faults.ts";

/**
 * The sandbox's own settings (development harness): read by the sandbox where it runs, in local
 * mode (src/local-mode.ts, from the SANDBOX_* variables the product hands over unread) and alone
 * (`npm run sandbox`). Refused the way the product's settings are: a ConfigError naming each one.
 */
const sandboxEnv = z.object({
  SANDBOX_PORT: port(8090),
  SANDBOX_WEBHOOK_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
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
      .pipe(z.record(z.string(), z.record(z.string(), z.unknown()))),
  ),
});

export function loadSandboxSettings(env: Record<string, string | undefined>) {
  const parsed = sandboxEnv.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  return {
    port: e.SANDBOX_PORT,
    /** Standalone sandbox only: the webhook target at start (embedded: our own webhook route). */
    webhookUrl: e.SANDBOX_WEBHOOK_URL,
    delays: { toPendingMs: e.SANDBOX_TO_PENDING_MS, toFinalMs: e.SANDBOX_TO_FINAL_MS },
    rateLimitPerSecond: e.SANDBOX_RATE_LIMIT,
    /** Faults switched on at start, per token (JSON, e.g. {"sandbox-token":{"commitThenDrop":0.3}}). */
    faults: faultsFromConfig(e.SANDBOX_FAULTS),
  };
}

export type SandboxSettings = ReturnType<typeof loadSandboxSettings>;
