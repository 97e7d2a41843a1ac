import { z } from "zod";
import { referenceSchema } from "../orders/model.ts";
import { LOCALES } from "./i18n.ts";

/**
 * Every callback-data string the bot puts on a button is built and parsed here, and nowhere else:
 * one zod-checked codec per button kind. Handlers ask a codec, never match a regex of their own, so
 * forged or malformed data parses to nothing and falls through to the "no longer active" answer.
 * The strings are those buttons already in chats carry (`m:mobile`, `lang:ne`, `rep:123`, `x`,
 * `ok`, `r`, `bk`, `e:amount`, `v:…`, `p:2`, `hp:1`, `sn:123`, and the mid-flow Leave/Keep question's `lv:…`, `kp`):
 * changing one breaks every old button of its kind.
 */

/** Telegram refuses buttons whose callback data is longer than 64 bytes. */
export const MAX_CALLBACK_BYTES = 64;

const fitsTelegram = (data: string) => Buffer.byteLength(data, "utf8") <= MAX_CALLBACK_BYTES;

/** A button that carries a value after its prefix. */
export interface ValueButton<T> {
  readonly prefix: string;
  /** The data of a button for `value`; throws when the value is not one this kind carries. */
  build(value: T): string;
  /** Whether `build(value)` would succeed (a value Telegram can carry on a button). */
  fits(value: T): boolean;
  /** The value of well-formed data of this kind, or null (another kind, forged, malformed). */
  parse(data: string | undefined): T | null;
}

/** A button whose data is one fixed string. */
export interface ConstantButton {
  readonly data: string;
  is(data: string | undefined): boolean;
}

/**
 * `head` is the prefix; `value` checks what is built; `wire` decodes the text after the prefix
 * (for text values the same schema; a number is decoded from its canonical digits only).
 */
function valueButton<T>(
  head: string,
  value: z.ZodType<T>,
  wire: z.ZodType<T, string> = value as unknown as z.ZodType<T, string>,
): ValueButton<T> {
  const encode = (v: T) => {
    const checked = value.safeParse(v);
    if (!checked.success) return null;
    const data = head + String(checked.data);
    return fitsTelegram(data) ? data : null;
  };
  return {
    prefix: head,
    build(v) {
      const data = encode(v);
      if (data === null) throw new RangeError(`not a value of a "${head}" button`);
      return data;
    },
    fits: (v) => encode(v) !== null,
    parse(data) {
      if (typeof data !== "string" || !data.startsWith(head) || !fitsTelegram(data)) return null;
      const r = wire.safeParse(data.slice(head.length));
      return r.success ? r.data : null;
    },
  };
}

function constantButton(data: string): ConstantButton {
  return { data, is: (d) => d === data };
}

/** A conversation id as the menu carries it (the menu checks it is one of its entries). */
const conversationId = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/);
/** A choice's value: any text that fits on a button with its prefix (the flow checks it). */
const choiceValue = z.string().min(1);
const pageNumber = z.number().int().min(0).max(999_999);
const pageDigits = z
  .string()
  .regex(/^(0|[1-9]\d{0,5})$/)
  .transform(Number)
  .pipe(pageNumber);

/** The main menu's category buttons: `m:<conversation id>`. */
export const menuButton = valueButton("m:", conversationId);
/** /language: `lang:<locale>`. */
export const languageButton = valueButton("lang:", z.enum(LOCALES));
/** /history's Repeat: `rep:<reference>`; the repeat flow still checks whose order it is. */
export const repeatButton = valueButton("rep:", referenceSchema);
/** "Save as…" under a success push: `sn:<reference>`, names the saved entry of that order. */
export const saveNameButton = valueButton("sn:", referenceSchema);
/** /history's Prev / Next: `hp:<page index>`; the page is read for the presser, so forging one shows only their own orders. */
export const historyPageButton = valueButton("hp:", pageNumber, pageDigits);
/**
 * /history's Prev / Next and month filters: `hv:<page>[:m<YYYY-MM>|:n<number>]` (the view,
 * conversations/history/view.ts); read for the presser like `hp:`.
 */
export const historyViewButton = valueButton(
  "hv:",
  z
    .string()
    .regex(/^(0|[1-9]\d{0,5})(:m\d{4}-(0[1-9]|1[0-2])|:n[0-9A-Za-z][0-9A-Za-z./-]{0,39})?$/),
);
/** /history's "Search a number": asks for the number (the history search flow). */
export const historySearchButton = constantButton("hs");

/**
 * What a command or a menu button sent in the middle of a flow would have done, carried by the
 * Leave button of "Leave this order?": the command's text (`/status 123`) or the global button's
 * data (`m:water`, `rep:123`). The flow ends and this runs as if it had just been sent.
 */
const leaveTarget = z
  .string()
  .min(1)
  .refine((s) => /^\/[A-Za-z]/.test(s) || isGlobalCallback(s));

/** "Leave this order?" -> Leave: `lv:<command text or global button data>`. */
export const leaveButton = valueButton("lv:", leaveTarget);

/**
 * A bare number's "which is it?" (issue 30, conversations/shortcut/): `sc:<category>:<number or
 * id>`, enters that category's flow with the number filled in.
 */
export const shortcutButton = valueButton(
  "sc:",
  z.string().regex(/^[a-z][a-z0-9_-]{0,15}:[A-Za-z0-9@._\-/]{1,40}$/),
);

/** "Report a problem" on an order (conversations/complaints/): `cpo:<reference>`. */
export const reportProblemButton = valueButton("cpo:", referenceSchema);

/** "Add money" (under /balance and a short balance): enters the top-up flow. */
export const addMoneyButtonData = constantButton("am");

/** The conversation toolkit's own buttons. */
export const flowButtons = {
  /** "Leave this order?" -> Keep: the flow goes on where it was. */
  keep: constantButton("kp"),
  cancel: constantButton("x"),
  confirm: constantButton("ok"),
  /** Back: the previous question of the flow is asked again. */
  back: constantButton("bk"),
  /** The confirmation's Edit buttons: `e:<step>`, that one answer is asked again, the rest kept. */
  edit: valueButton("e:", z.string().regex(/^[a-z][a-z0-9-]{0,15}$/)),
  retry: constantButton("r"),
  /** A quick answer or a choice: `v:<value>`. */
  value: valueButton("v:", choiceValue),
  /** A page of a long choice: `p:<page index>`. */
  page: valueButton("p:", pageNumber, pageDigits),
  /** A short balance at the confirmation: "Add Rs X and continue" (shortfall.ts). */
  addAndContinue: constantButton("ad"),
  /**
   * Back to the waiting confirmation, priced afresh: on the shortfall question and under the
   * credited notice of a top-up it started (accepted from any message: prompt-loop.ts `anywhere`).
   */
  resume: constantButton("go"),
} as const;

/**
 * Buttons of the menu and other global messages (menu, language, repeat, "Save as…"): pressing one inside a
 * running conversation leaves it and is handled as if no conversation had been running. Only
 * well-formed data counts, so forged junk with such a prefix does not end someone's flow.
 * History paging is not among them: turning a page must never cost the customer a flow.
 */
export function isGlobalCallback(data: string | undefined): boolean {
  // Issue 30's next steps too: Report a problem, a bare number's "which is it?", Add money.
  return (
    [
      menuButton,
      languageButton,
      repeatButton,
      saveNameButton,
      reportProblemButton,
      shortcutButton,
    ].some((b) => b.parse(data) !== null) || addMoneyButtonData.is(data)
  );
}

/** A reminder account's id (src/reminders/model.ts): ten hex digits. */
const reminderIds = z.string().regex(/^[0-9a-f]{10}(\.[0-9a-f]{10}){0,4}$/);
/** "Stop these reminders" under a reminder: `rms:<id>.<id>…` (at most five, the message's own). */
export const reminderStopButton = valueButton("rms:", reminderIds);
/** /reminders: one account's reminders off, `rmo:<id>`; every one off, `rma`; back on, `rmon`. */
export const reminderOffButton = valueButton("rmo:", z.string().regex(/^[0-9a-f]{10}$/));
export const remindersAllOffButton = constantButton("rma");
export const remindersOnButton = constantButton("rmon");
/** "Share receipt" under a success push and /status: `rcp:<reference>`, sends the receipt as a PDF. */
export const shareReceiptButton = valueButton("rcp:", referenceSchema);

/** /statement's month choice: `stm:YYYY-MM` (a month in Nepal time); the presser's own account is read. */
export const statementMonthButton = valueButton(
  "stm:",
  z.string().regex(/^20\d\d-(0[1-9]|1[0-2])$/),
);

/** A held top-up's decision under /topups (conversations/top-up/held-command.ts). */
export interface HeldTopUpTap {
  /** i: credit what was asked, p: credit what the gateway reports, r: reject. */
  d: "i" | "p" | "r";
  paymentId: string;
  /**
   * The gateway's figure (paisa) the message showed, on a credit: it goes through only while the
   * gateway still reports it. Absent on a reject, and on credit buttons sent before it was carried.
   */
  shownPaisa?: number;
}

const heldTopUpData = /^tuh:([ipr]):([A-Za-z0-9_-]{6,56})(?::(0|[1-9]\d{0,15}))?$/;

/**
 * /topups' decision: `tuh:<i|p|r>:<payment id>[:<paisa shown>]` (`tuh:p:<pidx>` before the figure
 * was carried still parses, without it). A Khalti pidx (22 characters) with any figure fits.
 */
export const heldTopUpButton: ValueButton<HeldTopUpTap> = {
  prefix: "tuh:",
  build(v) {
    const shown = v.shownPaisa === undefined ? "" : `:${v.shownPaisa}`;
    const data = `tuh:${v.d}:${v.paymentId}${shown}`;
    const back = heldTopUpButton.parse(data);
    if (!back || back.shownPaisa !== v.shownPaisa || back.paymentId !== v.paymentId)
      throw new RangeError('not a value of a "tuh:" button');
    return data;
  },
  fits(v) {
    try {
      heldTopUpButton.build(v);
      return true;
    } catch {
      return false;
    }
  },
  parse(data) {
    if (typeof data !== "string" || !fitsTelegram(data)) return null;
    const m = heldTopUpData.exec(data);
    if (!m) return null;
    const shown = m[3] === undefined ? undefined : Number(m[3]);
    if (shown !== undefined && !Number.isSafeInteger(shown)) return null;
    return {
      d: m[1] as HeldTopUpTap["d"],
      paymentId: m[2]!,
      ...(shown !== undefined ? { shownPaisa: shown } : {}),
    };
  },
};
