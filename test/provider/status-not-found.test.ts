import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createProviderClient,
  type ProviderClient,
  ProviderMalformedResponseError,
  ProviderNotFoundError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from "../../src/provider/index.ts";
import {
  type FakeProvider,
  type Reply,
  recordingSleep,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";

/**
 * "No such order" is believed only from the status endpoints' own error body (spec 7, shape B):
 * the reconciler fails a debited order on it. Whatever else answers a status query (a gateway's
 * HTML 404, an empty body, JSON of another shape) is transient and must never read as not found.
 */

const STATUS = "/np/order/status";
let provider: FakeProvider;
let client: ProviderClient;
let waits: number[];

beforeAll(async () => {
  provider = await startFakeProvider();
  const sleeper = recordingSleep();
  waits = sleeper.waits;
  client = createProviderClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    sleep: sleeper.sleep,
    maxRetries: 2,
  });
});
afterEach(() => {
  provider.requests.length = 0;
  waits.length = 0;
});
afterAll(async () => {
  await client.close();
  await provider.close();
});

async function statusFailure(reply: Reply): Promise<unknown> {
  provider.on("POST", STATUS, reply);
  return client.statusByReference("np", "1001").then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
}

describe("a status query answered by someone other than the provider is transient", () => {
  const transient: Array<[string, Reply & { status: number }]> = [
    [
      "an HTML 404 from a gateway",
      { status: 404, text: "<html><body>404 Not Found</body></html>" },
    ],
    ["an empty 404", { status: 404, text: "", contentType: "application/json" }],
    ["a 404 in the lookups' shape A", { status: 404, json: { error: true, message: "Not found" } }],
    [
      "a 404 of shape B with data",
      { status: 404, json: { status: false, message: "Not found", data: { a: 1 } } },
    ],
    ["a 404 of shape B without a message", { status: 404, json: { status: false, data: [] } }],
    ["a 400 HTML page", { status: 400, text: "<html>Bad Request</html>" }],
  ];
  for (const [name, reply] of transient) {
    it(`${name}: ProviderUnavailableError, retried, never "not found"`, async () => {
      const error = await statusFailure(reply);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error).not.toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderUnavailableError).retryable).toBe(true);
      expect((error as ProviderUnavailableError).httpStatus).toBe(reply.status);
      expect(provider.received("POST", STATUS)).toHaveLength(3); // 1 + maxRetries
    });
  }

  it("a 2xx error body in another shape is malformed, not a rejection", async () => {
    const error = await statusFailure({ json: { error: true, message: "Transaction not found" } });
    expect(error).toBeInstanceOf(ProviderMalformedResponseError);
    expect(error).not.toBeInstanceOf(ProviderRejectedError);
  });
});

describe("the provider's own error body", () => {
  it("404 in shape B is ProviderNotFoundError (a rejection, not retried)", async () => {
    const error = await statusFailure({
      status: 404,
      json: { status: false, message: "Transaction not found", data: [] },
    });
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error).toMatchObject({ kind: "rejected", httpStatus: 404 });
    expect((error as ProviderNotFoundError).providerMessage).toBe("Transaction not found");
    expect(provider.received("POST", STATUS)).toHaveLength(1);
  });

  // Review s22, note 7: only a 4xx may say "no such order" (spec 7: 404 "resource does not
  // exist"); the reconciler fails a debited order on it. Fails on the code before: a 200 error
  // envelope whose message matched "not found" was ProviderNotFoundError.
  it("a shape-B body saying not found on 200 is a rejection, not 'not found'", async () => {
    for (const status of ["failed", false]) {
      const error = await statusFailure({
        json: { status, message: "No record found", data: [] },
      });
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error).not.toBeInstanceOf(ProviderNotFoundError);
    }
  });

  it("a 5xx in shape B saying not found is an unknown outcome, retried, never 'not found'", async () => {
    for (const status of [500, 502, 503, 504]) {
      provider.requests.length = 0;
      const error = await statusFailure({
        status,
        json: { status: false, message: "Transaction not found", data: [] },
      });
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error).not.toBeInstanceOf(ProviderRejectedError);
      expect(provider.received("POST", STATUS)).toHaveLength(3);
    }
  });

  it("a 400 in shape B saying not found is 'not found'", async () => {
    const error = await statusFailure({
      status: 400,
      json: { status: "failed", message: "No record found", data: [] },
    });
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(provider.received("POST", STATUS)).toHaveLength(1);
  });

  it("a shape-B refusal that says something else is a rejection, not 'not found'", async () => {
    const error = await statusFailure({
      status: 400,
      json: { status: "failed", message: "order_id is required", data: [] },
    });
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error).not.toBeInstanceOf(ProviderNotFoundError);
    expect(provider.received("POST", STATUS)).toHaveLength(1);
  });

  it("holds for the status by transaction id too", async () => {
    provider.on("POST", "/in/service/status", { status: 404, text: "<html>Not Found</html>" });
    const error = await client.statusByTransaction("in", "77").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
  });
});
