import { z } from "zod";
import { ConfigError } from "../../src/config/index.ts";

/** Faults switchable per token (issue 3, "Faults on demand"). Shares are probabilities 0..1. */
const faultsSchema = z.object({
  /** Added to every request of the token before it is handled. */
  latencyMs: z.number().int().min(0).max(600_000),
  /** Share of requests answered 500/502/503/504 before anything is applied. */
  errorRate5xx: z.number().min(0).max(1),
  /** Share of requests answered 429 before anything is applied. */
  rate429: z.number().min(0).max(1),
  /** Share of executes that are applied (debit, transaction) but whose response is dropped. */
  commitThenDrop: z.number().min(0).max(1),
  /**
   * Share of executes that are applied (debit, transaction) and then answered 500/502/503/504, as
   * a gateway in front of the provider does when the backend answers too late. Unlike errorRate5xx
   * the money has moved: a client that reads 5xx as "failed" and retries pays twice.
   */
  commitThen5xx: z.number().min(0).max(1),
  /** Every webhook event is delivered twice. */
  duplicateWebhooks: z.boolean(),
  /** The "pending" event is held back and delivered after the final one. */
  outOfOrderWebhooks: z.boolean(),
  /** Each webhook event waits this long before its first attempt. */
  webhookDelayMs: z.number().int().min(0).max(3_600_000),
  /** Webhook events are recorded as dropped and never sent. */
  dropWebhooks: z.boolean(),
});
export type Faults = z.infer<typeof faultsSchema>;

export const faultsPatchSchema = faultsSchema.partial().strict();
export type FaultsPatch = z.infer<typeof faultsPatchSchema>;

export const NO_FAULTS: Faults = Object.freeze({
  latencyMs: 0,
  errorRate5xx: 0,
  rate429: 0,
  commitThenDrop: 0,
  commitThen5xx: 0,
  duplicateWebhooks: false,
  outOfOrderWebhooks: false,
  webhookDelayMs: 0,
  dropWebhooks: false,
});

/**
 * Start-up faults from an environment variable: JSON mapping token -> partial faults, e.g.
 * `{"sandbox-token":{"commitThenDrop":0.3}}`. Throws with a readable message when malformed.
 */
export function parseFaultsEnv(text: string | undefined): Record<string, FaultsPatch> {
  if (text === undefined || text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("SANDBOX_FAULTS: not valid JSON");
  }
  const parsed = z.record(z.string(), faultsPatchSchema).safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `SANDBOX_FAULTS: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}

/**
 * The faults of SANDBOX_FAULTS (JSON already parsed by settings.ts, one object per token),
 * checked against the sandbox's own schema. Throws a ConfigError naming the variable.
 */
export function faultsFromConfig(raw: Record<string, unknown>): Record<string, FaultsPatch> {
  const parsed = z.record(z.string(), faultsPatchSchema).safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((i) => `SANDBOX_FAULTS.${i.path.join(".")}: ${i.message}`),
  );
}
