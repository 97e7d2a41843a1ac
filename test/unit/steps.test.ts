import { describe, expect, it } from "vitest";
import { GoBack, type Nav } from "../../src/bot/flow/prompt-loop.ts";
import { runSteps, type Step } from "../../src/bot/flow/steps.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * The step runner alone: scripted answers stand in for the chat. "<" is a Back press; a checkout
 * answer is "ok" (placed), "<" (Back) or the name of the step an Edit button names.
 */
function harness(script: string[]) {
  const nav: Nav = { back: false, asked: 0 };
  const asked: string[] = [];
  const next = (question: string) => {
    nav.asked += 1;
    asked.push(`${question}${nav.back ? "+back" : ""}`);
    const a = script.shift();
    if (a === undefined) throw new Error(`script ended at ${question}`);
    if (a === "<") throw new GoBack();
    return a;
  };
  return { nav, asked, next };
}

interface S {
  number?: string;
  operator?: string;
  amount?: string;
}

const placed = { reference: "1" } as Order;

function mobile(script: string[]) {
  const h = harness(script);
  const confirmations: S[] = [];
  const steps: Step<S>[] = [
    {
      name: "number",
      editKey: "e-number",
      run: async (s) => {
        s.number = h.next("number");
      },
    },
    // The operator follows the number's first three digits; it holds while they match.
    {
      name: "operator",
      holds: (s) => s.operator === s.number?.slice(0, 3),
      run: async (s) => {
        s.operator = h.next("operator");
      },
    },
    {
      name: "amount",
      editKey: "e-amount",
      run: async (s) => {
        s.amount = h.next("amount");
      },
    },
  ];
  const run = runSteps<S>(h.nav, {}, steps, (s) => async (edits) => {
    expect(edits.map((e) => e.step)).toEqual(["number", "amount"]);
    confirmations.push({ ...s });
    const a = h.next("confirm");
    return a === "ok" ? placed : { edit: a };
  });
  return { run, asked: h.asked, confirmations };
}

describe("the step runner", () => {
  it("goes forward, with Back offered from the second question on", async () => {
    const m = mobile(["984", "984", "100", "ok"]);
    expect(await m.run).toBe(placed);
    expect(m.asked).toEqual(["number", "operator+back", "amount+back", "confirm+back"]);
  });

  it("goes back one asked step at a time, also from the confirmation", async () => {
    const m = mobile(["984", "984", "<", "<", "986", "986", "100", "<", "200", "ok"]);
    await m.run;
    expect(m.asked).toEqual([
      "number",
      "operator+back",
      "amount+back",
      "operator+back",
      "number",
      "operator+back",
      "amount+back",
      "confirm+back",
      "amount+back",
      "confirm+back",
    ]);
    expect(m.confirmations.at(-1)).toEqual({ number: "986", operator: "986", amount: "200" });
  });

  it("an Edit asks its step, then only the steps whose answer no longer fits", async () => {
    // The same operator prefix: straight back to the confirmation.
    const same = mobile(["984", "984", "100", "number", "984", "ok"]);
    await same.run;
    expect(same.asked.slice(4)).toEqual(["number+back", "confirm+back"]);
    // Another prefix: the operator is asked again, the amount kept.
    const other = mobile(["984", "984", "100", "number", "985", "985", "ok"]);
    await other.run;
    expect(other.asked.slice(4)).toEqual(["number+back", "operator+back", "confirm+back"]);
    expect(other.confirmations.at(-1)).toEqual({ number: "985", operator: "985", amount: "100" });
  });

  it("Back out of an Edit restores the confirmation as it was, even after a dependent step", async () => {
    // Edit number -> 985 -> (operator asked) Back -> number again -> Back: the confirmation as shown.
    const m = mobile(["984", "984", "100", "number", "985", "<", "<", "ok"]);
    await m.run;
    expect(m.asked.slice(4)).toEqual([
      "number+back",
      "operator+back",
      "number+back",
      "confirm+back",
    ]);
    expect(m.confirmations).toEqual([
      { number: "984", operator: "984", amount: "100" },
      { number: "984", operator: "984", amount: "100" },
    ]);
  });

  it("a step may ask an earlier one again (a refused lookup), and skips steps that asked nothing", async () => {
    const h = harness(["a", "b", "<", "a2", "b2", "c", "ok"]);
    let refusals = 1;
    const steps: Step<{ x?: string; y?: string; z?: string }>[] = [
      {
        name: "x",
        run: async (s) => {
          s.x = h.next("x");
        },
      },
      { name: "silent", run: async () => {} },
      {
        name: "y",
        run: async (s) => {
          s.y = h.next("y");
        },
      },
      {
        name: "check",
        run: async () => (refusals-- > 0 ? { redo: "y" } : undefined),
      },
      {
        name: "z",
        run: async (s) => {
          s.z = h.next("z");
        },
      },
    ];
    await runSteps(
      h.nav,
      {},
      steps,
      () => async () => (h.next("confirm") === "ok" ? placed : null),
    );
    // y is refused by the check and asked again; Back there skips "silent" and lands on x.
    expect(h.asked).toEqual(["x", "y+back", "y+back", "x", "y+back", "z+back", "confirm+back"]);
  });
});
