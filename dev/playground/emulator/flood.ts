// Telegram's documented flood limits as token buckets: about 30 messages per second overall,
// about 1 per second in one chat (with a small burst) and 20 per minute in one group. A request
// over any limit consumes nothing and is told how many whole seconds to wait, as Telegram's
// 429 "retry_after" does.
import { z } from "zod";

const floodLimitsSchema = z.object({
  globalPerSecond: z.number().positive().default(30),
  /** Messages the whole bot may send at once after being idle. */
  globalBurst: z.number().min(1).optional(),
  perChatPerSecond: z.number().positive().default(1),
  /** Messages one chat may receive at once after being idle. */
  perChatBurst: z.number().min(1).default(3),
  perGroupPerMinute: z.number().positive().default(20),
});
export type FloodLimitsInput = z.input<typeof floodLimitsSchema>;
export type FloodLimits = z.output<typeof floodLimitsSchema>;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

interface BucketSpec {
  capacity: number;
  perMs: number;
}

export class FloodControl {
  private readonly limits: FloodLimits;
  private readonly global: Bucket;
  private readonly chats = new Map<number, Bucket>();
  private readonly groups = new Map<number, Bucket>();

  constructor(
    limits: FloodLimitsInput,
    private readonly now: () => number,
  ) {
    this.limits = floodLimitsSchema.parse(limits);
    this.global = { tokens: this.globalSpec().capacity, updatedAt: now() };
  }

  /**
   * Takes one message slot for `chatId`. Returns undefined when allowed, otherwise the whole
   * seconds to wait (at least 1) and consumes nothing.
   */
  take(chatId: number, isGroup: boolean): number | undefined {
    const now = this.now();
    const checks: [Bucket, BucketSpec][] = [
      [this.global, this.globalSpec()],
      [this.bucketFor(this.chats, chatId, this.chatSpec(), now), this.chatSpec()],
    ];
    if (isGroup) {
      const spec = this.groupSpec();
      checks.push([this.bucketFor(this.groups, chatId, spec, now), spec]);
    }
    let waitMs = 0;
    for (const [bucket, spec] of checks) {
      refill(bucket, spec, now);
      if (bucket.tokens < 1) waitMs = Math.max(waitMs, (1 - bucket.tokens) / spec.perMs);
    }
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    for (const [bucket] of checks) bucket.tokens -= 1;
    this.forgetIdleChats(now);
    return undefined;
  }

  private globalSpec(): BucketSpec {
    const { globalPerSecond, globalBurst } = this.limits;
    return { capacity: globalBurst ?? globalPerSecond, perMs: globalPerSecond / 1000 };
  }

  private chatSpec(): BucketSpec {
    return { capacity: this.limits.perChatBurst, perMs: this.limits.perChatPerSecond / 1000 };
  }

  private groupSpec(): BucketSpec {
    const perMinute = this.limits.perGroupPerMinute;
    return { capacity: perMinute, perMs: perMinute / 60_000 };
  }

  private bucketFor(map: Map<number, Bucket>, id: number, spec: BucketSpec, now: number): Bucket {
    let bucket = map.get(id);
    if (!bucket) {
      bucket = { tokens: spec.capacity, updatedAt: now };
      map.set(id, bucket);
    }
    return bucket;
  }

  // A full bucket is the same as no bucket; dropping them keeps memory flat across many chats.
  private forgetIdleChats(now: number): void {
    if (this.chats.size < 50_000) return;
    const spec = this.chatSpec();
    for (const [id, bucket] of this.chats) {
      refill(bucket, spec, now);
      if (bucket.tokens >= spec.capacity) this.chats.delete(id);
    }
  }
}

function refill(bucket: Bucket, spec: BucketSpec, now: number): void {
  const elapsed = Math.max(0, now - bucket.updatedAt);
  bucket.tokens = Math.min(spec.capacity, bucket.tokens + elapsed * spec.perMs);
  bucket.updatedAt = now;
}
