import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Set by scripts/build.mjs; undefined when the sources run as they are (tsx, vitest). */
declare const __FLOW_VERSION__: string | undefined;

/**
 * The conversation storage version: a hash of the flow sources (conversations/, src/categories/,
 * the toolkit and the callback-data codec). Conversation state holds replay logs that only make sense to the code that
 * wrote them, so any change to a flow or the toolkit changes the version and stale state is
 * dropped instead of replayed into the wrong step.
 */
export function flowVersion(): string {
  // Compiled (scripts/build.mjs): the hash of the sources it was compiled from, computed there.
  if (typeof __FLOW_VERSION__ === "string") return __FLOW_VERSION__;
  const hash = createHash("sha256");
  const dirs = [
    new URL("../../../conversations/", import.meta.url),
    new URL("../../categories/", import.meta.url),
    new URL("./", import.meta.url),
  ];
  for (const dir of dirs) {
    const path = fileURLToPath(dir);
    // Recursive: each category's flow is in a folder of its own.
    for (const name of readdirSync(path, { recursive: true, encoding: "utf8" })
      .filter((n) => n.endsWith(".ts"))
      .sort()) {
      hash.update(name).update(readFileSync(path + name));
    }
  }
  // The flows' buttons are built and parsed here: a change to it changes what replays mean.
  const codec = new URL("../callback-data.ts", import.meta.url);
  hash.update("callback-data.ts").update(readFileSync(fileURLToPath(codec)));
  return hash.digest("hex").slice(0, 12);
}
