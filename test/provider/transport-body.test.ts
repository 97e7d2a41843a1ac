import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProviderClient,
  ProviderMalformedResponseError,
  ProviderTimeoutError,
} from "../../src/provider/index.ts";

/**
 * The transport's own reading of a response, over real loopback HTTP with bodies sent in pieces:
 * the size cap, a body that stalls after the headers, UTF-8 split across chunks, and configured
 * paths that URL normalises (the dispatcher is called directly for plain paths only).
 */

const TOKEN = "tok_transport_body";
let server: ReturnType<typeof createServer>;
let baseUrl: string;
const seen: string[] = [];
let handle: (req: IncomingMessage, res: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? "");
    req.resume();
    req.on("end", () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ok = (data: unknown) => JSON.stringify({ error: false, message: "ok", data });

function client(extra: { maxResponseBytes?: number; lookupTimeoutMs?: number } = {}) {
  return createProviderClient({ baseUrl, token: TOKEN, maxRetries: 0, ...extra });
}

describe("response bodies read by the transport", () => {
  it("a chunked body past maxResponseBytes is malformed, not buffered to the end", async () => {
    handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"error":false,"data":{"credits_available":"1","pad":"`);
      for (let i = 0; i < 20; i++) res.write("x".repeat(1024));
      res.end(`"}}`);
    };
    const c = client({ maxResponseBytes: 4096 });
    try {
      const error = await c.walletBalance().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderMalformedResponseError);
      expect((error as Error).message).toContain("body larger than 4096 bytes");
    } finally {
      await c.close();
    }
  });

  it("a body that stalls after the headers times out", async () => {
    handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"error":false,`);
    };
    const c = client({ lookupTimeoutMs: 150 });
    try {
      const error = await c.walletBalance().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderTimeoutError);
    } finally {
      await c.close();
    }
  });

  it("UTF-8 split across chunks decodes whole", async () => {
    const body = Buffer.from(ok([{ value: "1", label: "नेपाल टेलिकम" }]), "utf8");
    const cut = body.indexOf(Buffer.from("नेपाल", "utf8")) + 1; // inside a multi-byte character
    handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 20);
    };
    const c = client();
    try {
      await expect(c.operators()).resolves.toEqual([{ value: "1", label: "नेपाल टेलिकम" }]);
    } finally {
      await c.close();
    }
  });

  it("configured paths reach the provider as before: plain ones as is, others as URL writes them", async () => {
    handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(ok([]));
    };
    const c = createProviderClient({
      baseUrl: `${baseUrl}/`,
      token: TOKEN,
      maxRetries: 0,
      paths: { operators: "/np/operators?kind=all", operatorTypes: "/np/operator types" },
    });
    try {
      seen.length = 0;
      await c.circles();
      await c.operators();
      await c.operatorTypes();
      expect(seen).toEqual([
        "/api/v1/in/circle",
        "/api/v1/np/operators?kind=all",
        "/api/v1/np/operator%20types",
      ]);
    } finally {
      await c.close();
    }
  });
});
