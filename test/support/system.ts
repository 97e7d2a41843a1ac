import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import type { MessageMatch, TranscriptEntry } from "../../src/playground/emulator/index.ts";
import type { SandboxOptions } from "../../src/sandbox/index.ts";
import { type System, startSystem } from "../../src/system.ts";

/**
 * The whole product as `npm start` runs it (embedded sandbox, Bot API emulator, real HTTP on
 * loopback), with fast sandbox timers and, when asked, real Redis under a key prefix of its own.
 */
export interface TestSystemOptions {
  redis?: boolean;
  /** Reuse a prefix (restart tests: the second process sees the first one's state). */
  prefix?: string;
  env?: Record<string, string>;
  sandbox?: Partial<Omit<SandboxOptions, "accounts">>;
}

export interface TestSystem {
  system: System;
  prefix: string;
  logs: string[];
  user(id: number, fields?: { first_name?: string; language_code?: string }): TestUser;
  /** Stops the process; keys stay (restart tests). */
  stop(): Promise<void>;
  /** Stops and deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

export const REDIS_URL = "redis://127.0.0.1:6379";

export async function startTestSystem(opts: TestSystemOptions = {}): Promise<TestSystem> {
  const prefix = opts.prefix ?? `test:${randomBytes(6).toString("hex")}:`;
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "info",
    RECONCILE_INTERVAL_MS: "200",
    RECONCILE_MIN_AGE_MS: "500",
    PROVIDER_EXECUTE_TIMEOUT_MS: "3000",
    PROVIDER_LOOKUP_TIMEOUT_MS: "3000",
    ...(opts.redis ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ level: "info", destination: sink, secrets: [] });
  const system = await startSystem({
    config,
    logger,
    sandbox: { delays: { toPendingMs: 20, toFinalMs: 40 }, rateLimitPerSecond: 0, ...opts.sandbox },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await system.stop();
  };
  return {
    system,
    prefix,
    logs,
    user: (id, fields) => new TestUser(system, id, fields),
    stop,
    async cleanup() {
      await stop();
      if (opts.redis) await deleteKeys(prefix);
    },
  };
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** One chat user of the emulator, as a test would use the chat: type, tap, read. */
export class TestUser {
  constructor(
    private readonly system: System,
    readonly id: number,
    fields: { first_name?: string; language_code?: string } = {},
  ) {
    this.emu.users.upsert(id, { first_name: fields.first_name ?? `User${id}`, ...fields });
  }

  get emu() {
    const e = this.system.emulator;
    if (!e) throw new Error("the test system runs without the emulator");
    return e;
  }

  /** The chat as the user sees it now. */
  chat(): TranscriptEntry[] {
    return this.emu.chat(this.id);
  }

  botTexts(): string[] {
    return this.chat()
      .filter((m) => m.from === "bot")
      .map((m) => m.text);
  }

  private lastId(): number {
    return this.chat().at(-1)?.id ?? 0;
  }

  /** Types a message and waits for the bot's next message matching `expect`. */
  async say(text: string, expect?: string | RegExp): Promise<TranscriptEntry> {
    const { message_id } = this.emu.sendText(this.id, text);
    return this.emu.waitForBotMessage(this.id, expect, { afterId: message_id, timeoutMs: 8000 });
  }

  /** Taps the button labelled `label` (newest message that has it) and waits for the next bot message. */
  async tap(label: string | RegExp, expect?: string | RegExp): Promise<TranscriptEntry> {
    const after = this.lastId();
    const resolved = typeof label === "string" ? label : this.findLabel(label);
    this.emu.clickButton(this.id, resolved);
    return this.emu.waitForBotMessage(this.id, expect, { afterId: after, timeoutMs: 8000 });
  }

  /** Taps without waiting for a new message (e.g. paging edits the same message). */
  press(label: string | RegExp): void {
    this.emu.clickButton(this.id, typeof label === "string" ? label : this.findLabel(label));
  }

  findLabel(re: RegExp): string {
    for (const m of [...this.chat()].reverse()) {
      for (const row of m.inlineKeyboard ?? []) {
        for (const b of row) if (re.test(b.text)) return b.text;
      }
    }
    throw new Error(`no button matches ${re}`);
  }

  buttons(entry?: TranscriptEntry): string[] {
    const m = entry ?? this.emu.lastBotMessage(this.id);
    return (m?.inlineKeyboard ?? []).flat().map((b) => b.text);
  }

  /** Waits until some bot message (new or edited) matches. */
  async waitFor(match: MessageMatch, timeoutMs = 8000): Promise<TranscriptEntry> {
    return this.emu.waitForBotMessage(this.id, match, { timeoutMs });
  }
}
