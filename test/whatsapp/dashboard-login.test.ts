import { describe, expect, it } from "vitest";
import { client, linkIn } from "../support/dashboard.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * The back office from WhatsApp: an admin who uses WhatsApp only (ADMIN_IDS=wa:<number>) writes
 * "dashboard" and gets the one-time link as a text WhatsApp shows without a preview; the link
 * logs them in once, as that admin.
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
