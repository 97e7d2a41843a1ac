import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { connect } from "node:net";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { cipherKey, encryptPayload, signature } from "../../src/webhook/codec.ts";
import { REJECTED_BODY, REJECTED_STATUS } from "../../src/webhook/routes.ts";
import { pool, report, secretNeedles, waitUntil } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { attachReceipt, mobileInput } from "../support/orders.ts";

/**
 * 100,000 fuzzed requests at the provider webhook, generated with fast-check: random bodies and
 * bytes, random and near-miss signatures (also on well-formed events for real open orders), broken
 * envelopes, Base64 with bad alphabets and paddings, IVs of every length, ciphertexts of every
 * length and padding, the right key with garbage or ill-shaped plaintext, another key, bodies up to
 * 100 KB. 95,000 go through the app in-process (app.request), 5,000 over real HTTP, plus raw
 * malformed HTTP on a socket. Nothing may crash or answer 5xx, no chat may get a message, no order
 * may change, no status query may leave, and every rejection must be byte-for-byte the same.
 */

const IN_PROCESS = 95_000;
const OVER_HTTP = 5_000;
const MAX_BODY = 64 * 1024;
const OPEN_ORDERS = 20;

type Fuzz = { kind: string; body: string | Uint8Array; headers: Record<string, string> };

describe("fuzzed provider webhooks", () => {
  // Webhooks are dropped, so the real orders stay open (queued) for the fuzzer to aim at.
  const stack = useChaosStack("fuzz-webhook", { provider: { faults: { dropWebhooks: true } } });
  const { secrets, logs } = stack;
  const realRefs: string[] = [];
  const realTx: string[] = [];

  beforeAll(async () => {
    // Only the webhook may move these orders during the fuzzing.
    await stack.app.reconciler.stop();
    for (let i = 0; i < OPEN_ORDERS; i++) {
      const user = 660_001 + i;
      stack.emu.emulator.users.upsert(user, {});
      const order = await stack.app.orders.place(
        mobileInput({
          idempotencyKey: `fz-${i}-${randomUUID()}`,
          userId: user,
          chatId: user,
          connectionNo: `98416600${String(i).padStart(2, "0")}`,
        }),
      );
      const receipt = await stack.app.bot.api.sendMessage(user, `🧾 Order ${order.reference}`);
      await attachReceipt(stack.app.orders, order.reference, receipt.message_id);
      const submitted = await stack.app.orders.submit(order.reference);
      realRefs.push(submitted.reference);
      if (submitted.transactionId) realTx.push(submitted.transactionId);
    }
    await waitUntil(async () => (await stack.app.queue.backlog()) === 0, "notifier idle");
  });

  /** AES-256-CBC of raw plaintext bytes (not JSON-encoded) with the given key and IV. */
  function encryptRaw(secret: string, plain: string | Uint8Array, iv = randomBytes(16)): string {
    const c = createCipheriv("aes-256-cbc", cipherKey(secret, "php"), iv);
    return Buffer.concat([iv, c.update(plain), c.final()]).toString("base64");
  }

  function arbitraries() {
    const secret = secrets.webhookSecret;
    const good = signature(secret);
    const ascii = fc.string({ unit: "grapheme-ascii", maxLength: 80 });
    const headerValue = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 100,
    });
    const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
    /** Signatures that are not the right one: random, near misses, another secret's. */
    const wrongSignature = fc.oneof(
      hex64.filter((s) => s !== good),
      fc.integer({ min: 0, max: 63 }).map((i) => {
        const c = good[i] === "0" ? "1" : "0";
        return good.slice(0, i) + c + good.slice(i + 1);
      }),
      fc.integer({ min: 0, max: 63 }).map((n) => good.slice(0, n)),
      headerValue.map((x) => `${good}${x.replace(/\s/g, "") || "0"}`),
      ascii.map((s) => signature(`${secret}${s}x`)),
      headerValue,
    );
    const headers = (sig: fc.Arbitrary<string | undefined>) =>
      fc
        .record({
          sig,
          type: fc.constantFrom(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "",
          ),
          extra: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,12}$/), headerValue, { maxKeys: 3 }),
        })
        .map(({ sig, type, extra }) => {
          const h: Record<string, string> = { ...extra };
          if (type) h["content-type"] = type;
          if (sig !== undefined) h["x-signature"] = sig;
          return h;
        });
    const withGood = headers(fc.constant(good));
    const withWrong = headers(fc.option(wrongSignature, { nil: undefined }));
    const statusWord = fc.constantFrom(
      "success",
      "failed",
      "pending",
      "queued",
      "SUCCESS",
      "refunded",
    );
    /** A well-formed event for one of the real open orders. */
    const realEvent = fc.record({
      status: statusWord,
      order_id: fc.constantFrom(...realRefs),
      transaction_id: realTx.length ? fc.constantFrom(...realTx) : fc.nat(),
      amount: fc.oneof(fc.constant(100), fc.constant("100.00")),
      timestamp: fc.constant(new Date().toISOString()),
    });
    const unknownId = fc.stringMatching(/^9{3}[0-9]{6,10}$/);
    /** Objects shaped almost like an event, with wrong types, missing or extra fields. */
    const oddShape = fc.record(
      {
        status: fc.oneof(
          statusWord,
          fc.anything(),
          fc.constant(""),
          fc.string({ minLength: 41, maxLength: 80 }),
        ),
        order_id: fc.oneof(
          unknownId,
          fc.anything(),
          fc.constant(""),
          fc.string({ minLength: 65, maxLength: 90 }),
        ),
        transaction_id: fc.oneof(unknownId, fc.anything(), fc.double()),
        amount: fc.anything(),
        timestamp: fc.anything(),
        details: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const base64Chars = fc.string({
      unit: fc.constantFrom(
        ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n",
      ),
      maxLength: 400,
    });
    const envelope = (data: fc.Arbitrary<unknown>) => data.map((d) => JSON.stringify({ data: d }));
    const bytes = (max: number) => fc.uint8Array({ maxLength: max });

    const fuzz: Array<{ weight: number; arbitrary: fc.Arbitrary<Fuzz> }> = [
      // Anything at all, with or without a near-miss signature.
      {
        weight: 12,
        arbitrary: fc
          .tuple(
            fc.oneof(
              fc.string({ maxLength: 300 }),
              fc.string({ unit: "binary", maxLength: 300 }),
              bytes(600),
              fc.json({ maxDepth: 4 }),
            ),
            fc.oneof(withWrong, withGood),
          )
          .map(([body, h]) => ({ kind: "random body", body, headers: h })),
      },
      // A well-formed event for a real open order, encrypted with the right key, WITHOUT the right
      // signature: must change nothing and query nothing.
      {
        weight: 18,
        arbitrary: fc.tuple(realEvent, withWrong).map(([event, h]) => ({
          kind: "real event, bad signature",
          body: JSON.stringify({ data: encryptPayload(secret, event) }),
          headers: h,
        })),
      },
      // The right signature on broken envelopes.
      {
        weight: 10,
        arbitrary: fc
          .tuple(
            fc.oneof(
              fc.json({ maxDepth: 3 }),
              envelope(fc.anything()),
              envelope(fc.constant("")),
              fc.anything().map((x) => JSON.stringify([x])),
              ascii.map((s) => `{"data":"${s}`),
            ),
            withGood,
          )
          .map(([body, h]) => ({ kind: "bad envelope", body, headers: h })),
      },
      // Base64 that is not: wrong alphabet, padding, whitespace, lengths.
      {
        weight: 14,
        arbitrary: fc
          .tuple(envelope(base64Chars), withGood)
          .map(([body, h]) => ({ kind: "bad base64", body, headers: h })),
      },
      // Valid Base64 of IVs and ciphertexts of every length, random padding bytes.
      {
        weight: 14,
        arbitrary: fc
          .tuple(bytes(40), bytes(96), fc.boolean(), withGood)
          .map(([iv, ct, aligned, h]) => {
            const body = aligned ? ct.subarray(0, ct.length - (ct.length % 16)) : ct;
            return {
              kind: "bad IV or ciphertext",
              body: JSON.stringify({ data: Buffer.concat([iv, body]).toString("base64") }),
              headers: h,
            };
          }),
      },
      // A real event encrypted with another key (right signature): never decrypts to an event.
      {
        weight: 10,
        arbitrary: fc.tuple(realEvent, ascii, withGood).map(([event, other, h]) => ({
          kind: "another key",
          body: JSON.stringify({ data: encryptPayload(`${secret}|${other}`, event) }),
          headers: h,
        })),
      },
      // The right key and signature on garbage or ill-shaped plaintext (unknown ids only).
      {
        weight: 14,
        arbitrary: fc
          .tuple(
            fc.oneof(
              fc.string({ maxLength: 200 }),
              bytes(200),
              fc.json({ maxDepth: 3 }),
              oddShape.map((o) => JSON.stringify(o)),
            ),
            withGood,
          )
          .map(([plain, h]) => ({
            kind: "bad plaintext",
            body: JSON.stringify({ data: encryptRaw(secret, plain) }),
            headers: h,
          })),
      },
      // Sizes around and above the limit.
      {
        weight: 8,
        arbitrary: fc
          .tuple(
            fc.integer({ min: 1, max: 100 * 1024 }),
            fc.constantFrom("A", "{", "é", "="),
            fc.oneof(withGood, withWrong),
          )
          .map(([n, ch, h]) => ({
            kind: "size",
            body: JSON.stringify({ data: ch.repeat(n) }),
            headers: h,
          })),
      },
    ];
    return fc.oneof(...fuzz);
  }

  it("answers 100,000 fuzzed requests with one constant rejection, changing nothing", async () => {
    const ordersBefore = await stack.app.orders.listByUser(660_001, 5);
    expect(ordersBefore[0]?.status).toBe("queued");
    const snapshot = JSON.stringify(
      await Promise.all(realRefs.map((r) => stack.app.orders.get(r))),
    );
    const statsBefore = stack.emu.emulator.stats();
    const queriesBefore = stack.provider.total(stack.provider.statusQueries);
    const unmatchedBefore = (await stack.app.orders.listUnmatched(1000)).length;

    const statuses: Record<string, number> = {};
    const byKind: Record<string, Record<string, number>> = {};
    const rejections = new Set<string>();
    const oversized = new Set<string>();
    const accepted: string[] = [];
    const sizeOf = (b: string | Uint8Array) =>
      typeof b === "string" ? Buffer.byteLength(b) : b.byteLength;
    const record = async (f: Fuzz, res: Response) => {
      const text = await res.text();
      const key = `${res.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      const k = byKind[f.kind] ?? {};
      k[key] = (k[key] ?? 0) + 1;
      byKind[f.kind] = k;
      const shape = `${res.status} ${res.headers.get("content-type")} ${text}`;
      if (res.status === REJECTED_STATUS) rejections.add(shape);
      else if (res.status === 413) {
        oversized.add(shape);
        expect(sizeOf(f.body)).toBeGreaterThan(MAX_BODY);
      } else if (res.status === 200) accepted.push(f.kind);
    };

    const gen = arbitraries();
    const t0 = Date.now();
    const chunk = 5_000;
    for (let done = 0; done < IN_PROCESS; done += chunk) {
      const batch = fc.sample(gen, { numRuns: chunk, seed: 1_000 + done });
      await pool(batch, 8, async (f) => {
        const res = await stack.app.app.request("/webhooks/provider", {
          method: "POST",
          headers: f.headers,
          body: f.body,
        });
        await record(f, res);
      });
    }
    const inProcessMs = Date.now() - t0;
    const t1 = Date.now();
    await pool(fc.sample(gen, { numRuns: OVER_HTTP, seed: 77 }), 16, async (f) => {
      const res = await fetch(`${stack.app.url}/webhooks/provider`, {
        method: "POST",
        headers: f.headers,
        body: f.body,
      });
      await record(f, res);
    });
    const httpMs = Date.now() - t1;

    // Malformed HTTP on a raw socket: the server must shrug it off.
    const rawPayloads = fc.sample(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
        fc
          .nat({ max: 5000 })
          .map((n) =>
            Buffer.from(
              `POST /webhooks/provider HTTP/1.1\r\nHost: x\r\nContent-Length: ${n + 10}\r\n\r\n${"a".repeat(n)}`,
            ),
          ),
        fc
          .string({ maxLength: 50 })
          .map((s) =>
            Buffer.from(
              `POST /webhooks/provider HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${s}\r\n`,
            ),
          ),
        fc
          .nat({ max: 200 })
          .map((n) =>
            Buffer.from(
              `POST /webhooks/provider HTTP/1.1\r\n${"X-A: b\r\n".repeat(n)}Content-Length: 2\r\n\r\n{}`,
            ),
          ),
      ),
      { numRuns: 300, seed: 5 },
    );
    await pool(
      rawPayloads,
      10,
      (payload) =>
        new Promise<void>((resolve) => {
          const socket = connect(stack.app.port, "127.0.0.1", () => {
            socket.end(payload);
          });
          socket.setTimeout(2_000, () => socket.destroy());
          socket.on("data", () => undefined);
          socket.on("error", () => resolve());
          socket.on("close", () => resolve());
        }),
    );
    const health = await fetch(`${stack.app.url}/healthz`);

    await stack.app.webhook.settled();
    await new Promise((r) => setTimeout(r, 500));
    const statsAfter = stack.emu.emulator.stats();
    const snapshotAfter = JSON.stringify(
      await Promise.all(realRefs.map((r) => stack.app.orders.get(r))),
    );
    const unmatchedAfter = (await stack.app.orders.listUnmatched(1000)).length;
    const fiveXX = Object.entries(statuses).filter(([s]) => s.startsWith("5"));
    const scan = logs.scan(secretNeedles(secrets));
    report("fuzzed provider webhooks", {
      "requests in-process (stack.app.request)": IN_PROCESS,
      "requests over HTTP": OVER_HTTP,
      "raw malformed HTTP on a socket": rawPayloads.length,
      "time in-process / HTTP (ms)": `${inProcessMs} / ${httpMs}`,
      "answers by status": statuses,
      "answers by kind": byKind,
      "distinct rejection answers (status, type, body)": rejections.size,
      "distinct too-large answers (body > 64 KiB)": oversized.size,
      "accepted (well-formed by chance, unknown order: kept for an admin)": accepted.length,
      "5xx": fiveXX.length,
      "chat messages sent / edited during fuzzing": `${statsAfter.messagesSent - statsBefore.messagesSent} / ${statsAfter.edits - statsBefore.edits}`,
      "status queries during fuzzing":
        stack.provider.total(stack.provider.statusQueries) - queriesBefore,
      "orders changed": snapshotAfter === snapshot ? 0 : "some",
      "unmatched events recorded": unmatchedAfter - unmatchedBefore,
      "healthz after": health.status,
      "error log lines": logs.errors().length,
      ...secretFigures(scan),
    });
    expect(fiveXX).toEqual([]);
    expect([...rejections]).toEqual([
      `${REJECTED_STATUS} application/json ${JSON.stringify(REJECTED_BODY)}`,
    ]);
    expect(oversized.size).toBeLessThanOrEqual(1);
    expect(accepted.every((k) => k === "bad plaintext")).toBe(true);
    expect(statsAfter.messagesSent).toBe(statsBefore.messagesSent);
    expect(statsAfter.edits).toBe(statsBefore.edits);
    expect(stack.provider.total(stack.provider.statusQueries)).toBe(queriesBefore);
    expect(snapshotAfter).toBe(snapshot);
    expect(health.status).toBe(200);
    expect(logs.errors()).toEqual([]);
    expect(scan.leaks).toEqual([]);
  });
});
