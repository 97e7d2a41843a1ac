import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The conversation storage version: a hash of the flow sources. Conversation state holds replay
 * logs that only make sense to the code that wrote them, so any change to a flow or the toolkit
 * changes the version and stale state is dropped instead of replayed into the wrong step.
 */
export function flowVersion(): string {
  const hash = createHash("sha256");
  const dirs = [
    new URL("../../../conversations/", import.meta.url),
    new URL("./", import.meta.url),
  ];
  for (const dir of dirs) {
    const path = fileURLToPath(dir);
    for (const name of readdirSync(path)
      .filter((n) => n.endsWith(".ts"))
      .sort()) {
      hash.update(name).update(readFileSync(path + name));
    }
  }
  return hash.digest("hex").slice(0, 12);
}
