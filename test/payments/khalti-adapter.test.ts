import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import { listen } from "../../src/http/listen.ts";
import { createKhaltiGateway, GatewayError } from "../../src/payments/index.ts";
import { serveKhaltiStandIn } from "../support/khalti.ts";

/**
 * The Khalti adapter against the stand-in over loopback (documented fields and errors) and against
 * a misbehaving server (bad answers, slow answers): every failure is a typed GatewayError that never
 * carries the secret key.
 */
/** Khalti's status words as another casing or spacing may bring them, and what they mean. */
const CASED: Array<[string, string]> = [
  ["Partially refunded", "partially_refunded"],
  ["partially  Refunded", "partially_refunded"],
  ["COMPLETED", "completed"],
  [" pending ", "pending"],
  ["User Canceled", "cancelled"],
  ["refunded", "refunded"],
  ["expired", "expired"],
  ["initiated", "initiated"],
];

describe("Khalti adapter", () => {
  let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
  let odd: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    khalti = await serveKhaltiStandIn();
    const app = new Hono();
    app.post("/echo/epayment/initiate/", (c) =>
      c.json({ detail: `bad key ${c.req.header("authorization")}` }, 401),
    );
    app.post("/junk/epayment/lookup/", (c) => c.json({ pidx: "x", status: "Paid?" }));
    app.post("/slow/epayment/lookup/", async (c) => {
      await new Promise((r) => setTimeout(r, 1000));
      return c.json({});
    });
    // Khalti's words in another casing or spacing (review s22, note 5).
    app.post("/cased/:i/epayment/lookup/", async (c) => {
      const { pidx } = await c.req.json<{ pidx: string }>();
      const status = CASED[Number(c.req.param("i"))]?.[0] ?? "";
      return c.json({ pidx, total_amount: 50_000, status, transaction_id: "T1", fee: 0 });
    });
    app.post("/html/epayment/lookup/", (c) => c.html("<h1>502</h1>", 502));
    // A word Khalti does not document, with bytes an admin's chat should not get as they are.
    app.post("/odd-word/epayment/lookup/", async (c) => {
      const { pidx } = await c.req.json<{ pidx: string }>();
      const status = `Stäged\u0000 ${"x".repeat(80)}`;
      return c.json({ pidx, total_amount: 50_000, status, transaction_id: null, fee: 0 });
    });
    odd = await listen(app.fetch, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await khalti.close();
    await odd.close();
  });
  const gw = (baseUrl: string, secretKey = STANDIN_SECRET_KEY, timeoutMs = 2000) =>
    createKhaltiGateway({ baseUrl, secretKey, timeoutMs });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  };
  const req = {
    amountPaisa: 50_000,
    purchaseOrderId: "TU0001",
    purchaseOrderName: "Balance top-up",
    returnUrl: "http://127.0.0.1:9/pay/khalti/return",
    websiteUrl: "http://127.0.0.1:9",
  };

  it("initiates and looks up with the documented fields", async () => {
    const g = gw(khalti.apiUrl);
    const c = await g.initiate(req);
    expect(c.paymentUrl).toBe(`${khalti.url}/pay?pidx=${c.paymentId}`);
    expect(c.expiresAt).toBeGreaterThan(Date.now());
    expect(await g.lookup(c.paymentId)).toEqual({
      paymentId: c.paymentId,
      status: "initiated",
      totalPaisa: 50_000,
      transactionId: null,
      feePaisa: 0,
      refunded: false,
    });
    khalti.standIn.act(c.paymentId, "pay");
    expect(await g.lookup(c.paymentId)).toMatchObject({ status: "completed", feePaisa: 1_500 });
    // Expired and cancelled come back as HTTP 400 with the lookup's fields, as Khalti answers them.
    const d = await g.initiate({ ...req, purchaseOrderId: "TU0002" });
    khalti.standIn.act(d.paymentId, "cancel");
    expect((await g.lookup(d.paymentId)).status).toBe("cancelled");
    await g.close();
  });

  it("Khalti's refusals: below Rs 10 (400, field-keyed), a bad key (401), an unknown pidx (404)", async () => {
    const g = gw(khalti.apiUrl);
    const below = await failure(g.initiate({ ...req, amountPaisa: 999 }));
    expect(below.kind).toBe("refused");
    expect(below.detail).toContain("amount");
    expect(
      (await failure(gw(khalti.apiUrl, "wrong_key_123456").lookup("AAAAAAAAAAAAAAAAAAAAAA"))).kind,
    ).toBe("refused");
    expect((await failure(g.lookup("AAAAAAAAAAAAAAAAAAAAAA"))).kind).toBe("not_found");
    await g.close();
  });

  it("5xx, junk, slow and echoing servers: typed failures, transient where a retry can help, no secret", async () => {
    khalti.standIn.setFaults({ lookup5xx: 1 });
    const g = gw(khalti.apiUrl);
    const five = await failure(g.lookup("AAAAAAAAAAAAAAAAAAAAAA"));
    expect([five.kind, five.transient]).toEqual(["server", true]);
    const html = await failure(gw(`${odd.url}/html`).lookup("AAAAAAAAAAAAAAAAAAAAAA"));
    expect(html.transient).toBe(true);
    expect((await failure(gw(`${odd.url}/junk`).lookup("AAAAAAAAAAAAAAAAAAAAAA"))).transient).toBe(
      false,
    );
    const slow = await failure(
      gw(`${odd.url}/slow`, STANDIN_SECRET_KEY, 200).lookup("AAAAAAAAAAAAAAAAAAAAAA"),
    );
    expect([slow.kind, slow.transient]).toEqual(["timeout", true]);
    const echo = await failure(gw(`${odd.url}/echo`, "echoed_secret_key_42").initiate(req));
    expect(echo.message).not.toContain("echoed_secret_key_42");
    expect(echo.message).toContain("[redacted]");
    await g.close();
  });

  // Before, a word not documented failed the lookup (refused) and the top-up was looked up for
  // ever with nobody told; now it is `unknown` (the service holds it), its word cut and printable.
  it("reads a status word Khalti does not document as unknown, with the word for the admins", async () => {
    const g = gw(`${odd.url}/odd-word`);
    const l = await g.lookup("AAAAAAAAAAAAAAAAAAAAAA");
    expect(l.status).toBe("unknown");
    expect(l.statusWord).toMatch(/^St\?ged\? x+$/);
    expect(l.statusWord).toHaveLength(40);
    await g.close();
  });

  // Review s22, note 5: one casing off ("Partially refunded") failed every lookup, so a partial
  // refund of a completed top-up was never seen. Fails on the code before: a refused GatewayError.
  it("reads Khalti's status words whatever their casing and spacing", async () => {
    for (const [i, [word, status]] of CASED.entries()) {
      const g = gw(`${odd.url}/cased/${i}`);
      expect((await g.lookup("AAAAAAAAAAAAAAAAAAAAAA")).status, word).toBe(status);
      await g.close();
    }
  });
});
