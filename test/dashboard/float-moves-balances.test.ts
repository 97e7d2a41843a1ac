import { beforeEach, describe, expect, it } from "vitest";
import { rs } from "../../src/dashboard/html.ts";
import {
  account,
  changeOf,
  type JournalEntry,
  type LedgerStore,
  type TransferInput,
} from "../../src/ledger/index.ts";
import { ADMIN, type client, form, useActions } from "../support/dashboard-actions.ts";

/**
 * An approval's "Float in the books X → Y" and its audit line's balances before and after
 * (review of session 29): they were two balance reads, one before the approval booked and one
 * after, so an order's float debit or another transfer landing between them was shown to the
 * admin and written in the audit as if it were the movement. Now both are the books' record of the
 * booking itself (ledger postedAround: the read index's member written in the booking's step),
 * so they differ by exactly the movement's amount, even for a POST that found it booked already.
 * Real Redis and HTTP; other money moves made at the moment the approval books (the back office's
 * ledger wrapped around the real one), deterministically.
 */

const h = useActions();
const ADMIN_B = 3202;
const { float, sales } = account.merchant;

beforeEach(() => {
  h.admins.clear();
  for (const a of [ADMIN, ADMIN_B]) h.admins.add(a);
});

async function propose(c: ReturnType<typeof client>, fields: Record<string, string>) {
  const res = await c.get("/dashboard/books");
  const key = /name="key" value="([A-Za-z0-9_-]{16,64})"/.exec(await res.text())?.[1];
  if (!key) throw new Error("no propose form on the books page");
  const posted = await c.post("/dashboard/books/float", {}, form({ key, ...fields }));
  expect(posted.status).toBe(200);
  return key;
}

const approve = async (c: ReturnType<typeof client>, id: string) => {
  const res = await c.post("/dashboard/books/float/approve", {}, form({ id }));
  expect(res.status).toBe(200);
  return res.text();
};

/** An order's float debit (the aggregator paid for it), as the orders book it. */
const orderDebit = (ref: string, amountPaisa: number): TransferInput => ({
  id: `order:${ref}:float`,
  debit: sales,
  credit: float,
  amountPaisa,
  kind: "float_debit",
  reference: ref,
});

async function book(l: LedgerStore, t: TransferInput) {
  const r = await l.transfer(t);
  if (!r.ok || r.duplicate) throw new Error(`not booked: ${t.id}`);
}

/** The back office's ledger, booking `around` right before and right after the movement's own booking. */
function interleaved(id: string, around: (when: "before" | "after") => Promise<void>) {
  const real = h.deps.ledger;
  h.deps.ledger = {
    ...real,
    transfer: async (t) => {
      if (t.id !== `float-move:${id}`) return real.transfer(t);
      await around("before");
      const r = await real.transfer(t);
      await around("after");
      return r;
    },
  };
  return () => {
    h.deps.ledger = real;
  };
}

/** The oracle: `acc`'s posted balance right before and after the entry `id`, from the whole journal. */
async function atEntry(id: string, acc: typeof float) {
  let posted = 0;
  let after: string | undefined;
  for (;;) {
    const page = await h.ledger.journal(after ? { after } : {});
    for (const e of page.entries as JournalEntry[]) {
      if (e.debit !== acc && e.credit !== acc) continue;
      const was = posted;
      posted += changeOf(e, acc).posted;
      if (e.id === id) return { before: was, after: posted };
    }
    if (!page.next) throw new Error(`no entry ${id}`);
    after = page.next;
  }
}

async function approvalsOf(id: string) {
  return (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 500))
    .map((l) => JSON.parse(l))
    .filter((e) => e.action === "float_approve" && String(e.detail).includes(id));
}

/** The page's "Float in the books …" figures. */
const floatFact = (page: string) =>
  /Float in the books[^<]*<\/th><td>([^<]*)<\/td>/.exec(page)?.[1];

describe("an approval's float before and after", () => {
  it("are its booking's, by exactly its amount, though orders debit the float around it", async () => {
    const key = await propose(await h.login(ADMIN), {
      direction: "refill",
      amount: "5,000",
      reason: "bank deposit",
    });
    const transfer = `float-move:${key}`;
    let n = 0;
    const restore = interleaved(key, async (when) => {
      n += 1;
      await book(h.ledger, orderDebit(`mid-${key}-${when}`, when === "before" ? 12_345 : 67_890));
    });
    const checker = await h.login(ADMIN_B);
    let said: string;
    try {
      said = await approve(checker, key);
    } finally {
      restore();
    }
    expect(n).toBe(2); // the orders did land between the approval's reads and around its booking
    expect(said).toContain("Approved and booked.");

    const at = await atEntry(transfer, float);
    expect(at.after - at.before).toBe(-500_000); // debit-normal: a refill debits the float
    const funding = await atEntry(transfer, account.merchant.funding);
    // The page: the books' float (debit-normal, shown positive) at the booking, +Rs 5,000 exactly.
    expect(floatFact(said)).toBe(`${rs(-at.before)} → ${rs(-at.after)}`);
    // The audit line: both accounts at the booking, never the orders' money.
    const lines = await approvalsOf(key);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      userId: ADMIN_B,
      before: { [float]: at.before, [account.merchant.funding]: funding.before, proposal: "open" },
      after: {
        [float]: at.after,
        [account.merchant.funding]: funding.after,
        proposal: `approved by ${ADMIN_B}`,
      },
    });
    expect(lines[0].detail).toContain("balances at its booking");

    // Approved again after more orders: it booked nothing, and shows the booking's figures.
    await book(h.ledger, orderDebit(`later-${key}`, 4_321));
    const again = await approve(checker, key);
    expect(again).toContain("this approval booked nothing more");
    expect(floatFact(again)).toBe(`${rs(-at.before)} → ${rs(-at.after)}`);
    const repeat = (await approvalsOf(key)).filter((e) =>
      String(e.detail).includes("booked nothing"),
    );
    expect(repeat).toHaveLength(1);
    // Its own before and after: the proposal's state only, it moved nothing (review s30 F1); the
    // booking's figures in its words, named the booking's.
    expect(repeat[0].before).toEqual({ proposal: `approved by ${ADMIN_B}` });
    expect(repeat[0].after).toEqual({ proposal: `approved by ${ADMIN_B}` });
    expect(repeat[0].detail).toContain("found booked already");
    expect(repeat[0].detail).toContain(
      `not this POST's: ${float} ${at.before} → ${at.after}, ${account.merchant.funding} ${funding.before} → ${funding.after}`,
    );
  });
});
