import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/**
 * `npm start` (`node scripts/start.mjs`): the product compiled by scripts/build.mjs and run on node
 * alone, without tsx. What compiling could break is checked end to end: files read relative to a
 * module (locales, the flows' version hash, the playground's page), local mode loaded as a chunk
 * of its own, a conversation to the order summary, and SIGTERM reaching main.ts's handlers in the
 * process npm started.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let proc: ChildProcess | undefined;
afterEach(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
  proc = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface MessageView {
  id: number;
  from: "bot" | "user";
  text: string;
  inline_keyboard: { text: string; callback_data?: string }[][] | null;
}

describe("npm start runs the compiled product", () => {
  it("starts without tsx, serves the playground, talks, and exits 0 on SIGTERM", {
    timeout: 90_000,
  }, async () => {
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        HOST: "127.0.0.1",
        PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc = child;
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += String(c);
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += String(c);
    });
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    let base: string | undefined;
    while (!base) {
      base = /Recharge assistant is running[^\n]*?(http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (child.exitCode !== null) throw new Error(`exited before it was ready: ${err}`);
      if (!base) await sleep(50);
    }

    // The process npm started is the product itself, and it runs without tsx's loader.
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, "utf8");
    expect(cmdline).toContain("scripts/start.mjs");
    expect(cmdline).not.toContain("tsx");

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");

    const api = `${base}/playground/api/users/1001`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { message_id: number };
    };
    const waitForBot = async (pattern: RegExp, afterId: number) => {
      for (let i = 0; i < 300; i++) {
        const res = await fetch(`${api}/messages`);
        const { messages } = (await res.json()) as { messages: MessageView[] };
        const hit = messages.find(
          (m) => m.from === "bot" && m.id > afterId && pattern.test(m.text),
        );
        if (hit) return hit;
        await sleep(50);
      }
      throw new Error(`no bot message matching ${pattern}`);
    };
    const tap = async (on: MessageView, label: RegExp, answer: RegExp) => {
      const button = on.inline_keyboard?.flat().find((b) => label.test(b.text));
      if (!button?.callback_data) throw new Error(`no button ${label}`);
      await post("/callbacks", { message_id: on.id, data: button.callback_data });
      return waitForBot(answer, on.id);
    };
    const say = async (text: string, answer: RegExp) =>
      waitForBot(answer, (await post("/messages", { text })).message_id);

    const menu = await say("/recharge", /What would you like to pay/);
    await tap(menu, /Mobile top-up/, /Which mobile number/);
    const operator = await say("9841234567", /Operator for 9841234567/);
    await tap(operator, /detected/, /How much\?/);
    await say("150", /Please check your order/);

    child.kill("SIGTERM");
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(out).toContain('"msg":"stopped"');
  });
});
