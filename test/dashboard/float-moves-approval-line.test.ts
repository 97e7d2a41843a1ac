import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { ADMIN, type client, form, useActions } from "../support/dashboard-actions.ts";
import { loggedLines } from "../support/log-lines.ts";

/**
 * The float approval's audit line (review s30-money, F1-F3):
 * - F1: an approval that found the transfer booked already wrote the booking's balances as its
 *   own before and after, so a double click or a second admin's approval showed the refill again
 *   on the audit page and in the CSV's columns: summed over the float_approve rows, the float
 *   moved by the amount twice. Now such a line keeps the proposal's state only, the booking's
 *   figures in its words.
 * - F2: a long reason pushed "balances at its booking (<seq>)" out of the 300-character detail.
 * - F3: the figures read failing after the booking turned the booked approval into a 500.
 * Real Redis and HTTP.
 */

const h = useActions();
const ADMIN_B = 3302;
const ADMIN_C = 3303;
const { float, funding } = account.merchant;
type Client = ReturnType<typeof client>;
type Change = Record<string, number | string>;

beforeEach(() => {
  h.admins.clear();
  for (const a of [ADMIN, ADMIN_B, ADMIN_C]) h.admins.add(a);
});

const newKey = (n = 24) => randomBytes(48).toString("base64url").slice(0, n);

async function propose(c: Client, fields: Record<string, string>, key = newKey()) {
  const posted = await c.post("/dashboard/books/float", {}, form({ key, ...fields }));
  expect(posted.status).toBe(200);
  return key;
}

const approve = (c: Client, id: string) =>
  c.post("/dashboard/books/float/approve", {}, form({ id }));

async function approvalsOf(id: string) {
  return (await h.deps.kv.lhead(`${h.deps.prefix}dash:audit`, 500))
    .map((l) => JSON.parse(l))
    .filter((e) => e.action === "float_approve" && String(e.detail).includes(id));
}

/** What a reader adding up before → after differences over rows gets for `acc`. */
function moved(rows: ReadonlyArray<{ before?: Change; after?: Change }>, acc: string) {
  let sum = 0;
  for (const r of rows) {
    const [b, a] = [r.before?.[acc], r.after?.[acc]];
    expect(b === undefined).toBe(a === undefined); // a figure on one side only reads as a change
    if (b !== undefined) sum += Number(a) - Number(b);
  }
  return sum;
}

/** RFC 4180 rows (audit-csv.ts: CRLF, quoted fields with doubled quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (quoted || (ch !== "," && ch !== "\r")) {
      cell += ch;
    } else {
      row.push(cell);
      cell = "";
      if (ch === "\r") {
        rows.push(row);
        row = [];
        i++; // its "\n"
      }
    }
  }
  return rows;
}

/** The CSV's "k=v; k=v" before/after column as a record. */
const pairsOf = (v: string): Change =>
  Object.fromEntries(
    v
      .split("; ")
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]),
  );

const floatFact = (page: string) =>
  /Float in the books[^<]*<\/th><td>([^<]*)<\/td>/.exec(page)?.[1];

describe("an approval that found its transfer booked already", () => {
  it("audits no balance change of its own: summed over the rows (page and CSV), the float moves once", async () => {
    const key = await propose(await h.login(ADMIN), {
      direction: "refill",
      amount: "5,000",
      reason: "bank deposit",
    });
    const b = await h.login(ADMIN_B);
    // A double click (two at once), then a second admin's approval later.
    const twice = await Promise.all([approve(b, key), approve(b, key)]);
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    const later = await approve(await h.login(ADMIN_C), key);
    expect(later.status).toBe(200);
    expect(await later.text()).toContain("this approval booked nothing more");
    const entry = await h.ledger.entryOf(`float-move:${key}`);
    if (!entry) throw new Error("not booked");

    const lines = await approvalsOf(key);
    expect(lines).toHaveLength(3);
    expect(moved(lines, float)).toBe(-500_000); // debit-normal: a refill debits the float, once
    expect(moved(lines, funding)).toBe(500_000);
    const found = lines.filter((e) => String(e.detail).includes("booked nothing"));
    expect(found).toHaveLength(2);
    for (const e of found) {
      expect(Object.keys(e.before)).toEqual(["proposal"]);
      expect(Object.keys(e.after)).toEqual(["proposal"]);
      // The booking's figures in words, named the booking's, with its seq.
      expect(e.detail).toContain(`the booking's posted paisa (${entry.seq}), not this POST's: `);
      expect(e.detail).toMatch(/merchant:float -?\d+ → -?\d+, merchant:funding -?\d+ → -?\d+$/);
    }
    const booking = lines.find((e) => !String(e.detail).includes("booked nothing"));
    const [fb, fa] = [booking.before[float], booking.after[float]];
    expect(found[0].detail).toContain(`merchant:float ${fb} → ${fa}`);

    // The CSV export's columns: the same once.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = `from=${day(h.clock.now - 86_400_000)}&to=${day(h.clock.now + 86_400_000)}`;
    const res = await b.get(`/dashboard/audit.csv?${range}`);
    expect(res.status).toBe(200);
    const [head, ...rows] = csvRows(await res.text());
    const col = (name: string) => head?.indexOf(name) ?? -1;
    const approvals = rows
      .filter((r) => r[col("action")] === "float_approve" && r[col("detail")]?.includes(key))
      .map((r) => ({
        before: pairsOf(r[col("before")] ?? ""),
        after: pairsOf(r[col("after")] ?? ""),
      }));
    expect(approvals).toHaveLength(3);
    expect(moved(approvals, float)).toBe(-500_000);
    expect(moved(approvals, funding)).toBe(500_000);
  });
});

describe("the booking's audit line", () => {
  it("keeps whose balances it carries however long the reason and reference", async () => {
    const key = newKey(64);
    await propose(
      await h.login(ADMIN),
      { direction: "refill", amount: "5,000", reason: "r".repeat(200), reference: "U".repeat(64) },
      key,
    );
    expect((await approve(await h.login(ADMIN_B), key)).status).toBe(200);
    const again = await approve(await h.login(ADMIN_C), key);
    expect(await again.text()).toContain("this approval booked nothing more");
    const entry = await h.ledger.entryOf(`float-move:${key}`);
    if (!entry) throw new Error("not booked");
    const lines = await approvalsOf(key);
    const booking = lines.find((e) => !String(e.detail).includes("booked nothing"));
    expect(booking.detail.length).toBeLessThanOrEqual(300);
    expect(booking.detail).toMatch(new RegExp(`…: balances at its booking \\(${entry.seq}\\)$`));
    expect(booking.detail.startsWith(`float-move:${key}: refill`)).toBe(true);
    expect(booking.before[float]).toBeTypeOf("number");
    const found = lines.find((e) => String(e.detail).includes("booked nothing"));
    expect(found.detail.length).toBeLessThanOrEqual(300);
    expect(found.detail).toContain(`the booking's posted paisa (${entry.seq}), not this POST's: `);
  });
});

describe("a failed read of the booking's figures", () => {
  it("leaves the booked approval a 200 with its audit line, figures not shown, logged", async () => {
    const key = await propose(await h.login(ADMIN), {
      direction: "refill",
      amount: "5,000",
      reason: "bank deposit",
    });
    const [real, realLogger] = [h.deps.ledger, h.deps.logger];
    const log = loggedLines({ secrets: [] });
    h.deps.logger = log.logger;
    h.deps.ledger = {
      ...real,
      accountEntries: async () => {
        throw new Error("journal read failed");
      },
    };
    let said: string;
    let status: number;
    try {
      const res = await approve(await h.login(ADMIN_B), key);
      [status, said] = [res.status, await res.text()];
    } finally {
      h.deps.ledger = real;
      h.deps.logger = realLogger;
    }
    expect(status).toBe(200);
    expect(said).toContain("Approved and booked.");
    expect(floatFact(said)).toContain("not shown");
    expect(await h.ledger.entryOf(`float-move:${key}`)).not.toBeNull();
    const lines = await approvalsOf(key);
    expect(lines).toHaveLength(1);
    expect(lines[0].detail).toContain("its balances not read");
    expect(lines[0].before).toEqual({ proposal: "open" });
    expect(lines[0].after).toEqual({ proposal: `approved by ${ADMIN_B}` });
    const logged = log.lines.filter((l) => String(l.msg).includes("balances at the booking"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, transfer: `float-move:${key}` });
    expect(String(logged[0]?.err)).toContain("journal read failed");
  });
});
