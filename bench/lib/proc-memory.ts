import { readFileSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

/**
 * Where a process's RSS is, from inside it (Linux): what V8 and Node say (process.memoryUsage,
 * v8 heap statistics) and what the kernel says (/proc/self/smaps), the mappings grouped as
 *  - file: binaries, shared libraries, ICU data (shared with other processes, not ours alone);
 *  - brk: glibc's main malloc arena ([heap]);
 *  - arenas: glibc's other malloc arenas (64 MB-aligned anonymous reservations, one per thread
 *    that mallocs when the main arena is busy: V8's GC and compiler threads, libuv's pool);
 *  - otherAnon: the rest of the anonymous memory: V8's heap pages, large mallocs (mmap'd above
 *    the threshold), thread stacks.
 * lazyFree is memory freed with MADV_FREE: counted in RSS until the kernel needs it.
 * All figures in bytes.
 */
export interface ProcMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** V8: committed heap memory that is resident, and what V8 itself mallocs (zones, compiler). */
  heapPhysical: number;
  v8Malloced: number;
  v8PeakMalloced: number;
  spaces: Record<string, number>;
  rssAnon: number;
  rssFile: number;
  /** The process's RSS high-water mark so far (VmHWM). */
  peakRss: number;
  /** CPU time the process has used so far (user + system), microseconds: the cost of a flag. */
  cpuMicros: number;
  threads: number;
  smaps: {
    file: number;
    brk: number;
    arenas: number;
    arenaCount: number;
    otherAnon: number;
    lazyFree: number;
  };
}

const ARENA = 64 * 2 ** 20;

function smapsBreakdown(): ProcMemory["smaps"] {
  const out = { file: 0, brk: 0, arenas: 0, arenaCount: 0, otherAnon: 0, lazyFree: 0 };
  let text: string;
  try {
    text = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return out;
  }
  // Mappings in order; an arena is an anonymous mapping starting on a 64 MB boundary whose
  // reservation (with the ---p tail that follows) ends exactly 64 MB later.
  interface Mapping {
    start: number;
    end: number;
    perms: string;
    path: string;
    rss: number;
  }
  const maps: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = {
        start: Number.parseInt(head[1]!, 16),
        end: Number.parseInt(head[2]!, 16),
        perms: head[3]!,
        path: head[4] ?? "",
        rss: 0,
      };
      maps.push(cur);
      continue;
    }
    const field = /^(Rss|LazyFree):\s+(\d+) kB/.exec(line);
    if (field && cur) {
      const bytes = Number(field[2]) * 1024;
      if (field[1] === "Rss") cur.rss = bytes;
      else out.lazyFree += bytes;
    }
  }
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i]!;
    if (m.path.startsWith("/")) out.file += m.rss;
    else if (m.path === "[heap]") out.brk += m.rss;
    else if (m.path === "" && m.start % ARENA === 0) {
      const next = maps[i + 1];
      const end = next && next.start === m.end && next.perms.startsWith("---") ? next.end : m.end;
      if (end - m.start === ARENA) {
        out.arenas += m.rss;
        out.arenaCount++;
      } else out.otherAnon += m.rss;
    } else if (!m.path.startsWith("/")) out.otherAnon += m.rss;
  }
  return out;
}

export function procMemory(): ProcMemory {
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  const h = getHeapStatistics();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]),
  );
  let status = "";
  try {
    status = readFileSync("/proc/self/status", "utf8");
  } catch {}
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    heapPhysical: h.total_physical_size,
    v8Malloced: h.malloced_memory,
    v8PeakMalloced: h.peak_malloced_memory,
    spaces,
    rssAnon: field("RssAnon") * 1024,
    rssFile: field("RssFile") * 1024,
    peakRss: field("VmHWM") * 1024,
    cpuMicros: cpu.user + cpu.system,
    threads: field("Threads"),
    smaps: smapsBreakdown(),
  };
}

const MB = 2 ** 20;
/** One line for stderr: the RSS and where it is, in MB. */
export function describeMemory(m: ProcMemory & { rssAtGc?: number }): string {
  const r = (n: number) => Math.round(n / MB);
  const atGc = m.rssAtGc === undefined ? "" : `, ${r(m.rssAtGc)} at gc()`;
  return `rss ${r(m.rss)}${atGc}, peak ${r(m.peakRss)} (file ${r(m.smaps.file)}, brk ${r(m.smaps.brk)}, ${m.smaps.arenaCount} arenas ${r(m.smaps.arenas)}, other anon ${r(m.smaps.otherAnon)}, lazy-free ${r(m.smaps.lazyFree)}); V8 heap committed ${r(m.heapTotal)} resident ${r(m.heapPhysical)} used ${r(m.heapUsed)}, V8 malloc ${r(m.v8Malloced)}, external ${r(m.external)} (array buffers ${r(m.arrayBuffers)}), threads ${m.threads}`;
}
