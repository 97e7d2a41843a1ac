import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

/**
 * The sandbox aggregator in a process of its own (`npm run sandbox`, dev/sandbox/standalone.ts),
 * driven through its admin API over loopback: the real aggregator is remote, so its CPU (the
 * execute's handling, the webhooks it sends) must not be charged to the product's process.
 */

const STANDALONE = fileURLToPath(new URL("../../dev/sandbox/standalone.ts", import.meta.url));

export interface SandboxTransaction {
  transactionId: string;
  connectionNo: string;
  status: string;
}

export interface SandboxProcess {
  /** The API base (`…/api/v1`): the product's PROVIDER_URL. */
  baseUrl: string;
  token: string;
  secret: string;
  setWebhook(url: string): Promise<void>;
  setBalance(paisa: number): Promise<void>;
  transactions(): Promise<SandboxTransaction[]>;
  forceStatus(transactionId: string, status: "pending" | "success" | "failed"): Promise<void>;
  close(): Promise<void>;
}

export async function startSandboxProcess(opts: {
  token: string;
  secret: string;
  env?: Record<string, string>;
}): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", STANDALONE], {
    env: {
      ...process.env,
      SANDBOX_PORT: "0",
      SANDBOX_TOKEN: opts.token,
      WEBHOOK_SECRET: opts.secret,
      LOG_LEVEL: "warn",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /base URL\s+(\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`the sandbox exited (${code}) before listening`)),
    );
  });
  const headers = { "content-type": "application/json", "x-admin-token": opts.token };
  async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}/_sandbox${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { error: boolean; message?: string; data: T };
    if (!res.ok || json.error) throw new Error(`sandbox ${method} ${path}: ${json.message}`);
    return json.data;
  }
  return {
    baseUrl,
    token: opts.token,
    secret: opts.secret,
    async setWebhook(url) {
      await admin("PUT", "/webhook", { url, secret: opts.secret });
    },
    async setBalance(paisa) {
      await admin("PUT", "/balance", { balance_paisa: paisa });
    },
    transactions: () => admin<SandboxTransaction[]>("GET", "/transactions"),
    async forceStatus(transactionId, status) {
      await admin("POST", `/transactions/${encodeURIComponent(transactionId)}/status`, { status });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
