import { seenHash } from "./chat-record.ts";
import type { Shown, StoredShown } from "./chat-store.ts";
import { owedSender, replyOwing } from "./router-owed.ts";
import type { Rendered, RenderInput, RouterDeps } from "./router-types.ts";

/** The router's sending (router.ts `outbound`), as recording a message uses it. */
interface Outbound {
  show(
    chatId: number,
    text: string,
    rows: RenderInput["rows"],
    signal?: AbortSignal,
  ): Promise<{ wamids: string[]; choices: Rendered["choices"]; kept?: string }>;
}

/**
 * The texts a message remembers having shown (a flow's question and its restated reasons); the
 * chat store keeps as many (its record stays within 64 bytes).
 */
const SEEN_KEEP = 7;

/** A pager's button (CB.page in bot/callback-data.ts: "p:<page>"): a tap on it edits the message's buttons. */
const isPager = (data: string) => data.startsWith("p:");

/** The buttons as a short key (6 characters of a hash: only compared), "" for none. */
export const buttonsKey = (rows: RenderInput["rows"]) =>
  rows.length === 0
    ? ""
    : seenHash(JSON.stringify(rows.map((r) => r.map((b) => [b.label, b.data]))));

/**
 * Sending a rendering and recording it as the chat's message (`put`), or owing it when it is an
 * answer a rate limit holds (router-owed.ts), and sending an owed one later (`sendOwed`): over
 * `outbound` of its own deps, which tell whether a send was tried.
 */
export function recorded(
  deps: RouterDeps,
  out: Outbound,
  outbound: (deps: RouterDeps) => Outbound,
) {
  const { store } = deps;
  const { show } = out;
  type Sent = Awaited<ReturnType<typeof show>>;
  /** What a rendering shows, as recorded (`sent`: none yet, an owed answer). */
  function shownOf(
    text: string,
    rows: RenderInput["rows"],
    before?: StoredShown | null,
    sent?: Sent,
  ) {
    const seen = [...new Set([...(before?.seen ?? []), seenHash(text)])].slice(-SEEN_KEEP);
    const paged = rows.some((r) => r.some((b) => isPager(b.data)));
    const secret = deps.secretText?.(text) === true;
    // A push's words as its template would carry them, if it is sent as one later (a late 131047).
    const words = sent?.kept ?? text;
    const choices = sent?.choices ?? [];
    const shown: Shown = { text: words, buttons: buttonsKey(rows), choices, seen, paged, secret };
    return shown;
  }

  const owing = replyOwing(deps);
  /**
   * Sends a rendering; what it shows recorded as message `messageId`, or a new one ("new"). An
   * answer a rate limit holds is recorded and owed instead (router-owed.ts).
   */
  async function put(
    chatId: number,
    messageId: number | "new",
    text: string,
    rows: RenderInput["rows"],
    before?: StoredShown | null,
    signal?: AbortSignal,
  ): Promise<number> {
    const tried = await owing.attempt(chatId, text, () => show(chatId, text, rows, signal));
    const wamids = "sent" in tried ? tried.sent.wamids : [];
    const shown = shownOf(text, rows, before, "sent" in tried ? tried.sent : undefined);
    const id =
      messageId === "new"
        ? await store.putNew(chatId, shown, wamids)
        : await store.putShown(chatId, messageId, shown, wamids).then(() => messageId);
    if ("owedAt" in tried) await owing.owe(chatId, id, text, rows, tried.owedAt);
    return id;
  }
  const sendOwed = owedSender(deps, outbound, async (chatId, e, sent: Sent) => {
    const before = await store.shown(chatId, e.messageId);
    await store.putShown(chatId, e.messageId, shownOf(e.text, e.rows, before, sent), sent.wamids);
  });

  return { put, sendOwed };
}
