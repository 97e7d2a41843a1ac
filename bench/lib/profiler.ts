import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { PROFILE_DIR } from "./child.ts";

/**
 * CPU profile of one measured phase only (not start-up or the baseline), written as
 * bench/results/<name>.cpuprofile when BENCH_PROFILE lists the name (comma-separated, or "all").
 * Read it with `node --import tsx bench/profile-summary.ts <file>` or Chrome DevTools.
 */
export function profileWanted(name: string): boolean {
  const wanted = (process.env.BENCH_PROFILE ?? "").split(",").map((s) => s.trim());
  return wanted.includes(name) || wanted.includes("all");
}

let session: Session | undefined;

export async function startProfile(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
}

export async function stopProfile(name: string): Promise<string> {
  if (!session) throw new Error("no profile running");
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  session = undefined;
  mkdirSync(PROFILE_DIR, { recursive: true });
  const file = join(PROFILE_DIR, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.error(`[profile] ${file}`);
  return file;
}

export async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!profileWanted(name)) return fn();
  await startProfile();
  try {
    return await fn();
  } finally {
    await stopProfile(name);
  }
}
