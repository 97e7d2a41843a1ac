import { afterEach, describe, expect, it } from "vitest";
import { headerOf } from "../../src/whatsapp/bot-api-fetch.ts";

/**
 * headerOf (src/whatsapp/bot-api-fetch.ts) reads a plain object of headers without building a
 * `Headers`: it must answer as `new Headers(headers).get(name)` does, throw where that throws,
 * and build one for grammY's own calls no more.
 */

type Init = RequestInit["headers"];

/** What the `Headers` path answers (or the error it throws). */
function viaHeaders(headers: Init, name: string): string | undefined | { threw: string } {
  try {
    return new Headers(headers).get(name) ?? undefined;
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

function viaHeaderOf(headers: Init, name: string): string | undefined | { threw: string } {
  try {
    return headerOf(headers, name);
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

const realHeaders = globalThis.Headers;
afterEach(() => {
  globalThis.Headers = realHeaders;
});

describe("headerOf", () => {
  const cases: Array<[string, Init]> = [
    // grammY's JSON call and its multipart upload (grammy/out/core/payload.js).
    ["json", { "content-type": "application/json", connection: "keep-alive" }],
    [
      "multipart",
      { "content-type": "multipart/form-data; boundary=abc", connection: "keep-alive" },
    ],
    ["mixed case", { "Content-Type": "application/json" }],
    ["absent", { connection: "keep-alive" }],
    ["empty value", { "content-type": "" }],
    ["two spellings", { "content-type": "a", "Content-Type": "b" }],
    ["padded", { "content-type": "  application/json\t" }],
    ["inner space", { "content-type": "text/plain; charset=utf-8" }],
    ["line break", { "content-type": "a\r\nx-evil: 1" }],
    ["nul", { "content-type": "a\u0000b" }],
    ["not a byte", { "content-type": "text/₹" }],
    ["latin-1", { "content-type": "text/é" }],
    ["bad name elsewhere", { "content-type": "a", "bad name": "x" }],
    ["number", { "content-type": 5 as unknown as string }],
    ["Headers", new Headers({ "content-type": "application/json" })],
    ["pairs", [["content-type", "application/json"]]],
    ["none", undefined],
  ];
  for (const [label, headers] of cases) {
    it(`answers as Headers does: ${label}`, () => {
      expect(viaHeaderOf(headers, "content-type")).toEqual(viaHeaders(headers, "content-type"));
    });
  }

  it("builds no Headers for grammY's own JSON call", () => {
    let built = 0;
    globalThis.Headers = class extends realHeaders {
      constructor(init?: Init) {
        super(init);
        built++;
      }
    };
    const grammy = { "content-type": "application/json", connection: "keep-alive" };
    expect(headerOf(grammy, "content-type")).toBe("application/json");
    expect(built).toBe(0);
    // The unsure case still asks Headers.
    expect(headerOf({ "content-type": " a" }, "content-type")).toBe("a");
    expect(built).toBe(1);
  });
});
