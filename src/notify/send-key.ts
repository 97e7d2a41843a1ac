import { createHash } from "node:crypto";
import { type Notification, notificationKey } from "../orders/model.ts";

/**
 * The key a notification is sent once under (its sending lock and sent marker; src/notify/push.ts).
 * It is the (order, status) identity of notificationKey, except for an alert with a topic (the
 * books' alerts, an admin's note: noteToAdmins): each of those is its own event, told apart by its
 * time, and two of them written in the same millisecond to one admin, about no order (or the
 * same), had one key, so the second was taken for a duplicate of the first and never sent (review
 * of session 28). Their key carries a digest of what they say (the note and the figures): two
 * alerts that say different things are two sends; one alert read twice (a claim after a crash,
 * a replay of the dead list, the entry queued again) says the same and has the same key, so it
 * is still sent once. The digest is of the stored fields only, never of the stream entry's id,
 * which a queued-again entry does not keep.
 */
export function sendKeyOf(n: Notification): string {
  const key = notificationKey(n);
  if (n.kind !== "admin_alert" || !n.topic || n.contradicted) return key;
  const said = JSON.stringify([n.note ?? null, sortedFigures(n.figures)]);
  return `${key}:${createHash("sha256").update(said).digest("base64url").slice(0, 22)}`;
}

/** The figures in one order whatever order they were written in (a JSON object's keys may vary). */
const sortedFigures = (f: Record<string, number> | undefined) =>
  f === undefined ? null : Object.entries(f).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
