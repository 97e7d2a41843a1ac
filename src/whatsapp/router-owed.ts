import { NothingSent, refusalKind, WhatsAppApiError } from "./errors.ts";
import { answeringOf } from "./held.ts";
import type { OwedReply } from "./owed-replies.ts";
import { HeldSend } from "./rate-hold.ts";
import type { ButtonRows } from "./router-text.ts";
import type { RouterDeps, WaSender } from "./router-types.ts";

/**
 * A customer's answer that Meta's rate limit keeps from going (131048 may stand for hours) is owed,
 * not failed: the bot's call is answered as sent, so the conversation goes on where the customer
 * is (before, the call failed, the flow ended with it and the customer's words were lost, review
 * s31-notify 2); the answer is recorded as the chat's message and sent, in order, once WhatsApp
 * takes sends again (owed-reply-worker.ts). Only answers to a message being handled from that chat
 * (held.ts `answeringIn`) are owed: a push keeps its own retries (the notifier's). While a chat
 * owes answers, its next answers queue behind them and any other send to it waits (a 503 that
 * sent nothing), so its messages keep their order. Words never kept (a login link) are not owed.
 */

/** Whether a send failed because a rate limit holds it: nothing went out, WhatsApp takes it later. */
export const heldByRate = (err: unknown): boolean =>
  err instanceof HeldSend ||
  (err instanceof WhatsAppApiError && !err.mayHaveArrived && refusalKind(err.code) === "rate");

/** A send that waits for the chat's owed answers: nothing went out (a 503 saying so). */
export class BehindOwed extends WhatsAppApiError {
  constructor(why = "the chat's earlier answers wait for WhatsApp's rate limit to end") {
    super(why, { status: 503, mayHaveArrived: false });
    this.name = "BehindOwed";
  }
}

/** A first try after the owing send: the hold it set is then known (its time left). */
const FIRST_TRY_MS = 1_000;

/** What came of a send that may be owed: sent, or owed (the chat due then). */
export type Attempt<T> = { sent: T } | { owedAt: number };

export function replyOwing(deps: Pick<RouterDeps, "owed" | "now" | "logger" | "secretText">) {
  /** Whether the chat owes answers; a failed read sent nothing (a 503 saying so, never "lost"). */
  async function owes(chatId: number): Promise<boolean> {
    try {
      return (await deps.owed?.has(chatId)) === true;
    } catch (err) {
      throw new BehindOwed(`the chat's owed answers not read: ${String(err)}`);
    }
  }

  /** Whether a send into `chatId` goes behind owed answers: an answer is owed, another waits. */
  async function behind(chatId: number): Promise<boolean> {
    if (!deps.owed) return false;
    const a = answeringOf(chatId);
    // The chat's messages are handled one at a time: one read per message handled.
    if (a) {
      a.behind ??= await owes(chatId);
      return a.behind;
    }
    if (await owes(chatId)) throw new BehindOwed();
    return false;
  }

  /** `send`, or owed when it is an answer a rate limit holds (or behind answers owed before). */
  async function attempt<T>(
    chatId: number,
    text: string,
    send: () => Promise<T>,
  ): Promise<Attempt<T>> {
    const secret = deps.secretText?.(text) === true;
    if (await behind(chatId)) {
      if (secret) throw new BehindOwed();
      return { owedAt: deps.now() + FIRST_TRY_MS };
    }
    try {
      return { sent: await send() };
    } catch (err) {
      if (!deps.owed || !answeringOf(chatId) || !heldByRate(err) || secret) throw err;
      return { owedAt: deps.now() + (err instanceof HeldSend ? err.leftMs : FIRST_TRY_MS) };
    }
  }

  /** Owes the answer recorded as message `messageId`; throws when the chat owes all it may. */
  async function owe(
    chatId: number,
    messageId: number,
    text: string,
    rows: ButtonRows,
    at: number,
  ) {
    const entry: OwedReply = { messageId, text, rows, at: deps.now() };
    const owed = await deps.owed?.owe(chatId, entry, at).catch((err: unknown) => {
      throw new BehindOwed(`the answer not owed: ${String(err)}`);
    });
    if (!owed) throw new BehindOwed("the chat owes as many answers as it may");
    const a = answeringOf(chatId);
    if (a) a.behind = true;
    deps.logger.info({ chatId, messageId }, "whatsapp answer owed: a rate limit holds the sends");
  }

  return { attempt, owe };
}

/** The router's sending as an owed answer uses it (router.ts `outbound`). */
interface Sending<S> {
  show(chatId: number, text: string, rows: ButtonRows): Promise<S>;
}

/**
 * WhatsAppRouter.sendOwed: an owed answer sent as its chat message, recorded by `record` (a
 * failure there is logged: the send went out). A failure before any send throws `NothingSent`;
 * a send's failure throws as the client's does.
 */
export function owedSender<S>(
  deps: RouterDeps,
  outbound: (deps: RouterDeps) => Sending<S>,
  record: (chatId: number, e: OwedReply, sent: S) => Promise<unknown>,
) {
  return async (chatId: number, e: OwedReply): Promise<void> => {
    let tried = false;
    const tracked: WaSender = {
      ...deps.client,
      send: (to, body, o) => {
        tried = true;
        return deps.client.send(to, body, o);
      },
    };
    let sent: S;
    try {
      sent = await outbound({ ...deps, client: tracked }).show(chatId, e.text, e.rows);
    } catch (err) {
      throw tried || err instanceof WhatsAppApiError ? err : new NothingSent(err);
    }
    await record(chatId, e, sent).catch((err: unknown) => {
      deps.logger.error({ chatId, err: String(err) }, "whatsapp owed answer sent, not recorded");
    });
  };
}
