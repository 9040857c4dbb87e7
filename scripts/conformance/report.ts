/** The conformance run's figures: per notation, what became of its inputs, and the share accepted of those counted. */
import type { ConformanceNotation } from './collections.js';
import { COUNTED_KINDS, type Outcome } from './outcome.js';

export interface NotationSummary {
  notation: ConformanceNotation;
  excluded: number;
  accepted: number;
  refused: number;
  timeout: number;
  crashed: number;
  /** Accepted of those counted (all but excluded), in percent. */
  acceptance: number;
}

type Result = { input: { notation: ConformanceNotation; repo: string; source: string }; outcome: Outcome };

export function summarize(results: readonly Result[]): NotationSummary[] {
  const byNotation = new Map<ConformanceNotation, NotationSummary>();
  for (const { input, outcome } of results) {
    const row = byNotation.get(input.notation) ?? { notation: input.notation, excluded: 0, accepted: 0, refused: 0, timeout: 0, crashed: 0, acceptance: 0 };
    row[outcome.kind]++;
    byNotation.set(input.notation, row);
  }
  const rows = [...byNotation.values()];
  const total: NotationSummary = { notation: 'all' as ConformanceNotation, excluded: 0, accepted: 0, refused: 0, timeout: 0, crashed: 0, acceptance: 0 };
  for (const row of rows) for (const kind of [...COUNTED_KINDS, 'excluded'] as const) total[kind] += row[kind];
  for (const row of [...rows, total]) {
    const counted = COUNTED_KINDS.reduce((sum, kind) => sum + row[kind], 0);
    row.acceptance = counted === 0 ? 100 : Math.floor((1000 * row.accepted) / counted) / 10;
  }
  return [...rows, total];
}

/** The table, and below it every input not accepted with its reason. */
export function tableOf(summary: readonly NotationSummary[], results: readonly Result[]): string {
  const lines = ['| notation | accepted | refused | over time | crashed | accepted % | left out |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of summary) lines.push(`| ${r.notation} | ${r.accepted} | ${r.refused} | ${r.timeout} | ${r.crashed} | ${r.acceptance} | ${r.excluded} |`);
  const failed = results.filter((r) => r.outcome.kind !== 'accepted' && r.outcome.kind !== 'excluded');
  if (failed.length > 0) {
    lines.push('', '## Not accepted', '');
    for (const { input, outcome } of failed) lines.push(`- ${input.notation} ${input.repo} ${input.source} — ${outcome.kind}: ${'message' in outcome ? outcome.message : ''}`);
  }
  const excluded = results.filter((r) => r.outcome.kind === 'excluded');
  if (excluded.length > 0) {
    lines.push('', '## Left out', '');
    for (const { input, outcome } of excluded) lines.push(`- ${input.notation} ${input.repo} ${input.source} — ${'reason' in outcome ? outcome.reason : ''}`);
  }
  return lines.join('\n') + '\n';
}
