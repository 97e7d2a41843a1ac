import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { savedInputOf, savedLabel } from "../../src/bot/saved.ts";
import { type AnyCategoryModule, billerRule } from "../../src/categories/index.ts";
import { referenceSchema } from "../../src/orders/model.ts";
import { checkNickname, type Nickname, type SavedEntry } from "../../src/saved/index.ts";

/**
 * /saved (the customer's saved numbers and billers, grouped by category, each to rename or
 * delete) and "Save as…" under a success push (names that order's number). Both are small
 * conversations: a command that starts one in the middle of an order asks "Leave this order?".
 */

/**
 * Naming and editing saved numbers is no order: its Cancel, Leave and idle end must not say
 * "Nothing was charged" (under a success push that just said "Total paid", review s33-rvtruth 3).
 */
const SAVED_WORDS: FlowWords = {
  cancelled: "saved-flow-cancelled",
  leaveQuestion: "saved-leave-question",
  ended: "saved-flow-ended",
};

/** A nickname typed until it is one: 1-24 characters on one line, re-asked with the reason. */
function askNickname(flow: Flow, entry: Pick<SavedEntry, "number">): Promise<Nickname> {
  const { t } = flow;
  const parse = (text: string): Parsed<Nickname> => {
    const r = checkNickname(text);
    if (r.ok) return r;
    const reasons = {
      empty: t("saved-nickname-empty"),
      too_long: t("saved-nickname-too-long"),
      control: t("saved-nickname-control"),
    };
    return { ok: false, error: reasons[r.reason] };
  };
  return flow.ask(t("saved-ask-nickname", { number: entry.number }), parse);
}

export function savedConversation(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  return async function saved(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, SAVED_WORDS);
    const { t } = flow;
    const { userId } = flow.env;
    const store = deps.saved;
    const entries = await conversation.external(() => store.list(userId));
    if (entries.length === 0) {
      await flow.reply(t("saved-empty"));
      return;
    }
    // Grouped by category in the menu's order, newest used first within each.
    const groups = categories
      .map((c) => ({ c, list: entries.filter((e) => e.category === c.id) }))
      .filter((g) => g.list.length > 0);
    const ordered = groups.flatMap((g) => g.list);
    const text = [
      t("saved-title"),
      ...groups.map((g) =>
        [t(g.c.menu.labelKey), ...g.list.map((e) => `• ${savedLabel(e)}`)].join("\n"),
      ),
      t("saved-choose"),
    ].join("\n\n");
    const id = await flow.choose(
      text,
      ordered.map((e) => ({ label: savedLabel(e), value: e.id })),
      { columns: 1 },
    );
    const entry = ordered.find((e) => e.id === id)!;
    const label = savedLabel(entry);
    const action = await flow.choose(
      t("saved-entry", { entry: label }),
      [
        { label: t("saved-rename"), value: "rename" },
        { label: t("saved-delete"), value: "delete" },
      ],
      { columns: 2 },
    );
    if (action === "rename") {
      const nickname = await askNickname(flow, entry);
      const renamed = await conversation.external(() => store.rename(userId, entry.id, nickname));
      await flow.reply(
        renamed ? t("saved-renamed", { entry: savedLabel(renamed) }) : t("saved-gone"),
      );
      return;
    }
    const sure = await flow.choose(
      t("saved-delete-question", { entry: label }),
      [
        { label: t("saved-delete-yes"), value: "yes" },
        { label: t("saved-delete-keep"), value: "keep" },
      ],
      { columns: 2 },
    );
    if (sure !== "yes") {
      await flow.reply(t("saved-kept", { entry: label }));
      return;
    }
    const removed = await conversation.external(() => store.remove(userId, entry.id));
    await flow.reply(removed ? t("saved-deleted", { entry: label }) : t("saved-gone"));
  };
}

/** "Save as…" under a success push: the order's number (saved with its success) gets a name. */
export function saveNameConversation(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  const billerOf = billerRule(categories);
  return async function saveName(
    conversation: FlowConversation,
    ctx: FlowContext,
    reference?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, SAVED_WORDS);
    const { t } = flow;
    const { userId } = flow.env;
    const store = deps.saved;
    const ref = referenceSchema.safeParse(reference);
    // Only the presser's own successful order (forged data names someone else's or none).
    const order = ref.success
      ? await conversation.external(async () => {
          const o = await deps.orders.get(ref.data);
          return o && o.userId === userId && o.status === "success" ? o : null;
        })
      : null;
    if (!order) {
      await flow.reply(t("status-not-found"));
      return;
    }
    const input = savedInputOf(order, billerOf);
    const nickname = await askNickname(flow, input);
    // Saved again first: it may have been deleted (/saved) since the push.
    const named = await conversation.external(async () => {
      const entry = await store.remember(userId, input);
      return store.rename(userId, entry.id, nickname);
    });
    await flow.reply(named ? t("saved-named", { entry: savedLabel(named) }) : t("saved-gone"));
  };
}
