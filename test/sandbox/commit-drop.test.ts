import { afterEach, describe, expect, it } from "vitest";
import {
  createProviderClient,
  type ExecuteTerms,
  type TermsClient,
} from "../support/execute-terms.ts";
import { type RunningSandbox, seeded, startSandbox, TOKEN } from "../support/sandbox.ts";

/**
 * "Commit then drop": the execute is applied but the client never sees the answer. Whatever the
 * client does next, the sandbox's ledger holds exactly one debit per reference.
 */

const START = 100_000_00;
let run: RunningSandbox | undefined;
let client: TermsClient | undefined;

afterEach(async () => {
  await client?.close();
  await run?.close();
  client = undefined;
  run = undefined;
});

const mobile = (ref: string, amountPaisa = 10_000): ExecuteTerms => ({
  category: "mobile",
  operatorId: 5,
  operatorTypeId: 1,
  connectionNo: "9841234567",
  referenceNo: ref,
  amountPaisa,
});

function debitsByReference(r: RunningSandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of r.sandbox.ledger(TOKEN)) {
    counts.set(row.referenceNo, (counts.get(row.referenceNo) ?? 0) + 1);
  }
  return counts;
}

describe("commit then drop", () => {
  it("applies every dropped execute once and refuses the client's retries", async () => {
    run = await startSandbox({ faults: { [TOKEN]: { commitThenDrop: 1 } } });
    client = createProviderClient({ baseUrl: run.base, token: TOKEN, executeTimeoutMs: 2_000 });
    const refs = Array.from({ length: 20 }, (_, i) => String(5000 + i));

    const first = await Promise.all(refs.map((ref) => client!.execute(mobile(ref))));
    expect(first.map((r) => r.kind)).toEqual(refs.map(() => "unknown"));
    expect(first.every((r) => r.kind === "unknown" && r.reason === "network")).toBe(true);

    // A naive client re-sends the same orders: each is refused as a duplicate.
    run.sandbox.setFaults(TOKEN, { commitThenDrop: 0 });
    const again = await Promise.all(refs.map((ref) => client!.execute(mobile(ref))));
    for (const r of again) {
      expect(r).toMatchObject({ kind: "rejected", httpStatus: 400 });
      expect(r.kind === "rejected" && r.message).toMatch(/Duplicate reference_no/);
    }

    const debits = debitsByReference(run);
    expect([...debits.keys()].sort()).toEqual(refs);
    expect([...debits.values()].every((n) => n === 1)).toBe(true);
    expect(run.sandbox.balance(TOKEN)).toBe(START - 20 * 10_000);
    // The reconciler's view: each reference exists at the provider.
    const status = await client.statusByReference("np", refs[0]!);
    expect(status.referenceNo).toBe(refs[0]);
  });

  it("keeps one debit per reference with a share of drops and concurrent duplicates", async () => {
    run = await startSandbox({
      faults: { [TOKEN]: { commitThenDrop: 0.5 } },
      random: seeded(42),
      rateLimitPerSecond: 0,
    });
    client = createProviderClient({ baseUrl: run.base, token: TOKEN, executeTimeoutMs: 2_000 });
    const refs = Array.from({ length: 30 }, (_, i) => String(7000 + i));
    // Each reference sent three times at once, as a client retrying blindly would.
    const results = await Promise.all(
      refs.flatMap((ref) => [1, 2, 3].map(() => client!.execute(mobile(ref, 20_000)))),
    );
    const kinds = new Set(results.map((r) => r.kind));
    expect(kinds).toEqual(new Set(["accepted", "unknown", "rejected"]));
    const accepted = results.filter((r) => r.kind === "accepted").length;
    const unknown = results.filter((r) => r.kind === "unknown").length;
    // Every reference was applied exactly once: its first request was accepted or dropped.
    expect(accepted + unknown).toBe(30);
    const debits = debitsByReference(run);
    expect(debits.size).toBe(30);
    expect([...debits.values()].every((n) => n === 1)).toBe(true);
    expect(run.sandbox.balance(TOKEN)).toBe(START - 30 * 20_000);
  });

  it("can hang instead of resetting: the client times out, the debit stays single", async () => {
    run = await startSandbox({
      faults: { [TOKEN]: { commitThenDrop: 1 } },
      dropMode: "hang",
    });
    client = createProviderClient({ baseUrl: run.base, token: TOKEN, executeTimeoutMs: 150 });
    const r = await client.execute(mobile("9100"));
    expect(r).toMatchObject({ kind: "unknown", reason: "timeout" });
    const again = await client.execute(mobile("9100"));
    expect(again).toMatchObject({ kind: "rejected", httpStatus: 400 });
    expect(debitsByReference(run)).toEqual(new Map([["9100", 1]]));
    expect(run.sandbox.balance(TOKEN)).toBe(START - 10_000);
  });
});
