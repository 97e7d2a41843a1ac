import { InlineKeyboard } from "grammy";
import {
  reminderOffButton,
  reminderStopButton,
  remindersAllOffButton,
  remindersOnButton,
  repeatButton,
} from "../../src/bot/callback-data.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { formatMoney } from "../../src/money.ts";
import type { DueReminder } from "../../src/reminders/index.ts";

/**
 * What a reminder and /reminders say: one line per account (its category, number and operator,
 * what is due when, what was paid last), a "Pay again" button per account (the repeat of its last
 * order: the usual confirmation comes first) and "Stop these reminders".
 */

/** Our locales as Intl knows them: day before month, Latin digits (one digit system per message). */
const INTL_LOCALE: Record<string, string> = {
  en: "en-GB",
  ne: "ne-NP-u-nu-latn",
  hi: "hi-IN-u-nu-latn",
};
const ZONE = { np: "Asia/Kathmandu", in: "Asia/Kolkata" } as const;

/** A day on the customer's clocks ("24 Dec 2026"). */
export function formatDay(ms: number, region: "np" | "in", locale: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[locale] ?? "en-GB", {
    timeZone: ZONE[region],
    year: "numeric",
    month: "short",
    day: "numeric",
  }).format(ms);
}

const money = (t: Translate, r: DueReminder) =>
  formatMoney(r.record.amountPaisa, { region: r.record.region, locale: t.locale });

/** Each kind's words (literal keys: the locale test finds them). */
const KIND_KEY = { plan: "reminder-plan", bill: "reminder-bill", usual: "reminder-usual" } as const;

/** One account's line: "📱 Mobile top-up · 9841000501 (NTC Prepaid): …". */
export function reminderLine(t: Translate, r: DueReminder): string {
  const { record } = r;
  return t(KIND_KEY[r.kind], {
    category: t(`menu-${record.category}`),
    number: record.number,
    operator: record.operatorName,
    amount: money(t, r),
    date: formatDay(r.dueAt, record.region, t.locale),
  });
}

/** The reminder's words, ending with how to act on it: `act` (tap, or reply when there are no buttons). */
const reminderText = (t: Translate, reminders: readonly DueReminder[], act: string) =>
  [t("reminders-title"), ...reminders.map((r) => reminderLine(t, r)), t(act)].join("\n\n");

/**
 * The reminder as WhatsApp's template carries it outside the 24-hour window: no buttons there, so
 * it says what to reply instead of "Tap".
 */
export const reminderTemplateText = (t: Translate, reminders: readonly DueReminder[]) =>
  reminderText(t, reminders, "reminders-pay-again-typed");

/** The reminder message: its lines, Pay again per account, Stop these reminders. */
export function reminderMessage(t: Translate, reminders: readonly DueReminder[]) {
  const text = reminderText(t, reminders, "reminders-pay-again");
  const keyboard = new InlineKeyboard();
  for (const r of reminders) {
    keyboard
      .text(
        t("reminder-button", { number: r.record.number, amount: money(t, r) }),
        repeatButton.build(r.record.ref),
      )
      .row();
  }
  keyboard.text(
    t("reminders-stop-these"),
    reminderStopButton.build(reminders.map((r) => r.id).join(".")),
  );
  return { text, replyMarkup: keyboard };
}

/**
 * /reminders: what is coming (with when each goes out), one Stop per account, all off or back on;
 * the numbers stopped one by one are named, with "Turn reminders back on" (which clears them).
 */
export function remindersList(
  t: Translate,
  list: { upcoming: DueReminder[]; allOff: boolean; stopped: readonly string[] },
) {
  if (list.allOff) {
    return {
      text: t("reminders-list-off"),
      keyboard: new InlineKeyboard().text(t("reminders-turn-on"), remindersOnButton.data),
    };
  }
  const shown = list.upcoming.filter((r) => !r.off).slice(0, 10);
  const stopped =
    list.stopped.length === 0
      ? []
      : [t("reminders-list-stopped", { numbers: [...new Set(list.stopped)].join(", ") })];
  if (shown.length === 0) {
    if (stopped.length === 0) return { text: t("reminders-list-empty"), keyboard: undefined };
    return {
      text: [t("reminders-list-none"), ...stopped].join("\n\n"),
      keyboard: new InlineKeyboard().text(t("reminders-turn-on"), remindersOnButton.data),
    };
  }
  const lines = shown.map((r) =>
    t("reminders-list-item", {
      line: reminderLine(t, r),
      when: formatDay(r.sendAt, r.record.region, t.locale),
    }),
  );
  const keyboard = new InlineKeyboard();
  for (const r of shown)
    keyboard
      .text(t("reminders-stop-one", { number: r.record.number }), reminderOffButton.build(r.id))
      .row();
  if (stopped.length > 0) keyboard.text(t("reminders-turn-on"), remindersOnButton.data).row();
  keyboard.text(t("reminders-stop-all"), remindersAllOffButton.data);
  return { text: [t("reminders-list-title"), ...lines, ...stopped].join("\n\n"), keyboard };
}
