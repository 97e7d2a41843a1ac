import { connect } from "node:net";
import { waitUntil } from "./wait.ts";

/**
 * MONITOR on a plain socket: the commands (Lua's own included) whose arguments contain `match`,
 * each as its arguments. ioredis's own monitor can fail with "Command queue state error" when the
 * shared test Redis is busy (a line arriving with MONITOR's reply), so the lines are read here.
 */
export async function monitorCommands(match: string, port = 6379) {
  const seen: string[][] = [];
  const socket = connect(port, "127.0.0.1");
  let rest = "";
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    rest += chunk;
    const lines = rest.split("\r\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "+OK") ready();
      else if (line.includes(match)) seen.push(argsOf(line));
    }
  });
  socket.write("MONITOR\r\n");
  await started;
  return {
    /** The commands seen up to now, once a marker GET sent through `get` after them showed. */
    async drain(get: (key: string) => Promise<unknown>): Promise<string[][]> {
      const marker = `${match}monitor-marker`;
      await get(marker);
      await waitUntil(() => seen.some((a) => a[1] === marker), "the marker in the monitor");
      const out = seen.splice(0).filter((a) => a[1] !== marker);
      return out.map((a) => [a[0]!.toLowerCase(), ...a.slice(1)]);
    },
    stop: () => socket.destroy(),
  };
}

/** A MONITOR line's quoted arguments (escapes kept as written: keys here have none). */
function argsOf(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
}
