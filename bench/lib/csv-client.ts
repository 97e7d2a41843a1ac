import { spawn } from "node:child_process";

/**
 * The accountant's side of the journal export in a process of its own (its buffers are not the
 * server's RSS): GETs the URL once told to, counts the body's bytes and lines as a client writing
 * it to disk would, and says how long from the word to the first byte and to the last.
 */
const CLIENT = `
const http = require("node:http");
process.stdout.write("ready\\n");
process.stdin.once("data", (url) => {
  const t0 = performance.now();
  http.get(String(url).trim(), (res) => {
    let bytes = 0, lines = 0, first = 0;
    res.on("data", (c) => {
      if (bytes === 0) first = performance.now() - t0;
      bytes += c.length;
      for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
    });
    res.on("end", () => {
      process.stdout.write(JSON.stringify({ status: res.statusCode, bytes, lines, firstByteMs: first, ms: performance.now() - t0 }) + "\\n");
      process.exit(0);
    });
    res.on("error", (e) => { process.stdout.write(JSON.stringify({ error: String(e) }) + "\\n"); process.exit(1); });
  });
});
`;

export type ClientOut = {
  status: number;
  bytes: number;
  lines: number;
  firstByteMs: number;
  ms: number;
};

/** Starts the client; `get(url)` resolves with what it read (call it once it is ready). */
export async function csvClient(): Promise<{ get(url: string): Promise<ClientOut> }> {
  const child = spawn(process.execPath, ["-e", CLIENT], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let buf = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i !== -1; i = buf.indexOf("\n")) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    wake?.();
  });
  const line = async () => {
    while (lines.length === 0)
      await new Promise<void>((r) => {
        wake = r;
      });
    return lines.shift() as string;
  };
  if ((await line()) !== "ready") throw new Error("the client did not start");
  return {
    async get(url) {
      child.stdin.write(`${url}\n`);
      const out = JSON.parse(await line()) as ClientOut & { error?: string };
      if (out.error) throw new Error(out.error);
      return out;
    },
  };
}
