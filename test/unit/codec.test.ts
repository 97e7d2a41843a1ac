import { createCipheriv, createDecipheriv, createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cipherKey,
  decryptPayload,
  encryptPayload,
  isBase64,
  signature,
  verifySignature,
  WebhookDecodeError,
} from "../../src/webhook/codec.ts";

const SECRET = "my-webhook-secret";

/** Independent reimplementation with node:crypto, following provider-notes.md to the letter. */
function phpKey(secret: string): Buffer {
  const k = Buffer.alloc(32);
  Buffer.from(secret).copy(k, 0, 0, 32);
  return k;
}

describe("webhook signature", () => {
  it("is hex HMAC-SHA256 keyed with the secret over the hex SHA-256 of the secret", () => {
    const expected = createHmac("sha256", SECRET)
      .update(createHash("sha256").update(SECRET).digest("hex"))
      .digest("hex");
    expect(signature(SECRET)).toBe(expected);
    expect(signature(SECRET)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("verifies only the matching signature", () => {
    expect(verifySignature(SECRET, signature(SECRET))).toBe(true);
    expect(verifySignature(SECRET, signature(SECRET).toUpperCase())).toBe(true);
    expect(verifySignature(SECRET, signature("other"))).toBe(false);
    expect(verifySignature(SECRET, signature(SECRET).slice(1))).toBe(false);
    expect(verifySignature(SECRET, "")).toBe(false);
    expect(verifySignature(SECRET, undefined)).toBe(false);
  });
});

describe("webhook AES-256-CBC codec", () => {
  const payload = { status: "success", transaction_id: "123", order_id: "456", amount: 100 };

  it("encrypts exactly as PHP openssl_encrypt with a NUL-padded key (fixed IV vector)", () => {
    const iv = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
    const c = createCipheriv("aes-256-cbc", phpKey(SECRET), iv);
    const expected = Buffer.concat([iv, c.update(JSON.stringify(payload)), c.final()]).toString(
      "base64",
    );
    expect(encryptPayload(SECRET, payload, { iv })).toBe(expected);
  });

  it("cuts a key longer than 32 bytes and supports the sha256 key mode", () => {
    const long = "k".repeat(40);
    expect(cipherKey(long, "php")).toEqual(Buffer.from("k".repeat(32)));
    expect(cipherKey(SECRET, "sha256")).toEqual(createHash("sha256").update(SECRET).digest());
  });

  it("decrypts what an independent encrypter produced, raw or Base64 ciphertext", () => {
    const iv = Buffer.alloc(16, 7);
    const c = createCipheriv("aes-256-cbc", phpKey(SECRET), iv);
    const raw = Buffer.concat([c.update(JSON.stringify(payload)), c.final()]);
    const rawData = Buffer.concat([iv, raw]).toString("base64");
    const b64Data = Buffer.concat([iv, Buffer.from(raw.toString("base64"))]).toString("base64");
    expect(JSON.parse(decryptPayload(SECRET, rawData))).toEqual(payload);
    expect(JSON.parse(decryptPayload(SECRET, b64Data))).toEqual(payload);
  });

  it("round-trips in both key modes, and the wrong mode fails", () => {
    for (const mode of ["php", "sha256"] as const) {
      const data = encryptPayload(SECRET, payload, { mode });
      expect(JSON.parse(decryptPayload(SECRET, data, mode))).toEqual(payload);
    }
    const data = encryptPayload(SECRET, payload, { mode: "sha256" });
    expect(() => {
      const text = decryptPayload(SECRET, data, "php");
      JSON.parse(text);
    }).toThrow();
  });

  it("rejects non-Base64, short and truncated data with a WebhookDecodeError", () => {
    const good = encryptPayload(SECRET, payload);
    for (const bad of ["", "!!!", "AAAA", good.slice(0, 30), `${good.slice(0, -8)}`]) {
      expect(() => decryptPayload(SECRET, bad)).toThrow(WebhookDecodeError);
    }
  });

  it("property: never throws anything but WebhookDecodeError on random input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.base64String(),
          fc.uint8Array().map((b) => Buffer.from(b).toString("base64")),
        ),
        (s) => {
          try {
            decryptPayload(SECRET, s);
          } catch (e) {
            expect(e).toBeInstanceOf(WebhookDecodeError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("property: decrypt(encrypt(x)) = x for any JSON object and secret", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.dictionary(fc.string(), fc.string()),
        fc.boolean(),
        (secret, obj, b64) => {
          const data = encryptPayload(secret, obj, { base64Ciphertext: b64 });
          const d = createDecipheriv(
            "aes-256-cbc",
            phpKey(secret),
            Buffer.from(data, "base64").subarray(0, 16),
          );
          expect(d).toBeDefined();
          expect(JSON.parse(decryptPayload(secret, data))).toEqual(obj);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("isBase64", () => {
  const REGEX = /^[A-Za-z0-9+/]+={0,2}$/;
  it("accepts exactly what /^[A-Za-z0-9+/]+={0,2}$/ accepts", () => {
    for (const t of [
      "",
      "=",
      "==",
      "A",
      "A=",
      "A==",
      "A===",
      "==A",
      "A=A",
      "AB/+",
      "Zz09",
      "-_",
      "A B",
      "é",
    ]) {
      expect(isBase64(t), JSON.stringify(t)).toBe(REGEX.test(t));
    }
    const chars = fc.constantFrom(..."Aaz09+/=-_ \n.".split(""));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 12 }), (list) => {
        const t = list.join("");
        expect(isBase64(t)).toBe(REGEX.test(t));
      }),
      { numRuns: 5_000 },
    );
  });
});
