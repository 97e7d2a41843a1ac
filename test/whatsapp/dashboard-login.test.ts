import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { client, linkIn } from "../support/dashboard.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * The back office from WhatsApp: an admin who uses WhatsApp only (ADMIN_IDS=wa:<number>) writes
 * "dashboard" and gets the one-time link as a text WhatsApp shows without a preview; the link
 * logs them in once, as that admin. Its token is never kept in the WhatsApp chat's record in Redis
 * (the back office keeps only the token's SHA-256), not even while the link is not delivered.
 */
const ADMIN_PHONE = "9779841600001";

describe("/dashboard from WhatsApp", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", DASHBOARD: "1", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
  });

  it("sends a WhatsApp admin the one-time link, previews off, and it logs them in once", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const admin = new WhatsAppChatUser(standIn, ADMIN_PHONE, { name: "Admin" });
    const answer = await admin.say("dashboard", /dashboard\/login\//);
    expect(answer.kind).toBe("text");
    expect(answer.body).toMatchObject({ text: { preview_url: false } });
    const link = linkIn(answer.text);
    if (!link) throw new Error(`no link in ${answer.text}`);
    const c = client(new URL(link).origin);
    const path = new URL(link).pathname;
    expect((await c.get(path)).status).toBe(200);
    expect((await c.post(path)).status).toBe(303);
    expect(c.cookie).toBeDefined();
    const orders = await c.get("/dashboard/orders");
    expect(orders.status).toBe(200);
    // Spent: the same link again is refused.
    const again = client(new URL(link).origin);
    expect((await again.post(path)).status).not.toBe(303);

    // A customer on WhatsApp gets no link.
    const customer = new WhatsAppChatUser(standIn, "9779841600002", { name: "Ram" });
    const denied = await customer.say("dashboard");
    expect(linkIn(denied.text)).toBeUndefined();
  });
});

/** Every value stored under `prefix` (hash fields and values, strings, list items), run together. */
async function everythingUnder(prefix: string): Promise<string> {
  const redis = new Redis(REDIS_URL);
  try {
    const out: string[] = [];
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === "hash") out.push(...Object.entries(await redis.hgetall(key)).flat());
        else if (type === "string") out.push((await redis.get(key)) ?? "");
        else if (type === "list") out.push(...(await redis.lrange(key, 0, -1)));
        else if (type === "set") out.push(...(await redis.smembers(key)));
        else if (type === "zset") out.push(...(await redis.zrange(key, "0", "-1")));
        else if (type === "stream") out.push(JSON.stringify(await redis.xrange(key, "-", "+")));
        out.push(key);
      }
    } while (cursor !== "0");
    return out.join("\n");
  } finally {
    redis.disconnect();
  }
}

describe("/dashboard from WhatsApp on Redis", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid", DASHBOARD: "1", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
  });

  it("keeps no part of the link's token in Redis, even when the link is never delivered", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const admin = new WhatsAppChatUser(standIn, ADMIN_PHONE, { name: "Admin" });
    await admin.say("hi");
    // Sent, then failed (not the window's 131047): no `delivered` lets the words go.
    standIn.faults.failStatusFor(ADMIN_PHONE, 131026);
    const answer = await admin.say("dashboard", /dashboard\/login\//);
    await standIn.settled();
    expect(standIn.statuses(answer.wamid)).toEqual(["sent", "failed"]);
    const token = new URL(linkIn(answer.text) ?? "http://x/").pathname.split("/").pop() ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await everythingUnder(ts.prefix);
    // The chat's record was written (the message is known), in 64-byte pieces: any 12 characters
    // of the token in a row would be a piece of it.
    expect(stored).toContain("{wachat:");
    for (let i = 0; i + 12 <= token.length; i++)
      expect(stored).not.toContain(token.slice(i, i + 12));
    // The link still works: it was only never written down.
    const c = client(new URL(linkIn(answer.text) ?? "").origin);
    expect((await c.post(new URL(linkIn(answer.text) ?? "").pathname)).status).toBe(303);
  });
});
