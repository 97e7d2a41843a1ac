import { describe, expect, it } from "vitest";
import { noteToAdmins, noteToCustomer } from "../../src/books/admin-note.ts";
import { booksAlertText } from "../../src/notify/render.ts";
import { notificationSchema } from "../../src/orders/notification.ts";

/**
 * A customer's notice on the admins' alert lane (h-wamove's number-change notice, told on the new
 * number) is said as it is: never with the admin alerts' "⚠️", which a customer would read as a
 * warning meant for staff. The admins' own notes keep it. Both survive the outbox's schema.
 */
describe("a customer's notice on the admin alert lane", () => {
  const words = "You changed your WhatsApp number from +977 9841000901 to this one.";

  it("is the customer's words alone; an admin note keeps its ⚠️", () => {
    const [told] = [noteToCustomer(8_009_779_841_000_902, 1, words)];
    const parsed = notificationSchema.parse(JSON.parse(JSON.stringify(told)));
    if (parsed.kind !== "admin_alert") throw new Error("not an admin_alert");
    expect(booksAlertText(parsed)).toBe(words);
    const [alert] = noteToAdmins([3001], 1, "WhatsApp number change: …");
    if (alert?.kind !== "admin_alert") throw new Error("not an admin_alert");
    expect(booksAlertText(alert)).toBe("⚠️ WhatsApp number change: …");
  });
});
