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

/**
 * A customer's notice (in their language) on the admins' alert lane, so that it is queued in the
 * same step as the alerts: said as it is, without the alerts' "⚠️" (notify/render.ts), since a
 * customer must not read it as an alert meant for staff.
 */
export function noteToCustomer(chatId: number, at: number, note: string): Notification {
  return {
    kind: "admin_alert",
    topic: "settle_proposed",
    status: "success",
    chatId,
    at,
    note,
    toCustomer: true,
  };
}
