import { Composer } from "grammy";
import { orderGate } from "../src/bot/access.ts";
import type { BotContext } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import type { BotFeatures, FlowBuilder } from "../src/bot/features.ts";
import type { AnyCategoryModule } from "../src/categories/index.ts";
import { balanceAside } from "./balance/aside.ts";
import { type BalanceButtons, balance } from "./balance/command.ts";
import { books } from "./books/command.ts";
import { cancel } from "./cancel/command.ts";
import { cashInConversation } from "./cash/cash-in.ts";
import { cashIn } from "./cash/command.ts";
import { creditConversation } from "./cash/credit.ts";
import { reverseConversation } from "./cash/reverse.ts";
import { complaintAnswerConversation } from "./complaints/admin.ts";
import { complaintCommands } from "./complaints/command.ts";
import { complainConversation } from "./complaints/customer.ts";
import { helpAside } from "./help/aside.ts";
import { help } from "./help/command.ts";
import { historyAside } from "./history/aside.ts";
import { history } from "./history/command.ts";
import { historySearchConversation } from "./history/search.ts";
import {
  ADD_MONEY_FLOW,
  CASHIN_FLOW,
  COMPLAIN_FLOW,
  COMPLAINT_ANSWER_FLOW,
  CREDIT_FLOW,
  HISTORY_SEARCH_FLOW,
  PARTIAL_REFUND_FLOW,
  REPEAT_FLOW,
  REVERSE_FLOW,
  SAVE_NAME_FLOW,
  SAVED_FLOW,
  SETTLE_FLOW,
  STATUS_FLOW,
} from "./ids.ts";
import { languageAside } from "./language/aside.ts";
import { language } from "./language/command.ts";
import { categoryMenu, type MenuEntry, menuKeyboard } from "./menu/command.ts";
import { shareReceipt, shareReceiptAside } from "./receipt/share.ts";
import { registerAside } from "./register/aside.ts";
import { register } from "./register/command.ts";
import { linkGate } from "./register/link-gate.ts";
import { waHeldGate, waid } from "./register/waid.ts";
import { remindersAside } from "./reminders/aside.ts";
import { reminders } from "./reminders/command.ts";
import { repeatConversation } from "./repeat/conversation.ts";
import { saved } from "./saved/command.ts";
import { savedConversation, saveNameConversation } from "./saved/conversation.ts";
import { settle } from "./settle/command.ts";
import { settleConversation } from "./settle/conversation.ts";
import { bareNumber, rechargeLink } from "./shortcut/command.ts";
import { myQr, shopLink, shopOnRegistration } from "./shortcut/shop.ts";
import { greetingSentence, start } from "./start/command.ts";
import { statement, statementAside } from "./statement/command.ts";
import { status } from "./status/command.ts";
import { statusConversation } from "./status/conversation.ts";
import { addMoneyConversation } from "./top-up/add-money.ts";
import { addMoney, addMoneyButton } from "./top-up/add-money-command.ts";
import { heldTopUps } from "./top-up/held-command.ts";
import { partialRefundConversation } from "./top-up/partial-refund.ts";
import { writeOffCommand } from "./top-up/write-off-command.ts";

export { type MoveTold, tellMove } from "./cash/move-notices.ts";
export {
  type ReversalTeller,
  type ReversalTold,
  tellReversal,
} from "./cash/reversal-notices.ts";
export { registerCommands } from "./commands.ts";
export {
  changeText as complaintChangeText,
  reasonText as complaintReasonText,
  reportProblemRow,
} from "./complaints/texts.ts";
export { dashboardCommand } from "./dashboard/index.ts";
export { reminderMessage, reminderTemplateText } from "./reminders/text.ts";
export {
  topUpNoticeMarkup,
  topUpNoticeText,
  unreadableNoticeText,
} from "./top-up/notices.ts";

/**
 * Every feature of the chat, for the composition root to hand to `createBot`: one conversation
 * per category module (its menu button enters it), those entered by commands and buttons
 * (/status, the repeat of /history, /addmoney, /cashin, /credit, /reverse, /saved and "Save as…"
 * under a success push), the commands in the order they are tried, and the asides a flow answers
 * in place.
 */
export function botFeatures(deps: BotDeps, categories: readonly AnyCategoryModule[]): BotFeatures {
  return {
    conversations: conversationsOf(deps, categories),
    // A WhatsApp sender held for an admin's decision (/waid) first; then the link gate.
    gate: new Composer<BotContext>(waHeldGate(deps), linkGate(deps)),
    composers: commandsOf(deps, categories),
    asides: [
      helpAside,
      historyAside,
      balanceAside,
      languageAside,
      remindersAside,
      registerAside,
      shareReceiptAside,
      statementAside,
    ],
  };
}

function conversationsOf(
  deps: BotDeps,
  categories: readonly AnyCategoryModule[],
): Record<string, FlowBuilder> {
  return {
    ...Object.fromEntries(categories.map((c) => [c.id, c.conversation(deps)])),
    [STATUS_FLOW]: statusConversation(deps),
    [REPEAT_FLOW]: repeatConversation(deps, categories),
    [ADD_MONEY_FLOW]: addMoneyConversation(deps),
    [CASHIN_FLOW]: cashInConversation(deps),
    [CREDIT_FLOW]: creditConversation(deps),
    [REVERSE_FLOW]: reverseConversation(deps),
    [SAVED_FLOW]: savedConversation(deps, categories),
    [SAVE_NAME_FLOW]: saveNameConversation(deps, categories),
    [HISTORY_SEARCH_FLOW]: historySearchConversation(deps),
    [COMPLAIN_FLOW]: complainConversation(deps),
    [COMPLAINT_ANSWER_FLOW]: complaintAnswerConversation(deps),
    [PARTIAL_REFUND_FLOW]: partialRefundConversation(deps),
    [SETTLE_FLOW]: settleConversation(deps),
  };
}

/** The commands and buttons, in this order (the engine puts the group notice and Leave first). */
function commandsOf(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  const entries: MenuEntry[] = categories.map((c) => ({
    conversation: c.id,
    labelKey: c.menu.labelKey,
  }));
  const offered = offeredBy(deps, categories);
  const menu = menuKeyboard(entries, offered);
  // Issue 30's shortcuts: deep links before /start, a bare number after every command.
  const shortcuts = { entries, offered, gate: orderGate(deps) };
  return [
    rechargeLink(shortcuts, deps.reactivateChat),
    shopLink(deps),
    start(deps, menu),
    categoryMenu(entries, menu, offered, orderGate(deps)),
    // A shop's QR code scanned before registering: that shop is theirs once they register.
    register(deps, (ctx) => shopOnRegistration(deps, ctx)),
    help(deps),
    cancel(),
    language(deps),
    status(),
    settle(),
    waid(deps),
    history(deps),
    saved(),
    reminders(deps),
    balance(deps, { extraButtons: addMoneyButtons(deps) }),
    books(deps),
    addMoney(),
    heldTopUps(deps),
    writeOffCommand(deps),
    cashIn(),
    complaintCommands(deps),
    shareReceipt(deps),
    statement(deps),
    myQr(deps),
    bareNumber(shortcuts),
    greetingSentence(deps, menu),
  ];
}

/** A customer's /balance offers adding money online when a gateway is wired (Khalti). */
function addMoneyButtons(deps: BotDeps): BalanceButtons | undefined {
  if (!deps.topUps) return undefined;
  return (t, r) => (r.kind === "customer" ? addMoneyButton(t) : undefined);
}

/**
 * A menu entry is offered while the catalogue offers its operators (see the module's `menu`):
 * read on every /recharge and every press, as the catalogue's offer follows the provider's lookups.
 */
function offeredBy(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  const operatorsOf = new Map(categories.map((c) => [c.id, c.menu.operatorsOf ?? c.id]));
  return (id: string) => deps.catalog.offersCategory(operatorsOf.get(id) ?? id);
}
