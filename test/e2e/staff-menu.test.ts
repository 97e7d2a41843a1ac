import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * Review s32-accounts, 3 (h-staffmenu): in staff mode /cashin says cash-ins are off, so offering
 * it (and /myqr, the shop's QR code whose customers an agent cashes in) in the command menu and
 * /help was a false promise, and a scanned shop code told the customer a shop could add money to
 * their balance. Now neither is offered in staff mode, /myqr says why, a scanned code is a plain
 * /start, /register no longer says a shop finds the account when one pays cash, and /credit (kept
 * for admins) says the float waits for prepaid mode. Prepaid unchanged.
 */

const AGENT = 4851;
const ADMIN = 4852;
const CUSTOMER = 14_853;
const LANGS = ["", "|ne", "|hi"];

describe("staff mode offers no /cashin or /myqr", () => {
  const ts = useTestSystem({ env: { AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) } });
  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  it("leaves /cashin and /myqr out of the agent's command menu; the admin keeps /credit", () => {
    const all = ts.user(AGENT).emu.allCommands();
    for (const lang of LANGS) {
      const agent = all[`chat:${AGENT}${lang}`]?.map((c) => c.command) ?? [];
      expect([lang, agent.includes("cashin"), agent.includes("myqr")]).toEqual([
        lang,
        false,
        false,
      ]);
      expect(agent).toContain("dashboard");
      expect(all[`chat:${ADMIN}${lang}`]?.map((c) => c.command)).toContain("credit");
    }
  });

  it("/help names neither to an agent, and tells an admin /credit's float waits for prepaid", async () => {
    const agent = await ts.user(AGENT).say("/help", /What I can do/);
    expect(agent.text).toContain("As an agent you can check any order with /status.");
    expect(agent.text).not.toMatch(/\/cashin|\/myqr/);
    const admin = await ts.user(ADMIN).say("/help", /What I can do/);
    expect(admin.text).toContain(
      "/credit – credit an agent who paid in, ahead of a switch to prepaid mode: cash-ins are off while orders are paid from the merchant's wallet, so no customer gets a balance from it now;",
    );
    expect(admin.text).not.toContain(t("en", "help-admin-accounts"));
  });

  it("/myqr says shop codes are off and sends no code", async () => {
    const agent = ts.user(AGENT);
    const said = await agent.say("/myqr", /QR/);
    expect(said.text).toBe(
      "Shop QR codes are off: this shop's orders are paid from the merchant's wallet and only its staff may order, so a customer who scans one could not order here.",
    );
    expect(agent.botMessages().filter((m) => m.kind === "photo")).toEqual([]);
  });

  it("a scanned shop code is a plain /start: no balance promised, no shop recorded, nobody told", async () => {
    const u = ts.user(CUSTOMER, { first_name: "Gita" });
    const welcome = await u.say(`/start shop-${AGENT}`);
    expect(welcome.text).not.toContain(t("en", "shortcut-shop-register"));
    expect(welcome.text).not.toMatch(/balance/);
    await u.register();
    // Answered after the registration's own step: anything it would have sent is sent by then.
    await u.say("/cancel", "There is nothing to cancel.");
    expect(u.botTexts().filter((m) => /customer of this shop/.test(m))).toEqual([]);
    expect(await ts.system.deps.accounts.shopOf(CUSTOMER)).toBeNull();
    expect(
      ts
        .user(AGENT)
        .botTexts()
        .filter((m) => /New customer/.test(m)),
    ).toEqual([]);
  });

  it("/register asks for the number without promising an order or a shop's cash-in", async () => {
    const asked = await ts.user(CUSTOMER + 1).say("/register", /Share my phone number/);
    expect(asked.text).toBe(
      'To register your own phone number, tap "📱 Share my phone number" below.',
    );
  });

  it("/credit says, at the confirmation and in the agent's receipt, that no customer can spend it yet", async () => {
    const admin = ts.user(ADMIN);
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT), /How much did agent/);
    const confirm = await admin.say("500", /Credit agent \d+ with/);
    const note = t("en", "credit-staff-mode");
    expect(note).toBe(
      "Cash-ins are off while orders are paid from the merchant's wallet: this agent balance waits for a switch to prepaid mode, and until then no customer can get or spend any of it.",
    );
    expect(confirm.text).toContain(note);
    await admin.tap("✅ Confirm", /credited with/);
    const pushed = await ts.user(AGENT).waitFor(/credited your agent balance with Rs 500/);
    expect(pushed.text).toContain(note);
  });
});

describe("prepaid mode still offers /cashin and /myqr", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT + 5), ADMIN_IDS: String(ADMIN + 5) },
  });

  it("in the agent's menu and /help; /credit's words say nothing of staff mode", async () => {
    const all = ts.user(AGENT + 5).emu.allCommands();
    for (const lang of LANGS) {
      const agent = all[`chat:${AGENT + 5}${lang}`]?.map((c) => c.command) ?? [];
      expect([lang, agent.includes("cashin"), agent.includes("myqr")]).toEqual([lang, true, true]);
    }
    const asked = await ts.user(CUSTOMER + 5).say("/register", /Share my phone number/);
    expect(asked.text).toBe(ts.system.deps.i18n.t("en", "register-prompt"));
    const cashin = all[`chat:${AGENT + 5}`]?.find((c) => c.command === "cashin");
    expect(cashin?.description).toBe("Cash-in for a customer (agents)");
    const help = await ts.user(AGENT + 5).say("/help", /What I can do/);
    expect(help.text).toContain("/cashin");
    expect(help.text).toContain("/myqr");
    const admin = ts.user(ADMIN + 5);
    expect((await admin.say("/help", /What I can do/)).text).toContain(
      ts.system.deps.i18n.t("en", "help-admin-accounts"),
    );
    await admin.say("/credit", /Credit which agent/);
    await admin.tap(String(AGENT + 5), /How much did agent/);
    const confirm = await admin.say("500", /Credit agent \d+ with/);
    expect(confirm.text).not.toContain("Cash-ins are off");
  });
});
