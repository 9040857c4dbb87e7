/**
 * Mermaid `gitGraph` → the git graph chart (graph/chart.ts), from Mermaid's gitGraph database: branches in their
 * drawing order (`order:` first sorted, as Mermaid sorts them), commits in the order they were made.
 */
import type { GitCommitKind, GitGraphChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

interface GitDbCommit {
  id: string;
  branch: string;
  parents: string[];
  /** Mermaid's commitType: 0 normal, 1 reverse, 2 highlight, 3 merge, 4 cherry-pick. */
  type: number;
  tags: string[];
  customId?: boolean;
}

export interface GitGraphDb extends TitledDb {
  getBranchesAsObjArray(): { name: string }[];
  getCommitsArray(): GitDbCommit[];
  getDirection(): string;
}

const KINDS: readonly GitCommitKind[] = ['normal', 'reverse', 'highlight', 'merge', 'cherry-pick'];

/** Mermaid's database gives `LR` for a written `gitGraph LR:` and for none alike; the header tells them apart. */
const WRITTEN_DIRECTION = /^\s*gitGraph\s+(?:LR|TB|BT)\s*:/m;

export function gitGraphToGraph(db: GitGraphDb, code: string): GraphIR {
  const direction = db.getDirection();
  const chart: GitGraphChart = {
    family: 'gitGraph',
    direction: direction === 'TB' || direction === 'BT' ? direction : 'LR',
    ...(WRITTEN_DIRECTION.test(code) && { directionWritten: true }),
    branches: db.getBranchesAsObjArray().map((branch) => branch.name),
    commits: db.getCommitsArray().map((commit) => ({
      id: commit.id,
      branch: commit.branch,
      parents: [...commit.parents],
      kind: KINDS[commit.type] ?? 'normal',
      tags: commit.tags.map(chartLabel),
      // A merge's id is made up unless the author wrote one (customId); other commits' made-up ids look like `3-a1b2c3d`.
      ...(commit.customId === true && { label: commit.id }),
    })),
  };
  return chartGraph(chart, db);
}
