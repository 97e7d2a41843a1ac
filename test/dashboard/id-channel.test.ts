import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/index.ts";
import { createDashboard, type DashboardDeps } from "../../src/dashboard/index.ts";
import { settleSection } from "../../src/dashboard/pages/order-settle.ts";
import { account } from "../../src/ledger/index.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import {
  ADMIN,
  AGENT,
  type DashboardHarness,
  loggedIn,
  startDashboard,
} from "../support/dashboard.ts";
import { serveFetch } from "../support/http.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The back office names each id for its messenger (review s33-rvagent 8): a WhatsApp customer's
 * id was labelled "Telegram id" on their page, the block page, the list of customers and the
 * blocked list, an agent's cash-ins, and an admin's settlement ("By (Telegram id)"). Real Redis
 * and HTTP; a Telegram customer beside it keeps "Telegram".
 */

const WA = WA_CHAT_BASE + 9_779_800_007_201;
const TG = 7202;

let h: DashboardHarness;
let office: { url: string; access: DashboardHarness["access"] };
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  h = await startDashboard();
  const deps: DashboardDeps = {
    ...h.deps,
    people: { ...h.deps.people, joined: (offset, limit) => h.accounts.joined(offset, limit) },
  };
  const server = await serveFetch((req, env) => createDashboard(deps).fetch(req, env));
  closers.push(() => server.close());
  office = { url: server.url, access: h.access };
  await h.accounts.register(WA, "9779800007201" as Phone);
  await h.accounts.putProfile(WA, { name: "Wa", channel: "whatsapp" }, Date.now());
  await h.accounts.register(TG, "9779800007202" as Phone);
  await h.accounts.putProfile(TG, { name: "Tg", channel: "telegram" }, Date.now() - 1);
});
afterAll(async () => {
  for (const c of closers) await c();
  await h?.close();
});

describe("ids in the back office, by messenger", () => {
  it("a WhatsApp customer's page, block page, the lists: a WhatsApp id, never a Telegram id", async () => {
    const c = await loggedIn(office, ADMIN);
    const person = await (await c.get(`/dashboard/customers/${WA}`)).text();
    expect(person).toContain(`WhatsApp account id</th><td>${WA}`);
    expect(person).not.toContain("Telegram id</th>");
    const block = await (await c.get(`/dashboard/customers/${WA}/block`)).text();
    expect(block).toContain(`WhatsApp account id</th><td>${WA}`);
    expect(block).not.toContain("Telegram id</th>");
    expect(await (await c.get(`/dashboard/customers/${TG}`)).text()).toContain(
      `Telegram id</th><td>${TG}`,
    );
    await h.blocked.block({ userId: WA, reason: "abuse", by: ADMIN, at: Date.now() });
    const list = await (await c.get("/dashboard/customers")).text();
    expect(list).not.toContain("<th>Telegram id</th>");
    expect(list).toContain(`${WA}</a> (WhatsApp)`);
    expect(list).toContain(`${TG}</a> (Telegram)`);
  });

  it("an agent's cash-in to a WhatsApp customer names a WhatsApp id", async () => {
    const stamp = Date.now();
    for (const [id, debit, credit, paisa, kind] of [
      ["float", account.merchant.funding, account.agent(AGENT), 50_000, "credit"],
      ["cashwa", account.agent(AGENT), account.customer(WA), 10_000, "cash_in"],
    ] as const) {
      const r = await h.ledger.transfer({
        id: `${id}-${stamp}`,
        debit: debit as never,
        credit: credit as never,
        amountPaisa: paisa,
        kind: kind as never,
      });
      expect(r.ok).toBe(true);
    }
    const c = await loggedIn(office, AGENT);
    const me = await (await c.get("/dashboard/me")).text();
    expect(me).not.toContain("<th>Telegram id</th>");
    expect(me).toContain(`<td>${WA} (WhatsApp)</td>`);
  });

  it("a settlement by a WhatsApp admin says 'By (WhatsApp account id)'", async () => {
    const admin = WA_CHAT_BASE + 9_779_800_007_299;
    const order = placedOrder({
      status: "failed",
      settled: { by: admin, reason: "operator said no", aggregator: "pending", at: 1 },
    } as never);
    const section = String(await settleSection(order, null, { userId: ADMIN, role: "admin" }));
    expect(section).toContain(`By (WhatsApp account id)</th><td>${admin}`);
    const tg = placedOrder({
      status: "failed",
      settled: { by: ADMIN, reason: "operator said no", aggregator: "pending", at: 1 },
    } as never);
    expect(String(await settleSection(tg, null, { userId: ADMIN, role: "admin" }))).toContain(
      `By (Telegram id)</th><td>${ADMIN}`,
    );
  });
});
