import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConfigError,
  DEV_WEBHOOK_SECRET,
  isLoopbackHost,
  loadConfig,
} from "../../src/config/index.ts";

/**
 * Settings that must stop the start (issue 25): a guessable webhook secret, a body limit that is
 * only a memory load, a HOST that only looks like loopback, and a price file that is not one,
 * whose contents must never reach the error message (it is printed, and may be logged).
 */

const REAL_PROVIDER = {
  PROVIDER_URL: "https://provider.example/api/v1",
  PROVIDER_TOKEN: "provider-token-123456",
  BOT_TOKEN: "123456:bot-token",
  ALLOW_MEMORY_STORES: "1",
};

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return "";
}

describe("WEBHOOK_SECRET", () => {
  it.each(["a", "short-secret", "fifteen-chars-x"])(
    "%j with a real provider stops the start, naming the variable",
    (secret) => {
      const message = problemsOf({ ...REAL_PROVIDER, WEBHOOK_SECRET: secret });
      expect(message).toMatch(/WEBHOOK_SECRET: must be at least 16 characters/);
      if (secret.length > 1) expect(message).not.toContain(secret);
    },
  );

  it("16 characters or more is accepted with a real provider", () => {
    const c = loadConfig({ ...REAL_PROVIDER, WEBHOOK_SECRET: "sixteen-chars-ok" });
    expect(c.webhook.secret).toBe("sixteen-chars-ok");
  });

  it("local mode keeps the development default", () => {
    const c = loadConfig({});
    expect(c.webhook.secret).toBe(DEV_WEBHOOK_SECRET);
    expect(c.webhook.secretIsDevDefault).toBe(true);
  });
});

describe("WEBHOOK_MAX_BODY_BYTES", () => {
  it.each(["99999999999999", "1048577", "4194304"])("%s (beyond 1 MiB) stops the start", (v) => {
    expect(problemsOf({ WEBHOOK_MAX_BODY_BYTES: v })).toMatch(
      /WEBHOOK_MAX_BODY_BYTES: must be at most 1048576/,
    );
  });

  it("1 MiB and the default are accepted", () => {
    expect(loadConfig({ WEBHOOK_MAX_BODY_BYTES: "1048576" }).webhook.maxBodyBytes).toBe(1_048_576);
    expect(loadConfig({}).webhook.maxBodyBytes).toBe(65_536);
  });
});

describe("HOST and the loopback test", () => {
  it.each([
    "127.evil.example",
    "127.0.0.1.nip.io",
    "localhost.evil.example",
    "127.0.0.1.",
    "::ffff:10.0.0.1",
    "10.0.0.5",
  ])("%s is not loopback", (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });

  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"])(
    "%s is loopback",
    (h) => {
      expect(isLoopbackHost(h)).toBe(true);
    },
  );

  it("HOST=127.evil.example does not pass as loopback: the playground stays on 127.0.0.1", () => {
    const c = loadConfig({ HOST: "127.evil.example" });
    expect(c.http.host).toBe("127.0.0.1");
    expect(c.http.hostRefused).toBe("127.evil.example");
  });

  it("a real loopback HOST is kept as it is", () => {
    expect(loadConfig({ HOST: "::1" }).http).toMatchObject({ host: "::1", hostRefused: undefined });
    expect(loadConfig({ HOST: "127.0.0.2" }).http.host).toBe("127.0.0.2");
  });

  it.each(["bot.123", "10.0.0.256", "host_name", "host:8080", "http://host", "a..b"])(
    "HOST=%s (neither an IP address nor a plain hostname) stops the start",
    (h) => {
      expect(problemsOf({ HOST: h })).toMatch(
        /HOST: must be an IPv4 or IPv6 address or a plain hostname/,
      );
    },
  );
});

describe("PRICE_SCHEDULE_FILE that is no price schedule", () => {
  const dir = mkdtempSync(join(tmpdir(), "price-file-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const SECRET = "s3cr3t-HASH-value";

  const refusal = (file: string): string => {
    const message = problemsOf({ PRICE_SCHEDULE_FILE: file });
    expect(message).toMatch(/PRICE_SCHEDULE_FILE: /);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain("root");
    return message;
  };

  it("a shadow-like text file: not valid JSON, nothing of it quoted", () => {
    const file = join(dir, "shadow");
    writeFileSync(file, `root:$6$${SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n`);
    expect(refusal(file)).toMatch(/not valid JSON/);
  });

  it("a file that starts like JSON and goes wrong later: the position, not the text", () => {
    const file = join(dir, "half.json");
    writeFileSync(file, `{"root": "${SECRET}" oops}`);
    expect(refusal(file)).toMatch(/not valid JSON/);
  });

  it("a binary file", () => {
    const file = join(dir, "key.bin");
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(`root ${SECRET}`), Buffer.from([0, 1, 2, 255])]),
    );
    expect(refusal(file)).toMatch(/binary/);
  });

  it("a directory", () => {
    const sub = join(dir, "a-directory");
    mkdirSync(sub);
    expect(refusal(sub)).toMatch(/not a regular file/);
  });

  it("a file far larger than any schedule", () => {
    const file = join(dir, "big.json");
    writeFileSync(file, `["root ${SECRET}", ${'"x",'.repeat(300_000)} "x"]`);
    expect(refusal(file)).toMatch(/larger than 1 MiB/);
  });

  it("a FIFO nobody writes to: refused at once instead of hanging the start", () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(refusal(fifo)).toMatch(/not a regular file/);
  });

  it("/etc/shadow itself, readable or not", () => {
    let head = "";
    try {
      head = readFileSync("/etc/shadow", "utf8").slice(0, 12);
    } catch {
      // Not readable by this user: the refusal says so, still quoting nothing.
    }
    const message = problemsOf({ PRICE_SCHEDULE_FILE: "/etc/shadow" });
    expect(message).toMatch(/PRICE_SCHEDULE_FILE: \/etc\/shadow: /);
    if (head) expect(message).not.toContain(head.slice(0, 6));
  });
});
