import { Redis } from "ioredis";

/**
 * A lost save of a chat's conversation, injected at the Redis client: the next release script that
 * carries the delete of the conversation key `key` (the flow ended: the Confirm's update) gets that
 * write renamed to a command Redis does not know, so the script's pcall fails it as a real failed
 * write would (later writes and the done mark skipped, the turn freed). Once. The confirm-crash
 * tests use it: the order placed, the conversation's save lost.
 */

/** ioredis's command object, as far as the injection reads it. */
type Sent = { name: string; args: unknown[] };

const realSend = Redis.prototype.sendCommand;
let failing: { key: string } | null = null;
let failed = 0;

export function failNextConversationWrite(key: string): void {
  failing = { key };
  Redis.prototype.sendCommand = function (this: Redis, cmd: Sent) {
    const armed = failing;
    if (armed && (cmd.name === "evalsha" || cmd.name === "eval")) {
      const i = cmd.args.findIndex((a, j) => j > 0 && a === armed.key && cmd.args[j - 1] === "del");
      if (i > 0) {
        cmd.args[i - 1] = "injectedfailure";
        failing = null;
        failed += 1;
      }
    }
    return realSend.call(this, cmd as never);
  } as typeof Redis.prototype.sendCommand;
}

/** How many conversation writes the injection has failed in this process. */
export const conversationWritesFailed = (): number => failed;

/** The Redis client as it was, and nothing armed (each test's afterEach and the file's afterAll). */
export function restoreConversationWrites(): void {
  Redis.prototype.sendCommand = realSend;
  failing = null;
}
