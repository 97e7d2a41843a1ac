import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

/**
 * The aggregator's webhook crypto (spec 6.2, provider-notes "Webhooks"). Pure functions, shared by
 * the receiver (verify + decrypt) and the sandbox (sign + encrypt).
 */

export type KeyMode = "php" | "sha256";

/**
 * The AES-256 key from the secret. `php`: PHP's openssl_encrypt NUL-pads a short key and cuts a long
 * one to 32 bytes. `sha256`: the SHA-256 digest of the secret, for providers configured that way.
 */
export function cipherKey(secret: string, mode: KeyMode): Buffer {
  if (mode === "sha256") return createHash("sha256").update(secret, "utf8").digest();
  const key = Buffer.alloc(32);
  Buffer.from(secret, "utf8").copy(key, 0, 0, 32);
  return key;
}

/**
 * The AES key as a KeyObject, made once per secret: on Node 24 a decipher made from a raw Buffer
 * key builds a key object on every call, about 25 µs of a webhook's ~35 (issue 31, target 8).
 */
export function decryptionKey(secret: string, mode: KeyMode): KeyObject {
  return createSecretKey(cipherKey(secret, mode));
}

/**
 * hex(HMAC-SHA256(key = secret, message = hex(SHA-256(secret)))). It depends on the secret alone,
 * so it authenticates the sender, not the body.
 */
export function signature(secret: string): string {
  const digestHex = createHash("sha256").update(secret, "utf8").digest("hex");
  return createHmac("sha256", secret).update(digestHex, "utf8").digest("hex");
}

/**
 * A checker of received X-Signature values, the expected value computed once (it depends on the
 * secret alone). Constant-time comparison, length checked first.
 */
export function signatureVerifier(
  secret: string,
): (received: string | undefined | null) => boolean {
  const expected = Buffer.from(signature(secret), "utf8");
  return (received) => {
    if (typeof received !== "string") return false;
    const got = Buffer.from(received.trim().toLowerCase(), "utf8");
    if (got.length !== expected.length) return false;
    return timingSafeEqual(got, expected);
  };
}

/** One-off form of signatureVerifier. */
export function verifySignature(secret: string, received: string | undefined | null): boolean {
  return signatureVerifier(secret)(received);
}

export interface EncryptOptions {
  mode?: KeyMode;
  /** Fixed IV for test vectors; random otherwise. */
  iv?: Buffer;
  /** PHP flag 0: the ciphertext after the IV is itself Base64 text instead of raw bytes. */
  base64Ciphertext?: boolean;
}

/** Encrypts a payload object to the `data` field of a webhook body: Base64(IV ‖ ciphertext). */
export function encryptPayload(
  secret: string,
  payload: unknown,
  opts: EncryptOptions = {},
): string {
  const iv = opts.iv ?? randomBytes(16);
  if (iv.length !== 16) throw new Error("IV must be 16 bytes");
  const cipher = createCipheriv("aes-256-cbc", cipherKey(secret, opts.mode ?? "php"), iv);
  const raw = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  const body = opts.base64Ciphertext ? Buffer.from(raw.toString("base64"), "utf8") : raw;
  return Buffer.concat([iv, body]).toString("base64");
}

export class WebhookDecodeError extends Error {
  constructor(readonly reason: string) {
    super(`webhook payload rejected: ${reason}`);
    this.name = "WebhookDecodeError";
  }
}

/** A-Z, a-z, 0-9, + and /. */
function isBase64Char(c: number): boolean {
  return (
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47
  );
}

/**
 * /^[A-Za-z0-9+/]+={0,2}$/ written as a loop: the regex on a webhook's ~300 characters cost about
 * a sixth of the decryption (test/unit/codec.test.ts compares the two).
 */
export function isBase64(text: string): boolean {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (end === 0) return false;
  for (let i = 0; i < end; i++) if (!isBase64Char(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Decrypts the `data` field to the plaintext JSON text. Accepts ciphertext after the IV as raw bytes
 * or as Base64 text (provider-notes). Throws WebhookDecodeError with an internal reason; callers must
 * not reveal the reason to the sender (no padding oracle).
 */
export function decryptPayload(secret: string, data: string, mode: KeyMode = "php"): string {
  return decryptWithKey(decryptionKey(secret, mode), data);
}

/** decryptPayload with the key already derived (the receiver derives it once per secret). */
export function decryptWithKey(key: KeyObject, data: string): string {
  const compact = data.replace(/\s+/g, "");
  if (compact.length === 0 || compact.length % 4 !== 0 || !isBase64(compact)) {
    throw new WebhookDecodeError("data is not Base64");
  }
  const bytes = Buffer.from(compact, "base64");
  if (bytes.length < 32) throw new WebhookDecodeError("too short for IV and one block");
  const iv = bytes.subarray(0, 16);
  const rest = bytes.subarray(16);
  const attempt = (ct: Buffer): string | undefined => {
    if (ct.length === 0 || ct.length % 16 !== 0) return undefined;
    try {
      const d = createDecipheriv("aes-256-cbc", key, iv);
      return Buffer.concat([d.update(ct), d.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  };
  // PHP flag 0 carries the ciphertext as Base64 text. Raw ciphertext made only of Base64 characters
  // is vanishingly unlikely (< 2^-32 for one block), so text that is Base64 is read as Base64 first.
  const text = rest.toString("latin1");
  const isBase64Text = text.length % 4 === 0 && isBase64(text);
  let plain = isBase64Text ? attempt(Buffer.from(text, "base64")) : undefined;
  if (plain === undefined) plain = attempt(rest);
  if (plain === undefined) throw new WebhookDecodeError("decryption failed");
  return plain;
}
