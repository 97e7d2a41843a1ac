/** Benchmark sizes come from the environment (BENCH_*), with the defaults the issue asks for. */
export function intEnv(name: string, def: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
}

export function listEnv(name: string, def: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return def;
  return raw.split(",").map((s) => {
    const n = Number(s.trim());
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: "${s}" is not a positive number`);
    return n;
  });
}

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
