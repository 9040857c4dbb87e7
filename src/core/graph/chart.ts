/**
 * Charts: diagram families that are not graphs (Mermaid's gitGraph, gantt, timeline, pie, journey, quadrantChart,
 * xychart, kanban, sankey, packet, treemap and radar). A parser fills one of these models (`GraphIR.chart`, with `layout: 'chart'`) from the original
 * tool's own database; `scene/charts` draws it with a fixed layout of the family, as the original tool does, so no
 * graph layout runs. Times are milliseconds since the epoch (UTC), values plain numbers.
 */

export type GitCommitKind = 'normal' | 'reverse' | 'highlight' | 'merge' | 'cherry-pick';

export interface GitCommit {
  id: string;
  /** The branch the commit is on. */
  branch: string;
  /** Parent commit ids: the first on the commit's own branch, a second for a merge or a cherry-pick's source. */
  parents: string[];
  kind: GitCommitKind;
  tags: string[];
  /** The id the author wrote (`commit id: "A"`), shown under the commit; generated ids are not shown. */
  label?: string;
}

export interface GitGraphChart {
  family: 'gitGraph';
  /** LR: branches are rows and time runs right; TB and BT: branches are columns and time runs down or up. */
  direction: 'LR' | 'TB' | 'BT';
  /** The author wrote the direction (`gitGraph LR:`), rather than leaving Mermaid's default. */
  directionWritten?: boolean;
  /** In the order the author declared them (or `order:` sorted them); the main branch first. */
  branches: string[];
  /** In the order they were made. */
  commits: GitCommit[];
}

export interface GanttTask {
  label: string;
  section: string;
  start: number;
  end: number;
  milestone: boolean;
  /** A `vert` task: a line across the whole chart at its start, not a bar. */
  marker: boolean;
  /** Mermaid's task tags: crit (red), active (lighter), done (grey). */
  crit: boolean;
  active: boolean;
  done: boolean;
  /** The author's colours (PlantUML `is colored in Fill/Line`). */
  fill?: string;
  stroke?: string;
  /** Share done, 0..1 (PlantUML `is 40% complete`). */
  progress?: number;
}

export interface GanttChart {
  family: 'gantt';
  sections: string[];
  tasks: GanttTask[];
  /** A d3 time format for the axis (`%Y-%m-%d`), when the author set one. */
  axisFormat?: string;
  /** Times count days from the project's day 0, not dates (PlantUML without `Project starts`): the axis says day numbers. */
  dayNumbers?: boolean;
  /** Days no task works on (Mermaid `excludes`, PlantUML closed days), each by its midnight: shaded across the chart. */
  excludedDays?: number[];
}

export interface TimelinePeriod {
  label: string;
  section?: string;
  events: string[];
}

export interface TimelineChart {
  family: 'timeline';
  sections: string[];
  periods: TimelinePeriod[];
}

export interface PieChart {
  family: 'pie';
  /** `pie showData`: each value written beside its label in the legend. */
  showData: boolean;
  slices: { label: string; value: number }[];
}

export interface JourneyTask {
  label: string;
  section: string;
  /** 1 (bad) to 5 (good), as the author scored it. */
  score: number;
  people: string[];
}

export interface JourneyChart {
  family: 'journey';
  sections: string[];
  actors: string[];
  tasks: JourneyTask[];
}

export interface QuadrantChart {
  family: 'quadrant';
  /** Left and right ends of the x axis, bottom and top of the y axis, as written (empty when not). */
  xAxis: [string, string];
  yAxis: [string, string];
  /** quadrant-1 (top right), quadrant-2 (top left), quadrant-3 (bottom left), quadrant-4 (bottom right). */
  quadrants: [string, string, string, string];
  /** Positions 0..1 from the bottom left; a colour and radius when the author styled the point. */
  points: { label: string; x: number; y: number; color?: string; radius?: number }[];
}

export interface XyPlot {
  type: 'bar' | 'line';
  /** One value per category, in the categories' order. */
  values: number[];
}

export interface XyChart {
  family: 'xy';
  /** `xychart horizontal`: categories down the side, values across. */
  horizontal: boolean;
  xTitle: string;
  categories: string[];
  yTitle: string;
  yRange: { min: number; max: number };
  plots: XyPlot[];
  /** Mermaid's `showDataLabel`: each bar's value written on it. */
  showValues: boolean;
}

export interface KanbanCard {
  label: string;
  ticket?: string;
  assigned?: string;
  priority?: string;
}

export interface KanbanChart {
  family: 'kanban';
  columns: { label: string; cards: KanbanCard[] }[];
}

export interface SankeyChart {
  family: 'sankey';
  /** In the order first named. */
  nodes: string[];
  links: { from: string; to: string; value: number }[];
  /** Mermaid's `showValues` (on by default): each node's total written after its name. */
  showValues: boolean;
}

export interface PacketChart {
  family: 'packet';
  /** Bits in one row (Mermaid's bitsPerRow, 32 by default). */
  bitsPerRow: number;
  /** Rows of fields, each field's first and last bit as numbered in the packet. */
  rows: { start: number; end: number; label: string }[][];
}

export interface TreemapItem {
  label: string;
  /** A leaf's value; a section's is the sum of its items'. */
  value?: number;
  children: TreemapItem[];
}

export interface TreemapChart {
  family: 'treemap';
  items: TreemapItem[];
}

export interface RadarChart {
  family: 'radar';
  /** Axis labels clockwise from twelve o'clock. */
  axes: string[];
  /** Each curve's value on every axis, in the axes' order. */
  curves: { label: string; values: number[] }[];
  min: number;
  max: number;
  /** Rings between min and max. */
  ticks: number;
  /** Mermaid's graticule: circles or polygons. */
  graticule: 'circle' | 'polygon';
  showLegend: boolean;
}

export type Chart =
  | GitGraphChart
  | GanttChart
  | TimelineChart
  | PieChart
  | JourneyChart
  | QuadrantChart
  | XyChart
  | KanbanChart
  | SankeyChart
  | PacketChart
  | TreemapChart
  | RadarChart;
export type ChartFamily = Chart['family'];

/**
 * Every element of a drawn chart shares the group `chart-<family>`, so the chart moves as one and an export can tell
 * a chart from a graph: Mermaid's and D2's graph writers have no chart syntax.
 */
export const CHART_GROUP_PREFIX = 'chart-';
export const chartGroup = (family: ChartFamily): string => `${CHART_GROUP_PREFIX}${family}`;
