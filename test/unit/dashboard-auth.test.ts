import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMES, dashboardRole, sessionVerdict } from "../../src/dashboard/index.ts";
import { liveLink } from "../../src/dashboard/links.ts";
import { hashSecret, isSecretShaped, newSecret, SECRET_BYTES } from "../../src/dashboard/secret.ts";

/** The back office's login rules without Redis: secrets, link records, session timeouts, roles. */

describe("secrets (login tokens, session ids)", () => {
  it("are 256 random bits in base64url, never the same twice", () => {
    expect(SECRET_BYTES * 8).toBeGreaterThanOrEqual(128);
    const many = new Set(Array.from({ length: 1000 }, newSecret));
    expect(many.size).toBe(1000);
    for (const s of many) {
      expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(s, "base64url")).toHaveLength(32);
    }
  });

  it("are checked for shape before anything is read", () => {
    expect(isSecretShaped(newSecret())).toBe(true);
    for (const bad of [undefined, "", "abc", `${newSecret()}x`, `${"a".repeat(42)}=`, "a/b", 5]) {
      expect(isSecretShaped(bad)).toBe(false);
    }
  });

  it("are stored as their SHA-256 in hex", () => {
    const s = newSecret();
    expect(hashSecret(s)).toBe(createHash("sha256").update(s).digest("hex"));
    expect(hashSecret(s)).not.toContain(s);
  });
});

describe("a link's record", () => {
  const now = 1_800_000_000_000;
  const raw = (r: unknown) => JSON.stringify(r);

  it("is good until its end, not at it", () => {
    expect(liveLink(raw({ userId: 5, expiresAt: now + 1 }), now)).toEqual({
      userId: 5,
      expiresAt: now + 1,
    });
    expect(liveLink(raw({ userId: 5, expiresAt: now }), now)).toBeNull();
  });

  it("is nothing when missing or not ours", () => {
    expect(liveLink(null, now)).toBeNull();
    expect(liveLink("not json", now)).toBeNull();
    expect(liveLink(raw({ userId: "5", expiresAt: now + 1 }), now)).toBeNull();
    expect(liveLink(raw({ userId: -1, expiresAt: now + 1 }), now)).toBeNull();
  });
});

describe("a session's verdict", () => {
  const t = { linkMs: 600_000, idleMs: 1_000, absoluteMs: 10_000 };
  const s = { userId: 1, createdAt: 0, lastSeenAt: 0 };

  it("is ok while used within the idle time and before the absolute end", () => {
    expect(sessionVerdict(s, 999, t)).toBe("ok");
    expect(sessionVerdict({ ...s, lastSeenAt: 9_000 }, 9_999, t)).toBe("ok");
  });

  it("is idle after idleMs unused", () => {
    expect(sessionVerdict(s, 1_000, t)).toBe("idle");
  });

  it("is expired absoluteMs after login, however recently used", () => {
    expect(sessionVerdict({ ...s, lastSeenAt: 9_999 }, 10_000, t)).toBe("expired");
  });

  it("defaults: links 10 minutes, idle 30 minutes, absolute 12 hours", () => {
    expect(DEFAULT_TIMES).toEqual({ linkMs: 600_000, idleMs: 1_800_000, absoluteMs: 43_200_000 });
  });
});

describe("who may open the back office", () => {
  it("admins and agents, as the bot's settings say; customers not", () => {
    expect(dashboardRole("admin")).toBe("admin");
    expect(dashboardRole("agent")).toBe("agent");
    expect(dashboardRole("customer")).toBeNull();
  });
});
