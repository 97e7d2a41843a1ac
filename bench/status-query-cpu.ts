import { createProviderClient } from "../src/provider/index.ts";
import { intEnv } from "./lib/env.ts";
import { startProfile, stopProfile } from "./lib/profiler.ts";
import { startSandboxProcess } from "./lib/sandbox-process.ts";
import { benchLogger } from "./lib/system.ts";

/**
 * The client side of one status query by reference (the webhook's confirmation of a final claim):
 * CPU of this process per query, the sandbox in a process of its own. Two answers: "found" (an
 * order the sandbox executed: the success envelope, production's path) and "not found" (the
 * webhook benchmark's path: its orders are seeded, never executed).
 */
const token = "bench-status-token";
const sandbox = await startSandboxProcess({
  token,
  secret: "x".repeat(32),
  env: {
    SANDBOX_RATE_LIMIT: "0",
    SANDBOX_TO_PENDING_MS: "3600000",
    SANDBOX_TO_FINAL_MS: "3600000",
  },
});
const client = createProviderClient({ baseUrl: sandbox.baseUrl, token, logger: benchLogger() });
try {
  await sandbox.setBalance(1_000_000_000);
  const res = await fetch(`${sandbox.baseUrl}/np/recharge/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-auth-token": token },
    body: JSON.stringify({
      operator_id: 5,
      operator_type_id: 1,
      connection_no: "9841234567",
      reference_no: "777000111",
      amount: 100,
    }),
  });
  if (!res.ok) throw new Error(`execute: ${res.status} ${await res.text()}`);
  const inFlight = intEnv("BENCH_SQ_IN_FLIGHT", 5);
  const n = intEnv("BENCH_SQ_CALLS", 4000);
  const rounds = intEnv("BENCH_SQ_ROUNDS", 6);
  const run = async (reference: string, calls: number) => {
    const t0 = process.cpuUsage();
    let next = 0;
    const worker = async () => {
      while (next++ < calls) await client.statusByReference("np", reference).catch(() => null);
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / calls;
  };
  await run("777000111", 2000);
  await run("404404404", 2000);
  if (process.env.BENCH_SQ_PROFILE) await startProfile();
  const found: number[] = [];
  const missing: number[] = [];
  for (let r = 0; r < rounds; r++) {
    found.push(await run("777000111", n));
    missing.push(await run("404404404", n));
  }
  if (process.env.BENCH_SQ_PROFILE) await stopProfile(process.env.BENCH_SQ_PROFILE);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(
    `status query client CPU per call: found ${med(found).toFixed(1)} us [${found.map((x) => x.toFixed(0)).join(" ")}], not found ${med(missing).toFixed(1)} us [${missing.map((x) => x.toFixed(0)).join(" ")}]`,
  );
} finally {
  await client.close();
  await sandbox.close();
}
