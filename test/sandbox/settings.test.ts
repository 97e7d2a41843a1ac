import { describe, expect, it } from "vitest";
import { loadSandboxSettings } from "../../dev/sandbox/index.ts";
import { ConfigError } from "../../src/config/index.ts";

/** The sandbox's own variables (dev/sandbox/settings.ts), refused as the product's are. */
describe("sandbox settings", () => {
  const problemsOf = (env: Record<string, string>): string => {
    try {
      loadSandboxSettings(env);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    return "";
  };

  it("reads the defaults", () => {
    const s = loadSandboxSettings({});
    expect(s.port).toBe(8090);
    expect(s.delays).toEqual({ toPendingMs: 1000, toFinalMs: 2000 });
    expect(s.rateLimitPerSecond).toBe(50);
    expect(s.faults).toEqual({});
    expect(s.webhookUrl).toBeUndefined();
  });

  it.each([
    ["SANDBOX_PORT", "70000"],
    ["SANDBOX_FAULTS", "{not json"],
  ])("refuses %s=%s, naming the variable", (name, value) => {
    expect(problemsOf({ [name]: value })).toMatch(new RegExp(`^  - ${name}: `, "m"));
  });

  it("refuses SANDBOX_FAULTS whose token maps to anything but an object, naming the token", () => {
    expect(problemsOf({ SANDBOX_FAULTS: '{"sandbox-token": 3}' })).toMatch(
      /^ {2}- SANDBOX_FAULTS\.sandbox-token: /m,
    );
  });
});
