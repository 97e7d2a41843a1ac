// Queues the notifier's dead letters again (src/notify/replay-dead.ts), newest first:
//   REDIS_URL=redis://… REDIS_PREFIX=ra: npx node scripts/replay-dead-pushes.ts [--dry-run] [--limit N]
// (or `npm run replay-dead-pushes -- --dry-run`). --dry-run lists them and changes nothing.
// Safe while the product runs and safe to repeat: a push whose sent marker is written is not sent
// again. On a Cluster, REDIS_URL is the master holding the {money} slot. The image holds neither
// scripts/ nor src/: run it from a checkout of this version (docs/monitoring.md).
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { replayDeadLetters } from "../src/notify/replay-dead.ts";
import { sendKeyOf } from "../src/notify/send-key.ts";

const { values } = parseArgs({
  options: { "dry-run": { type: "boolean", default: false }, limit: { type: "string" } },
});
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  process.stderr.write("--limit: a whole number above 0\n");
  process.exit(2);
}
const dryRun = values["dry-run"];
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
try {
  const r = await replayDeadLetters(redis, process.env.REDIS_PREFIX || "ra:", {
    dryRun,
    ...(limit === undefined ? {} : { limit }),
  });
  for (const l of r.letters) {
    const when = new Date(l.at).toISOString();
    // The key it is sent once under (its `notify:sent:<key>` marker), as the notifier computes it.
    process.stdout.write(`${when} ${sendKeyOf(l.notification)}: ${l.reason}\n`);
  }
  process.stdout.write(
    dryRun
      ? `dead letters: ${r.letters.length} readable, ${r.skipped} unreadable (dry run: nothing replayed)\n`
      : `dead letters: ${r.replayed} replayed, ${r.skipped} left in the list\n`,
  );
} finally {
  redis.disconnect();
}
