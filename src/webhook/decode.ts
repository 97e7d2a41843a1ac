import type { KeyObject } from "node:crypto";
import { decryptWithKey } from "./codec.ts";
import { parseWebhookPayload, type WebhookPayload } from "./payload.ts";

/**
 * Verify and decode a POSTed event: X-Signature in constant time BEFORE any decryption, then the
 * JSON envelope, Base64/IV/AES-256-CBC, the zod payload. After the signature every failure is the
 * one reason "invalid": telling padding from payload errors apart anywhere an attacker may see it
 * (an answer, a metrics page, a log shipper) is a padding oracle.
 */

/** `data` of the envelope `{"data": "<Base64>"}`, or null. */
export function envelopeData(body: string): string | null {
  try {
    const json = JSON.parse(body) as unknown;
    if (json && typeof json === "object" && !Array.isArray(json)) {
      const data = (json as Record<string, unknown>).data;
      if (typeof data === "string" && data.length > 0) return data;
    }
  } catch {
    // falls through to null
  }
  return null;
}

export interface WebhookDecoder {
  /** Checks X-Signature in constant time (codec.ts signatureVerifier). */
  signatureOk: (header: string | undefined) => boolean;
  /** The AES key derived from the secret (codec.ts decryptionKey). */
  key: KeyObject;
  timestampUtcOffsetMinutes: number | undefined;
}

export type Decoded =
  | { ok: true; payload: WebhookPayload }
  | { ok: false; reason: "signature" | "invalid" };

export function decodeWebhook(
  d: WebhookDecoder,
  signature: string | undefined,
  body: string,
): Decoded {
  if (!d.signatureOk(signature)) return { ok: false, reason: "signature" };
  const data = envelopeData(body);
  if (data === null) return { ok: false, reason: "invalid" };
  let plaintext: string;
  try {
    plaintext = decryptWithKey(d.key, data);
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const payload = parseWebhookPayload(plaintext, d.timestampUtcOffsetMinutes);
  return payload ? { ok: true, payload } : { ok: false, reason: "invalid" };
}
