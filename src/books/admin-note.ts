import type { Notification, OrderStatus } from "../orders/model.ts";

/**
 * An admin alert saying `note` for each of `chatIds`. The note says it all: settle_proposed's
 * topic carries it (a topic of its own is a shape an older notifier would drop during a rolling
 * deploy, docs/deploying.md). `about`: the order it names, if any, and the status it carries.
 */
export function noteToAdmins(
  chatIds: readonly number[],
  at: number,
  note: string,
  about: { reference?: string | undefined; status: OrderStatus } = { status: "success" },
): Notification[] {
  return chatIds.map((chatId) => ({
    kind: "admin_alert",
    topic: "settle_proposed",
    ...(about.reference === undefined ? {} : { reference: about.reference }),
    status: about.status,
    chatId,
    at,
    note,
  }));
}
