import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, secretsOf } from "../../src/config/index.ts";

/** The top-up settings (issue 17): the real Khalti needs its key and a public return URL. */
describe("top-up configuration", () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return "";
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      return e.problems.join("\n");
    }
  };

  it("defaults: the local stand-in (no Khalti configured), Rs 10,000 at once, Rs 25,000 a day", () => {
    const c = loadConfig({});
    expect(c.topUp).toMatchObject({
      khalti: undefined,
      publicUrl: undefined,
      maxRupees: 10_000,
      dailyCapRupees: 25_000,
      timeoutMs: 10_000,
    });
  });

  it("the real Khalti: base URL ending in /api/v2, its secret key, and where the payer returns", () => {
    const c = loadConfig({
      KHALTI_BASE_URL: "https://dev.khalti.com/api/v2/",
      KHALTI_SECRET_KEY: "live_secret_key_0123456789",
      TOPUP_PUBLIC_URL: "https://bot.example.com/",
    });
    expect(c.topUp.khalti).toEqual({
      baseUrl: "https://dev.khalti.com/api/v2",
      secretKey: "live_secret_key_0123456789",
    });
    expect(c.topUp.publicUrl).toBe("https://bot.example.com");
    // The key is one of the values every log line is scrubbed of.
    expect(secretsOf(c)).toContain("live_secret_key_0123456789");
    expect(
      loadConfig({
        KHALTI_BASE_URL: "https://khalti.com/api/v2",
        KHALTI_SECRET_KEY: "k-0123456789",
        PUBLIC_URL: "https://bot.example.com",
      }).topUp.publicUrl,
    ).toBe("https://bot.example.com");
  });

  it("refuses half a configuration, naming the variable", () => {
    expect(
      problems({
        KHALTI_BASE_URL: "https://khalti.com/api/v2",
        TOPUP_PUBLIC_URL: "https://x.example",
      }),
    ).toContain("KHALTI_SECRET_KEY: required");
    expect(problems({ KHALTI_SECRET_KEY: "k-0123456789" })).toContain("KHALTI_BASE_URL: required");
    expect(
      problems({ KHALTI_BASE_URL: "https://khalti.com/api/v2", KHALTI_SECRET_KEY: "k-0123456789" }),
    ).toContain("TOPUP_PUBLIC_URL: required");
    expect(problems({ KHALTI_BASE_URL: "https://khalti.com/api/v1" })).toContain("KHALTI_BASE_URL");
    expect(problems({ TOPUP_MAX_AMOUNT: "5" })).toContain("TOPUP_MAX_AMOUNT");
  });
});
