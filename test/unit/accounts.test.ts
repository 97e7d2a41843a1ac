import { describe, expect, it } from "vitest";
import {
  accessVerdict,
  createAccounts,
  createMemoryAccounts,
  formatPhone,
  nepalDayStart,
  type Phone,
  phoneFromContact,
  phoneFromTyped,
} from "../../src/accounts/index.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";

const phone = (p: string) => p as Phone;

describe("phone numbers", () => {
  it("reads a shared contact's number with or without +", () => {
    expect(phoneFromContact("+977 9841234567")).toBe("9779841234567");
    expect(phoneFromContact("9779841234567")).toBe("9779841234567");
    expect(phoneFromContact("not a number")).toBeNull();
  });

  it("reads what an agent types: bare ten digits are Nepal, others need their country code", () => {
    expect(phoneFromTyped("9841234567")).toEqual({ ok: true, phone: "9779841234567" });
    expect(phoneFromTyped(" +977 984-1234567 ")).toEqual({ ok: true, phone: "9779841234567" });
    expect(phoneFromTyped("9779841234567")).toEqual({ ok: true, phone: "9779841234567" });
    expect(phoneFromTyped("+91 98765 43210")).toEqual({ ok: true, phone: "919876543210" });
    expect(phoneFromTyped("+44 7700 900123")).toEqual({ ok: true, phone: "447700900123" });
    for (const bad of ["98412345", "977984123456", "abc", "", "+977 98412", "01-4412345"]) {
      expect(phoneFromTyped(bad), bad).toEqual({ ok: false, error: "format" });
    }
  });

  it("shows a number with its country code apart", () => {
    expect(formatPhone(phone("9779841234567"))).toBe("+977 9841234567");
    expect(formatPhone(phone("919876543210"))).toBe("+91 9876543210");
    expect(formatPhone(phone("447700900123"))).toBe("+447700900123");
  });
});

describe("who may spend", () => {
  it("prepaid: the registered; staff: the listed", () => {
    expect(accessVerdict("prepaid", { registered: true, staff: false })).toBe("ok");
    expect(accessVerdict("prepaid", { registered: false, staff: true })).toBe("register");
    expect(accessVerdict("staff", { registered: true, staff: false })).toBe("private");
    expect(accessVerdict("staff", { registered: false, staff: true })).toBe("ok");
  });

  it("counts the agent's day in Nepal time (UTC+5:45)", () => {
    const t = Date.UTC(2026, 10, 22, 18, 14); // 23:59 in Kathmandu
    expect(nepalDayStart(t)).toBe(Date.UTC(2026, 10, 21, 18, 15));
    expect(nepalDayStart(t + 60_000)).toBe(Date.UTC(2026, 10, 22, 18, 15));
  });
});

describe("accounts (memory)", () => {
  const setup = () => {
    const ledger = createMemoryLedger({ now: () => 1_000 });
    const store = createMemoryAccounts();
    return { ledger, accounts: createAccounts({ ledger, store, now: () => 1_000 }) };
  };

  it("moves a number to its latest owner and forgets a user's old number", async () => {
    const { accounts } = setup();
    await accounts.register(1, phone("9779800000001"));
    await accounts.register(2, phone("9779800000001"));
    expect(await accounts.userByPhone(phone("9779800000001"))).toBe(2);
    expect(await accounts.phoneOf(1)).toBeNull();
    await accounts.register(2, phone("9779800000002"));
    expect(await accounts.userByPhone(phone("9779800000001"))).toBeNull();
    expect(await accounts.phoneOf(2)).toBe("9779800000002");
  });

  it("books a cash-in once under its id, and refuses one beyond the agent's balance", async () => {
    const { ledger, accounts } = setup();
    expect(
      await accounts.creditAgent({
        id: "credit-1",
        adminUserId: 9,
        agentUserId: 7,
        amountPaisa: 500,
      }),
    ).toMatchObject({ ok: true, duplicate: false });
    const input = { id: "cashin-1", agentUserId: 7, customerUserId: 5, amountPaisa: 300 };
    expect(await accounts.cashIn(input)).toMatchObject({ ok: true, duplicate: false });
    expect(await accounts.cashIn(input)).toMatchObject({ ok: true, duplicate: true });
    expect((await ledger.balance(account.customer(5))).availablePaisa).toBe(300);
    expect(
      await accounts.cashIn({
        id: "cashin-2",
        agentUserId: 7,
        customerUserId: 5,
        amountPaisa: 300,
      }),
    ).toEqual({ ok: false, code: "insufficient_funds", availablePaisa: 200, shortfallPaisa: 100 });
    expect((await ledger.check()).ok).toBe(true);
  });

  it("reverses once, refuses what is spent, and never reverses a reversal", async () => {
    const { ledger, accounts } = setup();
    await accounts.creditAgent({
      id: "credit-1",
      adminUserId: 9,
      agentUserId: 7,
      amountPaisa: 500,
    });
    await accounts.cashIn({ id: "cashin-1", agentUserId: 7, customerUserId: 5, amountPaisa: 300 });
    await accounts.cashIn({ id: "cashin-2", agentUserId: 7, customerUserId: 6, amountPaisa: 100 });
    expect(await accounts.reverse({ originalId: "nope", adminUserId: 9, reason: "x" })).toEqual({
      ok: false,
      code: "unknown",
    });
    const first = await accounts.reverse({
      originalId: "cashin-1",
      adminUserId: 9,
      reason: "typo",
    });
    expect(first).toMatchObject({ ok: true, receipt: { id: "rev-cashin-1", kind: "reversal" } });
    expect(
      await accounts.reverse({ originalId: "cashin-1", adminUserId: 9, reason: "again" }),
    ).toMatchObject({ ok: false, code: "already_reversed" });
    expect(
      await accounts.reverse({ originalId: "rev-cashin-1", adminUserId: 9, reason: "undo" }),
    ).toEqual({ ok: false, code: "not_reversible" });
    // Customer 6 spends 60 of their 100 (a hold): reversing the 100 would go below zero.
    await ledger.hold({
      id: "order:1",
      debit: account.customer(6),
      credit: account.merchant.sales,
      amountPaisa: 60,
    });
    expect(
      await accounts.reverse({ originalId: "cashin-2", adminUserId: 9, reason: "fake" }),
    ).toEqual({ ok: false, code: "insufficient_funds", availablePaisa: 40, shortfallPaisa: 60 });
    const reversals = (await ledger.journal()).entries.filter((e) => e.kind === "reversal");
    expect(reversals).toHaveLength(1);
    expect((await ledger.balance(account.agent(7))).availablePaisa).toBe(400);
    expect((await ledger.check()).ok).toBe(true);
  });

  it("shows no movements rather than a wrong list when the account's own entries are too many to read", async () => {
    const { ledger, accounts } = setup();
    await accounts.demoCredit({ id: "demo-5", to: "customer", userId: 5, amountPaisa: 100 });
    const few = await accounts.customerSummary(5);
    expect(few).toMatchObject({ complete: true, movements: [{ id: "demo-5" }] });
    // Others' business is not read (the account's own index): 5,001 of it changes nothing.
    for (let i = 0; i < 5_001; i++) {
      await ledger.transfer({
        id: `noise-${i}`,
        debit: account.merchant.funding,
        credit: account.merchant.fees,
        amountPaisa: 1,
        kind: "adjustment",
        reason: "noise",
      });
    }
    expect(await accounts.customerSummary(5)).toMatchObject({
      complete: true,
      movements: [{ id: "demo-5" }],
    });
    expect((await accounts.agentSummary(7)).complete).toBe(true);
    // The customer's own 5,001 movements within the last hour cannot be read whole.
    for (let i = 0; i < 5_001; i++) {
      await ledger.transfer({
        id: `own-${i}`,
        debit: account.merchant.funding,
        credit: account.customer(5),
        amountPaisa: 1,
        kind: "adjustment",
        reason: "noise",
      });
    }
    const many = await accounts.customerSummary(5);
    expect(many).toMatchObject({ complete: false, movements: [] });
    expect(many.balance.availablePaisa).toBe(5_101);
  });
});

describe("a blocked person (issue 29)", () => {
  it("may not spend, whatever the mode, registration or staff list says", () => {
    for (const mode of ["prepaid", "staff"] as const) {
      for (const registered of [true, false]) {
        for (const staff of [true, false]) {
          expect(accessVerdict(mode, { registered, staff, blocked: true })).toBe("blocked");
        }
      }
    }
    expect(accessVerdict("prepaid", { registered: true, staff: false, blocked: false })).toBe("ok");
  });

  it("keeps the name and the time of a registration through the service", async () => {
    let now = 1_000;
    const accounts = createAccounts({
      ledger: createMemoryLedger(),
      store: createMemoryAccounts(),
      now: () => now,
    });
    await accounts.register(5, phone("9779800000005"), { name: "Ram", channel: "telegram" });
    now = 2_000;
    await accounts.register(5, phone("9779800000005"), { name: "Ram B", channel: "telegram" });
    expect(await accounts.profileOf(5)).toEqual({
      name: "Ram B",
      channel: "telegram",
      firstAt: 1_000,
      at: 2_000,
    });
    // Without who, only the phone (local mode's demo users).
    await accounts.register(6, phone("9779800000006"));
    expect(await accounts.profileOf(6)).toBeNull();
    expect(await accounts.phoneOf(6)).toBe("9779800000006");
  });
});
