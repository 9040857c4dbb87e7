/**
 * A git graph as Mermaid draws it: one lane per branch (a row left to right, or a column top down / bottom up), its
 * name boxed at the lane's start in the branch's colour over a dotted guide, commits one step apart in the order
 * they were made, each joined to its parents. A branch-off leaves its parent across the lanes and then runs along the
 * new branch; a merge runs along the merged branch and then turns into the merge. Merge commits are hollow, highlight
 * commits square, reverse commits crossed; tags are boxed beside their commit and written ids under it.
 */
import { boxesOverlap as overlaps } from '../../export/geometry.js';
import type { GitCommit, GitGraphChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALETTE, chartLine, chartShape, chartText, inkOn, labelBox, paletteAt, textSize, type Box, type ChartDrawing, type Point } from './elements.js';

const SPACING = {
  /** Between two commits along the lanes. */
  commit: 44,
  /** Between two lanes: rows leave room for the slanted ids under the commits, columns for ids beside them. */
  row: 84,
  column: 110,
  radius: 10,
  /** Between a lane's name box and its first commit. */
  nameGap: 24,
  lineWidth: 4,
} as const;

/** Commit ids Mermaid makes up (`3-a1b2c3d`): random on every parse, so not the author's, and not shown. */
const GENERATED_ID = /^\d+-[0-9a-f]{7}$/;

/**
 * Commits in a row that still fit a README column (880 px) with commit ids at 11 px or more; a longer history, left
 * to Mermaid's default direction, is drawn top-down instead.
 */
export const GIT_ROW_COMMITS = 19;

export function drawGitGraph(given: GitGraphChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const warnings: string[] = [];
  const turned = given.direction === 'LR' && given.directionWritten !== true && given.commits.length > GIT_ROW_COMMITS;
  if (turned) warnings.push(`${given.commits.length} commits drawn top-down: in a row they would not fit a README column readably (write gitGraph LR: to keep the row)`);
  const chart: GitGraphChart = turned ? { ...given, direction: 'TB' } : given;
  const lanes = new Map(chart.branches.map((name, i) => [name, i]));
  const rows = chart.direction === 'LR';
  const names = chart.branches.map((name) => ({ name, size: labelBox(name, CHART_FONT.label) }));
  const nameWidth = Math.max(0, ...names.map((n) => n.size.width));
  const nameHeight = Math.max(0, ...names.map((n) => n.size.height));
  // The first commit stands clear of the name boxes: after them in rows, under them in columns.
  const start = (rows ? nameWidth : nameHeight) + SPACING.nameGap + SPACING.radius;
  const step = SPACING.commit;
  // In columns each commit's id and tags stand to its left, between it and the lane before.
  const besideWidth = (commit: GitCommit) => {
    const label = commitLabel(commit);
    const id = label === undefined ? 0 : textSize(label, CHART_FONT.small).width + 8;
    return id + Math.max(0, ...commit.tags.map((tag) => labelBox(tag, CHART_FONT.small).width + 8));
  };
  // In rows each id slants down-left from under its commit; the lane below starts past the longest one, so no id runs
  // over the next lane's line, commits or ids (its tags stand above its commits, so they count too).
  const slantReach = (commit: GitCommit) => {
    const label = commitLabel(commit);
    return label === undefined ? 0 : textSize(label, CHART_FONT.small).width * Math.SQRT1_2 + textSize(label, CHART_FONT.small).height;
  };
  const tagsAbove = (commit: GitCommit) => commit.tags.reduce((sum, tag) => sum + labelBox(tag, CHART_FONT.small).height + 4, 0);
  const rowGap = Math.max(SPACING.row, 2 * SPACING.radius + 12 + Math.max(0, ...chart.commits.map(slantReach)) + Math.max(0, ...chart.commits.map(tagsAbove)));
  const laneGap = rows ? rowGap : Math.max(SPACING.column, nameWidth + 12, ...chart.commits.map((commit) => besideWidth(commit) + 2 * SPACING.radius + 16));
  const along = (index: number) => (chart.direction === 'BT' ? start + (chart.commits.length - 1 - index) * step : start + index * step);
  const end = start + Math.max(0, chart.commits.length - 1) * step + step;
  /** The point at `t` along the lanes on lane `lane`. */
  const at = (t: number, lane: number): Point => (rows ? { x: t, y: lane * laneGap } : { x: lane * laneGap, y: t });
  const color = (lane: number) => paletteAt(CHART_PALETTE, lane);

  const position = new Map<string, { t: number; lane: number }>();
  chart.commits.forEach((commit, i) => position.set(commit.id, { t: along(i), lane: lanes.get(commit.branch) ?? 0 }));

  // Lane names and guides first, under everything else.
  names.forEach(({ name, size }, lane) => {
    const fill = color(lane);
    const box = rows
      ? { x: 0, y: lane * laneGap - nameHeight / 2, width: nameWidth, height: nameHeight }
      : { x: lane * laneGap - size.width / 2, y: chart.direction === 'BT' ? end + SPACING.nameGap / 2 : 0, width: size.width, height: nameHeight };
    const guideFrom = rows ? at(nameWidth + 4, lane) : at(chart.direction === 'BT' ? 0 : nameHeight, lane);
    const guideTo = rows ? at(end, lane) : at(chart.direction === 'BT' ? end : end, lane);
    elements.push(chartLine(`git-guide-${lane}`, [guideFrom, guideTo], { stroke: '#adb5bd', strokeStyle: 'dotted' }));
    elements.push(chartShape(`git-branch-${lane}`, 'rectangle', box, { fill, text: name, corner: 'rounded', role: 'generic' }));
  });

  // Parent links. A commit's own line leaves its parent across the lanes, then runs along the commit's branch (a
  // branch-off turns at its base); a merge's second line runs along the merged branch, then turns into the merge.
  // Each is in the colour of the branch it runs along.
  const across: { y: number; from: number; to: number }[] = [];
  chart.commits.forEach((commit, i) => {
    const to = position.get(commit.id)!;
    commit.parents.forEach((parent, k) => {
      const from = position.get(parent);
      if (from === undefined) return;
      // A cherry-pick's source is copied onto the branch, not merged: its line turns at the source, as Mermaid draws it.
      const own = k === 0 || commit.kind === 'cherry-pick';
      const points =
        from.lane === to.lane ? [at(from.t, from.lane), at(to.t, to.lane)] : own ? [at(from.t, from.lane), at(from.t, to.lane), at(to.t, to.lane)] : [at(from.t, from.lane), at(to.t, from.lane), at(to.t, to.lane)];
      if (!rows) for (let p = 1; p < points.length; p++) if (points[p]!.y === points[p - 1]!.y) across.push({ y: points[p]!.y, from: Math.min(points[p]!.x, points[p - 1]!.x), to: Math.max(points[p]!.x, points[p - 1]!.x) });
      elements.push(chartLine(`git-link-${i}-${k}`, points, { stroke: color(own ? to.lane : from.lane), strokeWidth: SPACING.lineWidth, ...(commit.kind === 'cherry-pick' && k > 0 && { strokeStyle: 'dashed' }) }));
    });
  });

  const tagBoxes: Box[] = [];
  chart.commits.forEach((commit, i) => {
    const { t, lane } = position.get(commit.id)!;
    const centre = at(t, lane);
    elements.push(...commitMarks(commit, i, centre, color(lane)));
    const label = commitLabel(commit);
    if (label !== undefined) {
      if (rows) {
        // Slanted like Mermaid's, ending under the commit, so neighbouring ids do not run into one another; it ends
        // left of the commit's centre, where a branch-off leaves and a merge arrives straight down or up.
        const size = textSize(label, CHART_FONT.small);
        const reach = size.width * Math.SQRT1_2;
        const mid = { x: centre.x - reach / 2 - 8, y: centre.y + SPACING.radius + 6 + reach / 2 };
        elements.push(chartText(`git-id-${i}`, label, { x: mid.x, y: mid.y - size.height / 2 }, { fontSize: CHART_FONT.small, align: 'center', angle: -Math.PI / 4 }));
      } else {
        const size = textSize(label, CHART_FONT.small);
        const right = centre.x - SPACING.radius - 6;
        // A line arriving across the lanes at this commit's height from the left (a merge from a branch left of it)
        // would strike through the id: the id then stands just above the line, still level with its own commit.
        const struck = across.some((line) => Math.abs(line.y - centre.y) < size.height / 2 + SPACING.lineWidth && line.from < right && line.to > right - size.width);
        const top = struck ? centre.y - SPACING.lineWidth / 2 - 2 - size.height : centre.y - size.height / 2;
        elements.push(chartText(`git-id-${i}`, label, { x: right, y: top }, { fontSize: CHART_FONT.small, align: 'right' }));
      }
    }
    // Tags stand above the commit in rows, left of its id in columns (lines leave and join commits on their sides).
    const idWidth = label === undefined ? 0 : textSize(label, CHART_FONT.small).width + 8;
    commit.tags.forEach((tag, k) => {
      const size = labelBox(tag, CHART_FONT.small);
      const box = rows
        ? { x: centre.x - size.width / 2, y: centre.y - SPACING.radius - 4 - (k + 1) * (size.height + 4), width: size.width, height: size.height }
        : { x: centre.x - SPACING.radius - 6 - idWidth - size.width, y: centre.y - size.height / 2 + k * (size.height + 4), width: size.width, height: size.height };
      // A neighbour's wider tag may reach over this one: it stands a row further out (up in rows, left in columns).
      for (let guard = 0; tagBoxes.some((other) => overlaps(other, box)) && guard < 50; guard++) {
        if (rows) box.y -= size.height + 4;
        else box.x = Math.min(...tagBoxes.filter((other) => overlaps(other, box)).map((other) => other.x)) - size.width - 4;
      }
      tagBoxes.push(box);
      elements.push(chartShape(`git-tag-${i}-${k}`, 'rectangle', box, { fill: '#fff9db', stroke: CHART_LINE, text: tag, fontSize: CHART_FONT.small, role: 'note' }));
    });
  });
  return { elements, warnings };
}


function commitLabel(commit: GitCommit): string | undefined {
  if (commit.label !== undefined) return commit.label;
  return GENERATED_ID.test(commit.id) ? undefined : commit.id;
}

function commitMarks(commit: GitCommit, i: number, centre: Point, color: string): ChartDrawing['elements'] {
  const r = SPACING.radius;
  const box = { x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r };
  const id = `git-commit-${i}`;
  switch (commit.kind) {
    case 'merge':
      return [chartShape(id, 'ellipse', box, { fill: '#ffffff', stroke: color, strokeWidth: 4, role: 'action' })];
    case 'highlight':
      return [chartShape(id, 'rectangle', box, { fill: color, stroke: inkOn('#ffffff'), strokeWidth: 2, role: 'action' })];
    case 'reverse': {
      const d = r * 0.55;
      return [
        chartShape(id, 'ellipse', box, { fill: color, stroke: color, role: 'action' }),
        chartLine(`${id}-cross-1`, [{ x: centre.x - d, y: centre.y - d }, { x: centre.x + d, y: centre.y + d }], { stroke: '#ffffff', strokeWidth: 2 }),
        chartLine(`${id}-cross-2`, [{ x: centre.x - d, y: centre.y + d }, { x: centre.x + d, y: centre.y - d }], { stroke: '#ffffff', strokeWidth: 2 }),
      ];
    }
    case 'cherry-pick':
      return [chartShape(id, 'ellipse', box, { fill: color, stroke: '#ffffff', strokeWidth: 2, role: 'action' })];
    default:
      return [chartShape(id, 'ellipse', box, { fill: color, stroke: color, role: 'action' })];
  }
}
