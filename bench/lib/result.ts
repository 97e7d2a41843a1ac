/**
 * What every benchmark hands back to bench/run.ts: figures that each carry the baseline measured
 * in the same run, their ratio and the target, plus free-form details for latest.json.
 */

export interface Figure {
  /** Short stable id, e.g. "webhook.throughput". */
  id: string;
  label: string;
  value: number;
  unit: string;
  baseline?: number;
  baselineLabel?: string;
  /** value / baseline. */
  ratio?: number;
  /** Human-readable target, e.g. ">= 0.5x bare" or "<= 25 ms". */
  target?: string;
  pass?: boolean;
}

export interface BenchResult {
  id: string;
  title: string;
  figures: Figure[];
  /** Decisions and caveats worth printing with the figures. */
  notes: string[];
  details: Record<string, unknown>;
}

export function figure(
  f: Omit<Figure, "ratio"> & { baseline?: number },
  check?: (f: Figure) => boolean,
): Figure {
  const ratio =
    f.baseline !== undefined && f.baseline !== 0 && Number.isFinite(f.baseline)
      ? f.value / f.baseline
      : undefined;
  const out: Figure = { ...f, ...(ratio === undefined ? {} : { ratio }) };
  if (check) out.pass = check(out);
  return out;
}
