import { z } from "zod";
import {
  emptyToUndefined,
  httpUrl,
  int,
  optionalBaseUrl,
  optionalString,
  type Parsed,
} from "./fields.ts";

/** Adding money online: the Khalti gateway, where its payer comes back, and the top-ups' limits. */
export const khaltiEnv = {
  /** Khalti ePayment's base URL (sandbox or production, ending in /api/v2); unset: the local stand-in in local mode, no top-ups otherwise. */
  KHALTI_BASE_URL: z.preprocess(
    emptyToUndefined,
    httpUrl
      .refine((u) => /\/api\/v2\/?$/.test(u), "must be the base URL ending in /api/v2")
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  KHALTI_SECRET_KEY: optionalString,
  KHALTI_TIMEOUT_MS: int(10_000, 100),
  /** The public base URL Khalti sends the payer's browser back to (default PUBLIC_URL). */
  TOPUP_PUBLIC_URL: optionalBaseUrl,
  TOPUP_MAX_AMOUNT: int(10_000, 10),
  TOPUP_DAILY_CAP: int(25_000, 10),
  TOPUP_LOOKUP_INTERVAL_MS: int(15_000, 100),
  TOPUP_REFUND_WATCH_MS: int(7 * 86_400_000, 0),
  TOPUP_REFUND_CHECK_MS: int(3_600_000, 100),
};
type KhaltiEnv = Parsed<typeof khaltiEnv>;

export function khaltiRules(e: KhaltiEnv & { PUBLIC_URL?: string | undefined }): string[] {
  const problems: string[] = [];
  if (e.KHALTI_BASE_URL && !e.KHALTI_SECRET_KEY)
    problems.push("KHALTI_SECRET_KEY: required when KHALTI_BASE_URL is set");
  if (e.KHALTI_SECRET_KEY && !e.KHALTI_BASE_URL)
    problems.push("KHALTI_BASE_URL: required when KHALTI_SECRET_KEY is set");
  if (e.KHALTI_BASE_URL && !e.TOPUP_PUBLIC_URL && !e.PUBLIC_URL)
    problems.push(
      "TOPUP_PUBLIC_URL: required when KHALTI_BASE_URL is set and PUBLIC_URL is not (Khalti sends the payer's browser back there)",
    );
  return problems;
}

export function topUpSettings(e: KhaltiEnv & { PUBLIC_URL?: string | undefined }) {
  return {
    /** Unset: the local stand-in (local mode only); without local mode, no top-ups. */
    khalti: e.KHALTI_BASE_URL
      ? { baseUrl: e.KHALTI_BASE_URL, secretKey: e.KHALTI_SECRET_KEY ?? "" }
      : undefined,
    timeoutMs: e.KHALTI_TIMEOUT_MS,
    /** Unset in local mode: the server's own URL. */
    publicUrl: e.TOPUP_PUBLIC_URL ?? e.PUBLIC_URL,
    maxRupees: e.TOPUP_MAX_AMOUNT,
    dailyCapRupees: e.TOPUP_DAILY_CAP,
    lookupIntervalMs: e.TOPUP_LOOKUP_INTERVAL_MS,
    refundWatchMs: e.TOPUP_REFUND_WATCH_MS,
    refundCheckMs: e.TOPUP_REFUND_CHECK_MS,
  };
}
