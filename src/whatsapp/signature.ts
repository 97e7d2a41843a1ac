import { createHmac, timingSafeEqual } from "node:crypto";

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Whether `X-Hub-Signature-256` (`sha256=<hex>`) is Meta's HMAC-SHA256 of these exact bytes under
 * the app secret. Over the bytes as received, never a re-serialisation: Meta escapes non-ASCII as
 * \uXXXX, and re-encoded JSON would differ on every Devanagari name (whatsapp-notes.md §1).
 * Constant time: the lengths are equal by construction before timingSafeEqual compares.
 */
export function verifySignature(
  appSecret: string,
  rawBytes: Uint8Array,
  header: string | undefined,
): boolean {
  if (!appSecret || typeof header !== "string") return false;
  const hex = HEADER.exec(header.trim())?.[1];
  if (!hex) return false;
  const given = Buffer.from(hex, "hex");
  const expected = createHmac("sha256", appSecret).update(rawBytes).digest();
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** Two secrets compared in constant time (the verify token of the GET handshake). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  // Lengths differ: compare y with itself so the time does not depend on where they differ.
  if (x.length !== y.length) return timingSafeEqual(y, y) && false;
  return timingSafeEqual(x, y);
}
