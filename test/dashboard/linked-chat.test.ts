import { describe, expect, it } from "vitest";
import { linkIn } from "../support/dashboard.ts";
import { useTestSystem } from "../support/system.ts";
import { waCustomer, waPerson } from "../support/whatsapp-steps.ts";

/**
 * /dashboard gives a login link for the chat's own id, never for the account a link joins it to
 * (s21 review finding 2): the role is the channel's (ADMIN_IDS, AGENT_IDS name a Telegram id or a
 * `wa:` number), and the back office re-reads the role of the id the link names when it is used.
 * The links here are written directly, as one made before its account was promoted would be
 * (a join to a staff account is refused when it is made).
 */
const TG_ADMIN = 29_950;
const WA_ADMIN = "9779800029960";

describe("/dashboard through a link between chats", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid", DASHBOARD: "1", ADMIN_IDS: `${TG_ADMIN},wa:${WA_ADMIN}` },
  });

  it("a WhatsApp chat joined to a Telegram admin's account gets no login link", async () => {
    const phone = "9779800029951";
    const tg = ts.user(TG_ADMIN);
    await tg.register(phone);
    const wa = waCustomer(ts, phone, "Holder");
    await wa.say("hi", /./);
    // Sealed with the sender as a code typed in that chat would seal it (whatsapp/held.ts).
    await ts.system.deps.accounts.links.link(waPerson(phone), TG_ADMIN, "n:Holder");
    const denied = await wa.say("dashboard", /./);
    expect(linkIn(denied.text)).toBeUndefined();
    expect(denied.text).toContain("The back office is for admins and agents.");
    // The admin's own chat still gets one.
    const own = await tg.say("/dashboard", /dashboard\/login\//);
    expect(linkIn(own.text)).toBeDefined();
  });

  it("a Telegram customer joined to a WhatsApp admin's account gets no login link", async () => {
    const admin = waCustomer(ts, WA_ADMIN, "WA admin");
    await admin.say("hi", /./);
    const tg = ts.user(29_961);
    await ts.system.deps.accounts.links.link(29_961, waPerson(WA_ADMIN));
    const denied = await tg.say("/dashboard", /./);
    expect(linkIn(denied.text)).toBeUndefined();
    expect(denied.text).toContain("The back office is for admins and agents.");
    const own = await admin.say("dashboard", /dashboard\/login\//);
    expect(linkIn(own.text)).toBeDefined();
  });
});
