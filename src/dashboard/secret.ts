import { createHash, randomBytes } from "node:crypto";

/**
 * Secrets of the back office (login tokens, session ids): 256 random bits, base64url, and stored
 * only as their SHA-256, so whoever reads Redis (a backup, a replica) holds nothing to log in with.
 */
export const SECRET_BYTES = 32;
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

/** A secret as we issue them (43 base64url characters); anything else is refused unread. */
export function isSecretShaped(value: unknown): value is string {
  return typeof value === "string" && SECRET_SHAPE.test(value);
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
