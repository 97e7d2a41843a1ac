import { createCipheriv, createDecipheriv, createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../dev/sandbox/index.ts";
import {
  call,
  closedAfterEach,
  eventually,
  type Receiver,
  type RunningSandbox,
  SECRET,
  TOKEN,
} from "../support/sandbox.ts";

/**
 * Webhooks checked with an independent implementation (node:crypto here, not src/webhook/codec.ts):
 * key = the secret's bytes NUL-padded or cut to 32, signature = hex HMAC-SHA256(key = secret,
 * message = hex SHA-256(secret)), body {data: Base64(IV ‖ AES-256-CBC ciphertext)}.
 */

const started = closedAfterEach();

function phpKey(secret: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(secret, "utf8").copy(key, 0, 0, 32);
  return key;
}

function expectedSignature(secret: string): string {
  const message = createHash("sha256").update(secret).digest("hex");
  return createHmac("sha256", secret).update(message).digest("hex");
}

function decrypt(secret: string, data: string): Record<string, unknown> {
  const bytes = Buffer.from(data, "base64");
  const decipher = createDecipheriv("aes-256-cbc", phpKey(secret), bytes.subarray(0, 16));
  const plain = Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]);
  return JSON.parse(plain.toString("utf8"));
}

const mobile = (connectionNo: string, ref: number, amount = 100) => ({
  operator_id: 5,
  operator_type_id: 1,
  connection_no: connectionNo,
  reference_no: ref,
  amount,
});

async function withReceiver(
  secret = SECRET,
  extra: Partial<SandboxOptions> = {},
): Promise<{ run: RunningSandbox; receiver: Receiver }> {
  const receiver = await started.receiver();
  const run = await started.sandbox({
    accounts: [{ token: TOKEN, webhook: { url: receiver.url, secret } }],
    ...extra,
  });
  return { run, receiver };
}

function events(r: Receiver, secret = SECRET) {
  return r.received
    .filter((x) => x.method === "POST")
    .map((x) => decrypt(secret, JSON.parse(x.body).data));
}

describe("event delivery (spec 6.2)", () => {
  it("posts every status change, signed and encrypted as the spec and notes describe", async () => {
    const { run, receiver } = await withReceiver();
    const exec = await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", 11));
    expect(exec.status).toBe(200);
    await run.sandbox.settle();

    expect(receiver.received).toHaveLength(2);
    for (const req of receiver.received) {
      expect(req.method).toBe("POST");
      expect(req.headers["x-signature"]).toBe(expectedSignature(SECRET));
      expect(req.headers["x-signature"]).toMatch(/^[0-9a-f]{64}$/);
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers.accept).toBe("application/json");
      expect(Object.keys(JSON.parse(req.body))).toEqual(["data"]);
    }
    const payloads = events(receiver);
    expect(payloads.map((p) => p.status).sort()).toEqual(["pending", "success"]);
    const txId = (exec.json.data as { transaction_id: number }).transaction_id;
    for (const p of payloads) {
      expect(p).toMatchObject({
        transaction_id: txId,
        order_id: 11,
        amount: 100,
        details: { connection_no: "9841234567", operator: "NTC Prepaid" },
        package_name: null,
      });
      expect(p.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("cuts a secret longer than 32 bytes to 32 for the key, and signs with the whole secret", async () => {
    const long = "0123456789abcdefghijklmnopqrstuvwxyz-LONG";
    const { run, receiver } = await withReceiver(long);
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 12));
    await run.sandbox.settle();
    expect(receiver.received[0]?.headers["x-signature"]).toBe(expectedSignature(long));
    expect(events(receiver, long)).toEqual([expect.objectContaining({ status: "success" })]);
    // The key is the first 32 bytes only: a different tail gives the same key.
    expect(
      decrypt(`${long.slice(0, 32)}different`, JSON.parse(receiver.received[0]!.body).data),
    ).toMatchObject({ order_id: 12 });
  });

  it("matches a known vector byte for byte (fixed IV and clock)", async () => {
    const iv = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
    const now = Date.UTC(2024, 11, 21, 15, 18, 30);
    const { run, receiver } = await withReceiver(SECRET, {
      now: () => now,
      webhook: { iv: () => Buffer.from(iv) },
    });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 777));
    await run.sandbox.settle();
    const data: string = JSON.parse(receiver.received[0]!.body).data;

    const plaintext =
      '{"status":"success","transaction_id":1734794310001,"order_id":777,"amount":100,' +
      '"timestamp":"2024-12-21T15:18:30.000Z","details":{"connection_no":"9841238888",' +
      '"operator":"NTC Prepaid"},"package_name":null}';
    const cipher = createCipheriv("aes-256-cbc", phpKey(SECRET), iv);
    const expected = Buffer.concat([iv, cipher.update(plaintext, "utf8"), cipher.final()]);
    expect(data).toBe(expected.toString("base64"));
    // Computed once with the code above; catches a change on either side.
    expect(data).toBe(KNOWN_VECTOR);
  });

  it("retries a non-2xx answer with backoff and records every attempt", async () => {
    const { run, receiver } = await withReceiver(SECRET, {
      webhook: { backoffMs: 5, maxAttempts: 5 },
    });
    receiver.respond = (n, res) => {
      res.writeHead(n < 2 ? 503 : 200, { "content-type": "application/json" });
      res.end("{}");
    };
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 13));
    await run.sandbox.settle();
    const [d] = run.sandbox.deliveries(TOKEN);
    expect(d).toMatchObject({ kind: "event", state: "delivered", eventStatus: "success" });
    expect(d!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [503, "HTTP 503"],
      [503, "HTTP 503"],
      [200, null],
    ]);
    expect(d!.attempts.every((a) => /Z$/.test(a.at))).toBe(true);
    expect(receiver.received).toHaveLength(3);
    // The same body each time, as the event is one.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it("gives up after the bounded attempts; a timeout counts as a failed attempt", async () => {
    const { run, receiver } = await withReceiver(SECRET, {
      webhook: { backoffMs: 1, maxAttempts: 3, timeoutMs: 100 },
    });
    receiver.respond = (n, res) => {
      if (n === 0) return; // never answers: a timeout
      res.writeHead(500);
      res.end();
    };
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 14));
    await run.sandbox.settle();
    const [d] = run.sandbox.deliveries(TOKEN);
    expect(d!.state).toBe("failed");
    expect(d!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, "timeout"],
      [500, "HTTP 500"],
      [500, "HTTP 500"],
    ]);
  });
});

describe("connect (spec 6.1)", () => {
  it("sends a signed GET and records connected only for 200 with JSON", async () => {
    const receiver = await started.receiver();
    const run = await started.sandbox();
    const admin = { "x-admin-token": TOKEN };
    const set = await call(
      run.base,
      "PUT",
      "/_sandbox/webhook",
      { url: receiver.url, secret: SECRET },
      admin,
    );
    expect(set.json).toMatchObject({ data: { url: receiver.url, connected: false } });
    const ok = await call(run.base, "POST", "/_sandbox/webhook/connect", undefined, admin);
    expect(ok.json).toMatchObject({ data: { connected: true, attempt: { statusCode: 200 } } });
    expect(receiver.received[0]).toMatchObject({ method: "GET" });
    expect(receiver.received[0]!.headers["x-signature"]).toBe(expectedSignature(SECRET));
    expect(receiver.received[0]!.headers["content-type"]).toBe("application/json");
    expect(receiver.received[0]!.headers.accept).toBe("application/json");

    receiver.respond = (_n, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<p>ok</p>");
    };
    expect(await run.sandbox.connectWebhook(TOKEN)).toBe(false);
    expect(run.sandbox.summary(TOKEN).webhook).toMatchObject({ connected: false });
    const connects = run.sandbox.deliveries(TOKEN).filter((d) => d.kind === "connect");
    expect(connects.map((d) => d.attempts[0]?.error)).toEqual([null, "content-type text/html"]);
  });

  it("with requireConnect, sends events only after a successful connect", async () => {
    const { run, receiver } = await withReceiver(SECRET, { requireConnect: true });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 15));
    await run.sandbox.settle();
    expect(receiver.received).toHaveLength(0);
    expect(await run.sandbox.connectWebhook(TOKEN)).toBe(true);
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 16));
    await run.sandbox.settle();
    expect(events(receiver).map((p) => p.order_id)).toEqual([16]);
  });
});

describe("outcomes by test number", () => {
  it("fails a number ending in 0000 after pending, refunds the debit, and reports failed", async () => {
    const { run, receiver } = await withReceiver(SECRET, {
      delays: { toPendingMs: 60_000, toFinalMs: 60_000 },
    });
    const before = run.sandbox.balance(TOKEN);
    const exec = await call(
      run.base,
      "POST",
      "/np/recharge/execute",
      mobile("9841230000", 21, 500),
    );
    expect(exec.json).toMatchObject({ data: { status: "queued", credit_available: 99_500 } });
    expect(run.sandbox.balance(TOKEN)).toBe(before - 50_000);
    await run.sandbox.settle();
    expect(
      events(receiver)
        .map((p) => p.status)
        .sort(),
    ).toEqual(["failed", "pending"]);
    expect(run.sandbox.balance(TOKEN)).toBe(before);
    expect(run.sandbox.ledger(TOKEN)).toEqual([
      expect.objectContaining({
        referenceNo: "21",
        debitPaisa: 50_000,
        refundPaisa: 50_000,
        status: "failed",
      }),
    ]);
    const status = await call(run.base, "POST", "/np/order/status", { order_id: 21 });
    expect(status.json).toMatchObject({ data: { status: "failed", order_id: 21 } });
    expect(run.sandbox.transactions(TOKEN)[0]!.history.map((h) => h.status)).toEqual([
      "queued",
      "pending",
      "failed",
    ]);
  });

  it("holds a number ending in 9999 pending until a status query after the final delay", async () => {
    const { run, receiver } = await withReceiver();
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841239999", 22));
    await run.sandbox.settle();
    expect(events(receiver).map((p) => p.status)).toEqual(["pending"]);
    expect(run.sandbox.transactions(TOKEN)[0]!.status).toBe("pending");
    const status = await call(run.base, "POST", "/np/order/status", { order_id: 22 });
    expect(status.json).toMatchObject({ data: { status: "success" } });
    await run.sandbox.settle();
    expect(events(receiver).map((p) => p.status)).toEqual(["pending", "success"]);
  });

  it("moves queued -> pending -> success on its own timers (20 / 40 ms)", async () => {
    const { run, receiver } = await withReceiver();
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841234567", 25));
    await eventually(() => expect(events(receiver).map((p) => p.status)).toContain("success"));
    const status = await call(run.base, "POST", "/np/service/status", {
      transaction_id: Number(run.sandbox.transactions(TOKEN)[0]!.transactionId),
    });
    expect(status.json).toMatchObject({ error: false, data: { status: "success", order_id: 25 } });
    expect(run.sandbox.transactions(TOKEN)[0]!.history.map((h) => [h.status, h.by])).toEqual([
      ["queued", "execute"],
      ["pending", "timer"],
      ["success", "timer"],
    ]);
  });

  it("answers a held number pending when asked before the final delay", async () => {
    const { run } = await withReceiver(SECRET, { delays: { toPendingMs: 0, toFinalMs: 60_000 } });
    await call(run.base, "POST", "/np/recharge/execute", mobile("9841239999", 23));
    await eventually(() => expect(run.sandbox.transactions(TOKEN)[0]!.status).toBe("pending"));
    const status = await call(run.base, "POST", "/np/order/status", { order_id: 23 });
    expect(status.json).toMatchObject({ data: { status: "pending" } });
  });

  it("succeeds a number ending in 8888 in the execute response itself", async () => {
    const { run, receiver } = await withReceiver();
    const exec = await call(run.base, "POST", "/np/recharge/execute", mobile("9841238888", 24));
    expect(exec.json).toMatchObject({ error: false, data: { status: "success" } });
    await run.sandbox.settle();
    expect(events(receiver).map((p) => p.status)).toEqual(["success"]);
  });
});

/** Also reproduced with the OpenSSL command line (`openssl enc -aes-256-cbc -K <padded key hex> -iv 00..0f`). */
const KNOWN_VECTOR =
  "AAECAwQFBgcICQoLDA0ODxfuBold8HBk6IE4d+Sa2Me4Wm1BmCHtLPE1aEHC6NA0syegQqI4KJUknqEys7bap+cUz6Az8hFcGYdqUtE4XgD4m4obAOBR0+RbBh9JeLnGVUaDnV+3KImdvMLoWWUVcKnUwRhXLPTSol1r20nTplx3X8AIm8ocFopefyIsSSjFncdw3C4p4UBImOS/Y/pOrCSH1juQYMNVY+jb2IuRlr/g6SkbXKbzGjWHFAjGxR64dAANmJb6koAGP9+TjYejaDuOIxbBz761MY9ZDJ+3QEU=";
