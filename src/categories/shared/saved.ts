import type { Choice, Flow, Step } from "../../bot/flow/toolkit.ts";
import { savedLabel } from "../../bot/saved.ts";
import type { Operator } from "../../catalog/index.ts";
import type { SavedEntry } from "../../saved/index.ts";

/**
 * Saved numbers and billers in the flows: a number question offers the category's saved numbers
 * as buttons (nickname and number); a biller flow first offers its saved billers, and a biller
 * picked fills in every answer paying it again needs. Entries are per category, so a mobile
 * question never offers a DTH id.
 */

/** The category's saved numbers as quick answers (only those `fits` accepts, e.g. landlines). */
export async function savedNumberChoices(
  flow: Flow,
  category: string,
  fits: (entry: SavedEntry) => boolean = () => true,
): Promise<Choice[]> {
  const entries = await flow.saved(category);
  return entries.filter(fits).map((e) => ({ label: savedLabel(e), value: e.number }));
}

const ANOTHER = "new";

/**
 * One of the category's saved billers whose operator is still offered, or null for another
 * account; asks nothing (null) when there is none.
 */
async function chooseSavedBiller(
  flow: Flow,
  category: string,
  offered: (operatorId: number) => boolean,
): Promise<SavedEntry | null> {
  const entries = (await flow.saved(category)).filter(
    (e) => e.biller !== undefined && offered(e.biller.operatorId),
  );
  if (entries.length === 0) return null;
  const choices: Choice[] = [
    ...entries.map((e) => ({ label: savedLabel(e), value: e.id })),
    { label: flow.t("saved-another"), value: ANOTHER },
  ];
  const picked = await flow.choose(flow.t("saved-ask-biller"), choices, { columns: 1 });
  return entries.find((e) => e.id === picked) ?? null;
}

/**
 * The first step of a biller flow: the category's saved billers whose operator `offered` still
 * lists, or another account. A biller picked answers the operator and, through `fill`, the flow's
 * own answers; `st.from` tells the later steps what it answered.
 */
export function savedBillerStep<S extends { from?: SavedEntry; operator?: Operator }>(
  flow: Flow,
  category: string,
  offered: () => Promise<readonly Operator[]>,
  fill: (st: S, entry: SavedEntry) => void = () => {},
): Step<S> {
  return {
    name: "saved",
    run: async (st) => {
      const ids = new Set((await offered()).map((o) => o.id));
      const entry = await chooseSavedBiller(flow, category, (id) => ids.has(id));
      st.from = entry ?? undefined;
      if (!entry) return;
      st.operator = flow.deps.catalog.operator(entry.biller!.operatorId)!;
      fill(st, entry);
    },
  };
}
