import { beforeEach, describe, expect, it } from "vitest";
import { approvalRule, createFloatMoves, type FloatMove } from "../../src/dashboard/float-moves.ts";
import { rs } from "../../src/dashboard/html.ts";
import { memoryKv } from "../../src/dashboard/index.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { account, createMemoryLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { type AdminAlert, adminAlertReader } from "../support/books.ts";
import {
  ADMIN,
  AGENT,
  client,
  expectBooksBalanced,
  form,
  useActions,
} from "../support/dashboard-actions.ts";

/**
 * The float's movements on the back office's books page (h-float), over real Redis and HTTP: a
 * refill of the aggregator wallet proposed by one admin and approved by another is booked once
 * (the transfer's id is the proposal's), the books' float moves by it and the books check against
 * the aggregator's balance raised by as much finds no drift. The proposer cannot approve their own
 * (unless the only admin), a rejected proposal is never booked, a bad form is a 400 naming the
 * field, and only admins, from our origin, by POST, get there. Every step audited.
 */

const h = useActions();
const ADMIN_B = 3002;
const ADMIN_C = 3003;

beforeEach(() => {
  h.admins.clear();
  for (const a of [ADMIN, ADMIN_B, ADMIN_C]) h.admins.add(a);
});

/** The propose form's fresh key on the books page. */
async function keyOf(c: ReturnType<typeof client>): Promise<string> {
  const res = await c.get("/dashboard/books");
  expect(res.status).toBe(200);
  const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(await res.text())?.[1];
  if (!key) throw new Error("no propose form on the books page");
  return key;
}

async function propose(c: ReturnType<typeof client>, fields: Record<string, string>) {
  const key = await keyOf(c);
  const res = await c.post("/dashboard/books/float", {}, form({ key, ...fields }));
  return { key, res, text: await res.text() };
}

const approve = (c: ReturnType<typeof client>, id: string) =>
  c.post("/dashboard/books/float/approve", {}, form({ id }));
const reject = (c: ReturnType<typeof client>, id: string) =>
  c.post("/dashboard/books/float/reject", {}, form({ id }));

/** An approval whose booking was cut off (a crash, a ledger timeout): the decision, no transfer. */
async function cutOffApproval(id: string, by: number) {
  const cutOff = createFloatMoves({
    kv: h.deps.kv,
    keys: dashboardKeys(h.deps.prefix),
    ledger: {
      transfer: async () => {
        throw new Error("the booking cut off");
      },
    },
  });
  await expect(cutOff.approve(id, by, Date.now(), approvalRule(undefined))).rejects.toThrow(
    "cut off",
  );
}

const bookedOf = async (id: string) =>
  (await h.ledger.journal()).entries.filter((e) => e.id === `float-move:${id}`);

/** The books' float (debit-normal). */
const floatNow = async () => -(await h.ledger.balance(account.merchant.float)).postedPaisa;

let reader: (() => Promise<AdminAlert[]>) | undefined;
/** The admin alerts queued whose note names `text`, as [chat, note]. */
async function alertsOf(text: string): Promise<Array<[number, string]>> {
  reader ??= adminAlertReader(h.redis, h.deps.prefix);
  return (await reader())
    .filter((a) => a.note?.includes(text))
    .map((a): [number, string] => [a.chatId, a.note ?? ""]);
}

async function auditOf(action: string, id: string) {
  return (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 500))
    .map((l) => JSON.parse(l))
    .filter((e) => e.action === action && String(e.detail).includes(id));
}

describe("a refill of the aggregator wallet", () => {
  it("proposed by one admin, approved by another: booked once, the float moves, the check finds no drift", async () => {
    // The books agree with the aggregator to start with (the opening booked, nothing in flight).
    await h.books.check([ADMIN]);
    h.wallet.paisa = (await h.books.report()).float.expectedPaisa;
    expect((await h.books.check([ADMIN])).lastCheck).toMatchObject({
      verdict: "within",
      driftPaisa: 0,
    });
    const floatBefore = await floatNow();

    const maker = await h.login(ADMIN);
    const p = await propose(maker, {
      direction: "refill",
      amount: "25,000.50",
      reason: "bank  deposit of 28 Nov",
      reference: "UTR123456789012",
    });
    expect(p.res.status).toBe(200);
    expect(p.text).toContain("Nothing moves until another admin approves it");
    // Proposed only: nothing booked, and the same form sent again proposes nothing more.
    expect(await bookedOf(p.key)).toHaveLength(0);
    expect(await floatNow()).toBe(floatBefore);
    const again = await maker.post(
      "/dashboard/books/float",
      {},
      form({ key: p.key, direction: "refill", amount: "25000.50", reason: "bank deposit" }),
    );
    expect(await again.text()).toContain("This form was sent already");
    // The other admins are told once in the chat that it waits; the proposer is not.
    const waiting = await alertsOf("UTR123456789012");
    expect(waiting.map(([chat]) => chat).sort()).toEqual([ADMIN_B, ADMIN_C]);
    expect(waiting[0]?.[1]).toBe(
      `Admin ${ADMIN} proposes a refill of the aggregator wallet of Rs 25,000.50 (bank deposit of 28 Nov; ref UTR123456789012), to be booked as float-move:${p.key}. Nothing is booked until another admin approves it on the back office's books page (/dashboard).`,
    );

    // The maker's own page offers no approval; the checker's does.
    const makerPage = await (await maker.get("/dashboard/books")).text();
    expect(makerPage).toContain("Waits for another admin's approval.");
    expect(makerPage.split(`value="${p.key}"`).length - 1).toBe(1); // the Withdraw button only
    const checker = await h.login(ADMIN_B);
    const checkerPage = await (await checker.get("/dashboard/books")).text();
    expect(checkerPage).toContain("Approve: book Rs 25000.50");
    expect(checkerPage).toContain("UTR123456789012");

    // Approved from two tabs at once, and once more: one booking.
    const other = await h.login(ADMIN_B);
    const answers = await Promise.all([approve(checker, p.key), approve(other, p.key)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const said = await Promise.all(answers.map((r) => r.text()));
    expect(said.filter((t) => t.includes("Approved and booked."))).toHaveLength(1);
    expect(said.filter((t) => t.includes("this approval booked nothing more"))).toHaveLength(1);
    expect((await approve(checker, p.key)).status).toBe(200);
    // The proposer is told once that it was approved and booked.
    expect(await alertsOf(`approved your refill`)).toEqual([
      [
        ADMIN,
        `Admin ${ADMIN_B} approved your refill of the aggregator wallet of Rs 25,000.50 (bank deposit of 28 Nov; ref UTR123456789012): booked as float-move:${p.key}.`,
      ],
    ]);

    const booked = await bookedOf(p.key);
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({
      kind: "adjustment",
      debit: account.merchant.float,
      credit: account.merchant.funding,
      amountPaisa: 2_500_050,
      reference: "UTR123456789012",
    });
    expect(booked[0]?.reason).toContain("refill of the aggregator wallet: bank deposit of 28 Nov");
    await expectBooksBalanced(h.ledger);
    expect(await floatNow()).toBe(floatBefore + 2_500_050);

    // The books see the refill; the aggregator not raised yet is a drift of exactly the refill.
    expect((await h.books.report()).float.driftPaisa).toBe(-2_500_050);
    h.wallet.paisa += 2_500_050;
    const r = await h.books.check([ADMIN]);
    expect(r.lastCheck).toMatchObject({ verdict: "within", driftPaisa: 0 });
    expect(r.float.booksPaisa).toBe(floatBefore + 2_500_050);

    // The books page shows the float and the decision.
    const page = await (await checker.get("/dashboard/books")).text();
    expect(page).toContain(`approved by admin ${ADMIN_B}`);
    expect(page).toContain(`booked as float-move:${p.key}`);
    expect(page).toContain(`In the books</th><td>${rs(floatBefore + 2_500_050)}</td>`);
    expect(page).toContain("Drift</th><td>Rs 0.00</td>");

    // Audited: the proposal by its maker, the approvals with the balances before and after.
    const proposed = await auditOf("float_propose", p.key);
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatchObject({ userId: ADMIN, after: { proposal: "open" } });
    const approvals = await auditOf("float_approve", p.key);
    expect(approvals).toHaveLength(3);
    const first = approvals.find((e) => !String(e.detail).includes("booked nothing"));
    expect(first).toMatchObject({
      userId: ADMIN_B,
      before: { "merchant:float": -floatBefore, proposal: "open" },
      after: {
        "merchant:float": -(floatBefore + 2_500_050),
        proposal: `approved by ${ADMIN_B}`,
      },
    });
  });
});

describe("maker-checker", () => {
  it("the proposer's own approval is refused; a rejected proposal cannot be approved", async () => {
    const maker = await h.login(ADMIN);
    const p = await propose(maker, { direction: "down", amount: "120", reason: "double deposit" });
    expect(p.res.status).toBe(200);
    const own = await approve(maker, p.key);
    expect(own.status).toBe(409);
    expect(await own.text()).toContain("Your own proposal waits for another admin");

    const checker = await h.login(ADMIN_B);
    const rejected = await reject(checker, p.key);
    expect(rejected.status).toBe(200);
    expect(await rejected.text()).toContain("The proposal was rejected. Nothing was booked.");
    expect(await alertsOf("rejected your correction down")).toEqual([
      [
        ADMIN,
        `Admin ${ADMIN_B} rejected your correction down of the float of Rs 120 (double deposit) (float-move:${p.key}): nothing was booked.`,
      ],
    ]);
    const late = await approve(await h.login(ADMIN_C), p.key);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(`rejected by admin ${ADMIN_B}`);
    expect((await reject(maker, p.key)).status).toBe(409);
    expect(await bookedOf(p.key)).toHaveLength(0);
    expect(await auditOf("float_reject", p.key)).toMatchObject([
      { userId: ADMIN_B, before: { proposal: "open" }, after: { proposal: "rejected" } },
    ]);
    const page = await (await checker.get("/dashboard/books")).text();
    expect(page).toContain(`rejected by admin ${ADMIN_B}`);
  });

  it("an approval and a rejection at once: exactly one stands, booked only if it is the approval", async () => {
    const p = await propose(await h.login(ADMIN), {
      direction: "up",
      amount: "75.25",
      reason: "commission credited",
    });
    const [a, r] = await Promise.all([
      approve(await h.login(ADMIN_B), p.key),
      reject(await h.login(ADMIN_C), p.key),
    ]);
    expect([a.status, r.status].sort()).toEqual([200, 409]);
    const booked = await bookedOf(p.key);
    expect(booked).toHaveLength(a.status === 200 ? 1 : 0);
    if (a.status === 200) {
      expect(booked[0]).toMatchObject({
        debit: account.merchant.float,
        credit: account.merchant.adjustments,
        amountPaisa: 7_525,
      });
    }
    await expectBooksBalanced(h.ledger);
  });

  it("the only admin approves their own; a withdrawn proposal is not booked", async () => {
    h.admins.clear();
    h.admins.add(ADMIN);
    const c = await h.login(ADMIN);
    const p = await propose(c, { direction: "down", amount: "10", reason: "bank fee" });
    expect(await (await c.get("/dashboard/books")).text()).toContain("Approve: book Rs 10.00");
    expect((await approve(c, p.key)).status).toBe(200);
    expect(await bookedOf(p.key)).toMatchObject([
      { debit: account.merchant.adjustments, credit: account.merchant.float, amountPaisa: 1_000 },
    ]);
    const w = await propose(c, { direction: "refill", amount: "10", reason: "typo" });
    const withdrawn = await reject(c, w.key);
    expect(await withdrawn.text()).toContain("The proposal was withdrawn.");
    expect((await approve(c, w.key)).status).toBe(409);
    expect(await bookedOf(w.key)).toHaveLength(0);
  });

  it("an approval whose booking was cut off is shown so, and booked by the next approval", async () => {
    const maker = await h.login(ADMIN);
    const p = await propose(maker, { direction: "refill", amount: "300", reason: "deposit" });
    // What a crash between the approval's write and its booking leaves: the decision, no transfer.
    await cutOffApproval(p.key, ADMIN_B);
    const page = await (await maker.get("/dashboard/books")).text();
    expect(page).toContain("not in the books yet");
    // The approval stands: whoever asks books it (the proposer too), the checker's name in it.
    expect((await approve(maker, p.key)).status).toBe(200);
    const booked = await bookedOf(p.key);
    expect(booked).toHaveLength(1);
    expect(booked[0]?.reason).toContain(`approved by ${ADMIN_B}`);
  });
});

describe("the form and who may use it", () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ["letters", { direction: "refill", amount: "abc", reason: "deposit" }, "amount:"],
    ["zero", { direction: "refill", amount: "0", reason: "deposit" }, "amount:"],
    ["negative", { direction: "refill", amount: "-5", reason: "deposit" }, "amount:"],
    ["three decimals", { direction: "refill", amount: "1.234", reason: "deposit" }, "amount:"],
    ["no reason", { direction: "refill", amount: "10", reason: " " }, "reason:"],
    ["short reason", { direction: "up", amount: "10", reason: "ab" }, "reason:"],
    ["no direction", { amount: "10", reason: "deposit" }, "direction:"],
    ["bad direction", { direction: "sideways", amount: "10", reason: "deposit" }, "direction:"],
    [
      "bad reference",
      { direction: "refill", amount: "10", reason: "ok", reference: "<b>x" },
      "reference:",
    ],
  ];
  it.each(cases)("%s: a 400 naming the field, nothing proposed", async (_, fields, named) => {
    const c = await h.login(ADMIN);
    const p = await propose(c, fields);
    expect(p.res.status).toBe(400);
    expect(p.text).toContain(named);
    expect(p.text).not.toContain("<b>x");
    expect(await h.deps.kv.get(dashboardKeys(h.deps.prefix).floatMove(p.key))).toBeNull();
  });

  it("a reason with markup is shown escaped", async () => {
    const c = await h.login(ADMIN);
    const p = await propose(c, { direction: "up", amount: "1", reason: "<script>x</script>" });
    expect(p.res.status).toBe(200);
    const page = await (await c.get("/dashboard/books")).text();
    expect(page).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(page).not.toContain("<script>x");
  });

  it("agents, strangers, other origins and GETs are refused; nothing is proposed or booked", async () => {
    const p = await propose(await h.login(ADMIN), {
      direction: "refill",
      amount: "50",
      reason: "deposit",
    });
    const agent = await h.login(AGENT);
    expect((await approve(agent, p.key)).status).toBe(403);
    expect((await reject(agent, p.key)).status).toBe(403);
    const key = "k".repeat(22);
    const fields = form({ key, direction: "refill", amount: "50", reason: "deposit" });
    expect((await agent.post("/dashboard/books/float", {}, fields)).status).toBe(403);
    expect(
      (await client(h.url).post("/dashboard/books/float/approve", {}, form({ id: p.key }))).status,
    ).toBe(401);
    const checker = await h.login(ADMIN_B);
    const foreign = await checker.post(
      "/dashboard/books/float/approve",
      { origin: "https://evil.example" },
      form({ id: p.key }),
    );
    expect(foreign.status).toBe(403);
    expect((await checker.get(`/dashboard/books/float/approve?id=${p.key}`)).status).toBe(404);
    expect(await h.deps.kv.get(dashboardKeys(h.deps.prefix).floatMove(key))).toBeNull();
    expect(await bookedOf(p.key)).toHaveLength(0);
  });
});

describe("the store in memory (local mode without Redis)", () => {
  it("two approvals at once book once; a rejection after it is refused", async () => {
    const ledger: LedgerStore = createMemoryLedger();
    const kv = memoryKv();
    const keys = dashboardKeys("m:");
    const moves = createFloatMoves({ kv, keys, ledger });
    const move: FloatMove = {
      id: "memory-proposal-0001",
      direction: "refill",
      amountPaisa: 50_000,
      reason: "deposit",
      by: ADMIN,
      at: 1,
    };
    expect((await moves.propose(move)).created).toBe(true);
    expect((await moves.propose(move)).created).toBe(false);
    // Listed once: a replay pushes no copy that would crowd older proposals out of the list.
    expect(await kv.lhead(keys.floatMoves, 10)).toEqual([move.id]);
    const rule = approvalRule({ ids: () => [ADMIN, ADMIN_B], same: (a, b) => a === b });
    expect(await moves.approve(move.id, ADMIN, 2, rule)).toEqual({
      ok: false,
      code: "own_proposal",
    });
    const both = await Promise.all([
      moves.approve(move.id, ADMIN_B, 3, rule),
      moves.approve(move.id, ADMIN_B, 4, rule),
    ]);
    expect(both.map((r) => r.ok && r.bookedNow).sort()).toEqual([false, true]);
    expect((await moves.reject(move.id, ADMIN_B, 5)).ok).toBe(false);
    expect((await ledger.journal()).entries.map((e) => e.id)).toEqual([
      "float-move:memory-proposal-0001",
    ]);
    expect((await moves.list()).records).toHaveLength(1);
  });
});

describe("who is one person (ADMIN_IDS `=` groups)", () => {
  it("a proposer's other chat cannot approve; a person alone may approve their own", () => {
    const WA = 9_779_800_000_001;
    const same = (a: number, b: number) =>
      a === b || (a === ADMIN && b === WA) || (a === WA && b === ADMIN);
    const two = approvalRule({ ids: () => [ADMIN, WA, ADMIN_B], same });
    expect(two.mayApprove(ADMIN, WA)).toBe(false);
    expect(two.mayApprove(ADMIN, ADMIN)).toBe(false);
    expect(two.mayApprove(ADMIN, ADMIN_B)).toBe(true);
    const alone = approvalRule({ ids: () => [ADMIN, WA], same });
    expect(alone.mayApprove(ADMIN, WA)).toBe(true);
    // Not told who the admins are: never their own.
    expect(approvalRule(undefined).mayApprove(ADMIN, ADMIN)).toBe(false);
  });
});
