import type { Order } from "../../orders/model.ts";
import { GoBack, type Nav } from "./prompt-loop.ts";

/**
 * A flow as a list of named steps over one state, run by one runner for every category: Back on
 * every question after the first goes to the previous step that asked something, and the
 * confirmation's Edit buttons ask one step again and come back to the confirmation. Steps write
 * the state only once their answer is complete, so a Back in the middle of a step changes nothing.
 */

/** What a step may ask for besides going on: run the named (earlier) step again. */
// biome-ignore lint/suspicious/noConfusingVoidType: steps that just go on are plain async functions.
type StepResult = void | { redo: string };

export interface Step<S> {
  /** Unique in its flow; an Edit button carries it (`e:<name>`). */
  name: string;
  /** Asks the step's question(s) and writes the answer into `state`. */
  run: (state: S) => Promise<StepResult>;
  /** The confirmation offers an Edit button for this step, with this label (a locale key). */
  editKey?: string;
  /**
   * After an Edit of an earlier step: whether this step's answer still fits (default: it does).
   * When it does not, the step is asked again before the confirmation.
   */
  holds?: (state: S) => boolean;
}

/** The end of the flow: confirm and place, or the step an Edit button names. */
export type Checkout = (
  edits: ReadonlyArray<{ step: string; labelKey: string }>,
) => Promise<Order | null | { edit: string }>;

/** Runs `steps` in order, then `checkout`; Back and Edit move between them as described above. */
export async function runSteps<S>(
  nav: Nav,
  state: S,
  steps: ReadonlyArray<Step<S>>,
  checkout: (state: S) => Checkout,
): Promise<Order | null> {
  const indexOf = (name: string) => {
    const i = steps.findIndex((st) => st.name === name);
    if (i < 0) throw new Error(`no step "${name}"`);
    return i;
  };
  const edits = steps.flatMap((st) =>
    st.editKey ? [{ step: st.name, labelKey: st.editKey }] : [],
  );
  // Steps that asked something, in the order answered: Back goes to the last of them.
  const history: number[] = [];
  // While an Edit is under way: the step edited, the steps asked since (Back within the edit) and
  // the state as the confirmation showed it (a Back out of the edit restores it whole).
  let editing: { from: number; asked: number[]; shown: S } | null = null;
  let i = 0;
  for (;;) {
    if (i >= steps.length) {
      editing = null;
      nav.back = history.length > 0;
      let r: Order | null | { edit: string };
      try {
        r = await checkout(state)(edits);
      } catch (e) {
        if (!(e instanceof GoBack)) throw e;
        i = history.pop() ?? 0;
        continue;
      }
      if (r === null || !("edit" in r)) return r;
      i = indexOf(r.edit);
      editing = { from: i, asked: [], shown: structuredClone(state) };
      continue;
    }
    const step = steps[i]!;
    // Within an Edit, later steps are asked again only when the edited answer changed theirs.
    if (editing && i > editing.from && (step.holds?.(state) ?? true)) {
      i += 1;
      continue;
    }
    // An edited step always has Back: it returns to the confirmation unchanged.
    nav.back = editing !== null || history.length > 0;
    const before = nav.asked;
    let r: StepResult;
    try {
      r = await step.run(state);
    } catch (e) {
      if (!(e instanceof GoBack)) throw e;
      if (editing) {
        const prev = editing.asked.pop();
        if (prev === undefined) {
          // Back from the edited question itself: the confirmation again, nothing changed.
          restore(state, editing.shown);
          i = steps.length;
        } else i = prev;
      } else {
        i = history.pop() ?? 0;
      }
      continue;
    }
    if (r) {
      const j = indexOf(r.redo);
      while (history.length > 0 && history.at(-1)! >= j) history.pop();
      editing = null;
      i = j;
      continue;
    }
    if (nav.asked > before) {
      if (editing) editing.asked.push(i);
      else history.push(i);
    }
    i += 1;
  }
}

/** Puts `state` back as `shown` was (in place: the flow holds the object). */
function restore<S>(state: S, shown: S): void {
  const target = state as Record<string, unknown>;
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, structuredClone(shown));
}
