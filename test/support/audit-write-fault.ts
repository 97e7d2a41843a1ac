import { Redis } from "ioredis";

/**
 * The back office's audit store failing, injected at the Redis client: every command that writes
 * the audit list `key` (an LPUSH, or a script naming it) fails without being sent until restored,
 * as a real failed write would, with nothing written. The step
 * before it has happened and nothing after it writes a line: a crash between a step and its
 * audit line, as far as the line goes.
 */

/** ioredis's command object, as far as the injection reads it. */
type Sent = { name: string; args: unknown[]; reject(err: Error): void; promise: Promise<unknown> };

const realSend = Redis.prototype.sendCommand;
let armed: string | null = null;
let failed = 0;

const WRITES = new Set(["lpush", "evalsha", "eval"]);

export function failAuditWrites(key: string): void {
  armed = key;
  Redis.prototype.sendCommand = function (this: Redis, cmd: Sent) {
    if (armed !== null && WRITES.has(cmd.name) && cmd.args.some((a) => a === armed)) {
      // Not renamed: a script's command names itself again when written (EVAL on first use).
      failed += 1;
      cmd.reject(new Error("the audit store failed (injected)"));
      return cmd.promise;
    }
    return realSend.call(this, cmd as never);
  } as typeof Redis.prototype.sendCommand;
}

/** How many audit writes the injection has failed in this process. */
export const auditWritesFailed = (): number => failed;

/** The Redis client as it was, and nothing armed. */
export function restoreAuditWrites(): void {
  Redis.prototype.sendCommand = realSend;
  armed = null;
}
