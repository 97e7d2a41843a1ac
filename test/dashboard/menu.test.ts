import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * /dashboard in the command menu of admins and agents (each language), not in everyone's, and only
 * when the back office runs; /help tells admins and agents of it, customers not.
 */

const ADMIN = 3001;
const AGENT = 2001;
const NEPALI_AGENT = 2002;
const CUSTOMER = 1001;

const commandsOf = (ts: TestSystem, key: string) =>
  (ts.user(CUSTOMER).emu.allCommands()[key] ?? []).map((c) => c.command);

describe("/dashboard in the menu and /help (back office on)", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      env: { ADMIN_IDS: String(ADMIN), AGENT_IDS: `${AGENT},${NEPALI_AGENT}` },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("is in the admins' and agents' menus in every language, not in everyone's", () => {
    for (const lang of ["", "|ne", "|hi"]) {
      expect(commandsOf(ts, `chat:${ADMIN}${lang}`)).toContain("dashboard");
      expect(commandsOf(ts, `chat:${AGENT}${lang}`)).toContain("dashboard");
      expect(commandsOf(ts, `default${lang}`)).not.toContain("dashboard");
    }
    const all = ts.user(CUSTOMER).emu.allCommands();
    const described = (key: string) =>
      all[key]?.find((c) => c.command === "dashboard")?.description;
    expect(described(`chat:${ADMIN}`)).toBe("The back office in a browser (admins, agents)");
    expect(described(`chat:${AGENT}|ne`)).toBe(ts.system.deps.i18n.t("ne", "cmd-dashboard"));
    expect(described(`chat:${AGENT}|hi`)).toBe(ts.system.deps.i18n.t("hi", "cmd-dashboard"));
  });

  it("/help tells admins and agents of /dashboard, customers not", async () => {
    expect((await ts.user(ADMIN).say("/help")).text).toContain("/dashboard – a one-time link");
    expect((await ts.user(AGENT).say("/help")).text).toContain("/dashboard – a one-time link");
    expect((await ts.user(CUSTOMER).say("/help")).text).not.toContain("/dashboard");
  });

  it("/help in Nepali has the line too", async () => {
    const agent = ts.user(NEPALI_AGENT, { language_code: "ne" });
    const ne = ts.system.deps.i18n.t("ne", "help-dashboard");
    expect(ne).toContain("/dashboard");
    expect((await agent.say("/help")).text).toContain(ne);
  });
});

describe("/dashboard not in the menu when the back office is off", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      env: { ADMIN_IDS: String(ADMIN), AGENT_IDS: String(AGENT), DASHBOARD: "0" },
    });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("leaves it out of every menu", () => {
    for (const key of Object.keys(ts.user(CUSTOMER).emu.allCommands())) {
      expect(commandsOf(ts, key)).not.toContain("dashboard");
    }
    expect(commandsOf(ts, `chat:${ADMIN}`)).toContain("books");
  });
});
