import type { ConversationBuilder } from "@grammyjs/conversations";
import type { Middleware } from "grammy";
import type { BotContext, FlowContext } from "./context.ts";
import type { Aside } from "./flow/scope.ts";

/**
 * What the bot runs, handed to `createBot` by the composition root (conversations/index.ts
 * builds it): the bot knows the features by these shapes only, so src/bot imports none of them
 * (the features import the engine, not the other way).
 */

/** A conversation builder; arguments are JSON values passed to `ctx.conversation.enter`. */
export type FlowBuilder = ConversationBuilder<BotContext, FlowContext>;

export interface BotFeatures {
  /** Every conversation by id: the categories' and those entered by commands (status, repeat). */
  conversations: Readonly<Record<string, FlowBuilder>>;
  /**
   * The commands and buttons, in the order they are tried: after the group notice and the Leave
   * press (which rewrites the update into what it carries), before the fallbacks.
   */
  composers: readonly Middleware<BotContext>[];
  /**
   * Before the conversations: what answers whatever a flow waits for (the link gate:
   * conversations/register/link-gate.ts).
   */
  gate?: Middleware<BotContext>;
  /** What a flow answers in place while a question waits (/help, /history…): prompt-loop.ts. */
  asides: readonly Aside[];
}
