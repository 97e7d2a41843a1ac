import type { FlowContext, FlowConversation } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import type { Locale, Translate } from "../i18n.ts";

/** What a flow's widgets work with: its conversation, the context it started with, deps, language. */
export interface FlowScope {
  readonly conversation: FlowConversation;
  readonly ctx: FlowContext;
  readonly deps: BotDeps;
  /**
   * The account the flow acts for, read as it started: an update acting as another (a WhatsApp
   * number's next holder in the same chat) ends it (next-update.ts).
   */
  readonly userId: number;
  /** In the flow's current language (it follows a /language choice made mid-flow). */
  readonly t: Translate;
  /** Switches the flow's language: what is asked from now on, and the order's. */
  readonly setLocale: (locale: Locale) => void;
  /** Where the flow stands among its steps (steps.ts): whether Back is offered, questions asked. */
  readonly nav: Nav;
  /** What the chat may ask for while a question waits (/help, /balance…), answered in place. */
  readonly asides: readonly Aside[];
  /**
   * What the toolkit says for this flow on Cancel and Leave (FlowWords); a flow changes them when
   * they stop being true (a booking whose outcome is not known: "nothing was moved" may be false).
   */
  words: FlowWords;
}

/**
 * The locale keys the toolkit answers Cancel and "Leave …?" with. An order's by default; a flow
 * that is no order (a top-up, a cash-in) names itself and its own next step (issue 30).
 */
export interface FlowWords {
  /** Said when Cancel or /cancel ends the flow. */
  readonly cancelled: string;
  /** Said instead in a WhatsApp chat, when `cancelled` names a slash command (typed bare there). */
  readonly cancelledWhatsApp?: string;
  /** The question asked before another command leaves the flow. */
  readonly leaveQuestion: string;
  /** The command that starts the flow again, named by its idle notice ("/addmoney"). */
  readonly again?: string;
  /**
   * Said in place of "Nothing was charged" when the flow ends by the idle time or by Leave: a
   * flow whose booking's outcome is not known (transfers.ts `bookOnce`) must not say it.
   */
  readonly ended?: string;
}

export const ORDER_WORDS: FlowWords = {
  cancelled: "common-cancelled",
  cancelledWhatsApp: "common-cancelled-whatsapp",
  leaveQuestion: "flow-leave-question",
  again: "/recharge",
};

export interface Nav {
  /** The conversation's id when it is a menu entry: the idle notice's Start again enters it. */
  flow?: string;
  /** Questions offer Back (there is an earlier step to go back to). */
  back: boolean;
  /** How many questions were asked so far: a step that asked none is skipped by Back. */
  asked: number;
}

/** Thrown by a question whose Back was pressed; the step runner (steps.ts) catches it. */
export class GoBack extends Error {
  constructor() {
    super("back");
    this.name = "GoBack";
  }
}

/**
 * A feature answered in the middle of a flow without leaving it (/help, /history, /balance,
 * /language): the question keeps waiting. The features are conversations/'s; they reach the
 * toolkit through `createBot` (bindAsides), so the toolkit imports none of them.
 */
export interface Aside {
  /** The commands it answers, without the slash. */
  readonly commands: readonly string[];
  /** Answers one of its commands in the flow's language; it sends a message below the question. */
  answer(s: FlowScope, u: FlowContext, command: string): Promise<void>;
  /**
   * A press of a button of its own earlier answer (a page turned, a language chosen), handled in
   * place; false when the button is not its own.
   */
  onButton?(s: FlowScope, u: FlowContext, data: string): Promise<boolean>;
  /**
   * A message that is no command (a shared contact), handled in place: it sends its answer below
   * the question; false when the message is not its business.
   */
  onMessage?(s: FlowScope, u: FlowContext): Promise<boolean>;
}

/**
 * The asides of the conversation a context was entered with. `createBot` binds them to the
 * context each conversation builder is run with (every replay included); a flow reads them once.
 */
const bound = new WeakMap<FlowContext, readonly Aside[]>();

export function bindAsides(ctx: FlowContext, asides: readonly Aside[]): void {
  bound.set(ctx, asides);
}

export function asidesOf(ctx: FlowContext): readonly Aside[] {
  return bound.get(ctx) ?? [];
}
