import {
  NICKNAME_MAX,
  type Nickname,
  SAVED_PER_CATEGORY,
  type SavedEntry,
  type SavedInput,
  savedEntrySchema,
  savedId,
} from "./model.ts";

/**
 * The rules of a user's saved entries as pure functions over their list; both stores apply them
 * (memory directly, Redis under a compare-and-set of the whole list).
 */

/** Newest used first. */
export function newestFirst(entries: readonly SavedEntry[]): SavedEntry[] {
  return [...entries].sort((a, b) => b.usedAt - a.usedAt || a.id.localeCompare(b.id));
}

/**
 * Saves or refreshes an entry: a known one keeps its nickname, takes the newer use and the newest
 * biller details (a changed phone); a new one may push the category over its bound, and then the
 * least recently used unnamed entry goes (a named one only when all are named).
 */
export function rememberEntry(
  entries: readonly SavedEntry[],
  input: SavedInput,
  limit = SAVED_PER_CATEGORY,
): SavedEntry[] {
  const id = savedId(input);
  const known = entries.find((e) => e.id === id);
  const entry = savedEntrySchema.parse({
    ...input,
    id,
    ...(known?.nickname ? { nickname: known.nickname } : {}),
    ...(known && known.usedAt > input.usedAt ? { usedAt: known.usedAt, biller: known.biller } : {}),
  });
  const rest = entries.filter((e) => e.id !== id);
  const same = newestFirst([entry, ...rest.filter((e) => e.category === input.category)]);
  while (same.length > limit) {
    const unnamed = same.findLastIndex((e) => e.nickname === undefined);
    same.splice(unnamed >= 0 ? unnamed : same.length - 1, 1);
  }
  const kept = new Set(same.map((e) => e.id));
  return newestFirst([...rest.filter((e) => e.category !== input.category), ...same]).filter(
    (e) => e.category !== input.category || kept.has(e.id),
  );
}

/** Names (or renames) an entry; null when there is no such entry. */
export function renameEntry(
  entries: readonly SavedEntry[],
  id: string,
  nickname: Nickname,
): SavedEntry[] | null {
  if (!entries.some((e) => e.id === id)) return null;
  return entries.map((e) => (e.id === id ? { ...e, nickname } : e));
}

/** Without the entry; null when there is no such entry. */
export function removeEntry(entries: readonly SavedEntry[], id: string): SavedEntry[] | null {
  if (!entries.some((e) => e.id === id)) return null;
  return entries.filter((e) => e.id !== id);
}

/** What a nickname typed by the customer means: the nickname, or why not. */
export type NicknameCheck =
  | { ok: true; value: Nickname }
  | { ok: false; reason: "empty" | "too_long" | "control" };

export function checkNickname(text: string): NicknameCheck {
  // Line breaks and runs of spaces become one space: a name is one line on a button.
  const value = text.replace(/\s+/g, " ").trim();
  if (/\p{Cc}/u.test(value)) return { ok: false, reason: "control" };
  if (value.length === 0) return { ok: false, reason: "empty" };
  if ([...value].length > NICKNAME_MAX) return { ok: false, reason: "too_long" };
  return { ok: true, value };
}
