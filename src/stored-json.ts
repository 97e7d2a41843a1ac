import type { z } from "zod";

/**
 * A stored JSON record read through its schema: null when there is none, when it is not JSON, or
 * when it is not a shape this version reads. Callers treat such a record as absent or unreadable,
 * each in its own way; reading it never throws.
 */
export function storedJson<T>(schema: z.ZodType<T>, raw: string | null | undefined): T | null {
  if (raw === null || raw === undefined) return null;
  try {
    const r = schema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
