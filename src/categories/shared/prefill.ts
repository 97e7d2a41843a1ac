import { z } from "zod";

/**
 * What a shortcut hands a category's conversation when it enters it (`ctx.conversation.enter(id,
 * prefill)`): a number or account id typed alone in the chat, a deep link's number and amount. Each
 * answer is used once, by the step that would have asked it, and only when that step's own rule
 * accepts it; a Back or an Edit asks as usual. Anything else (none, forged) is no prefill.
 */
export const prefillSchema = z.object({
  number: z.string().min(1).max(40).optional(),
  amountPaisa: z.number().int().positive().optional(),
});
export type Prefill = z.infer<typeof prefillSchema>;

export interface Prefilled {
  /** The answer for `key`, the first time only (a replay rebuilds the same sequence). */
  take<K extends keyof Prefill>(key: K): Prefill[K];
  /** Whether a number came with the shortcut (a saved biller's offer is then skipped). */
  readonly hasNumber: boolean;
}

export function prefilled(arg: unknown): Prefilled {
  const parsed = prefillSchema.safeParse(arg ?? {});
  const left: Prefill = parsed.success ? { ...parsed.data } : {};
  return {
    hasNumber: left.number !== undefined,
    take(key) {
      const value = left[key];
      delete left[key];
      return value;
    },
  };
}
