/**
 * Mermaid's charts (gitGraph, gantt, timeline, pie, journey, quadrantChart, xychart, kanban), read by Mermaid's own databases and drawn in their
 * family's fixed layout (scene/charts), on the documentation's own examples (issue 27: a README block of these drew
 * nothing but a refusal).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { Chart } from '../../graph/chart.js';
import { checkScene } from '../../quality/check.js';
import { intakeScene } from '../../scene/intake.js';
import { codeToScene, detectNotation } from '../index.js';
import { mermaidNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/mermaid-charts/${name}`, import.meta.url), 'utf8');

type Drawn = Awaited<ReturnType<typeof codeToScene>>;
type Element = Drawn['elements'][number] & { text?: string; fillColor?: string; fontSize?: number; points?: { x: number; y: number }[] };

async function draw(name: string): Promise<{ chart: Chart; elements: Element[]; warnings: string[]; scene: Drawn }> {
  const code = fixture(name);
  expect(detectNotation(code)).toBe('mermaid');
  const scene = await codeToScene(code);
  expect(scene.graph.layout).toBe('chart');
  return { chart: scene.graph.chart!, elements: scene.elements as Element[], warnings: scene.warnings, scene };
}

const byPrefix = (elements: Element[], prefix: string) => elements.filter((element) => element.id.startsWith(prefix));
const texts = (elements: Element[]) => elements.flatMap((element) => (element.text === undefined ? [] : [element.text]));

/** The drawing rules a chart must keep: labels fit and read on their fills, free texts stay apart, 11 px at 880 px. */
function readingViolations(elements: Element[]): string[] {
  const { elements: stored } = intakeScene(elements);
  return checkScene(stored).violations.filter((line) => /does not fit|contrast|^texts .* overlap|smallest text/.test(line));
}

describe('Mermaid gitGraph', () => {
  it('draws the documentation\'s six branches as lanes, every commit on its branch, merges hollow, the tag and the written id', async () => {
    const { chart, elements, warnings } = await draw('mermaid-docs-gitgraph.mmd');
    if (chart.family !== 'gitGraph') throw new Error(chart.family);
    expect(chart.branches).toEqual(['main', 'hotfix', 'develop', 'featureB', 'featureA', 'release']);
    // 13 commit lines and 5 merges in the file.
    expect(chart.commits).toHaveLength(18);
    expect(chart.commits.filter((commit) => commit.kind === 'merge')).toHaveLength(5);
    const lanes = byPrefix(elements, 'git-branch-');
    expect(lanes.map((lane) => lane.text)).toEqual(chart.branches);
    // Lanes are rows, in the declared order, top to bottom.
    expect(lanes.map((lane) => lane.y)).toEqual([...lanes.map((lane) => lane.y!)].sort((a, b) => a - b));
    const commits = elements.filter((element) => /^git-commit-\d+$/.test(element.id));
    expect(commits).toHaveLength(18);
    expect(commits.filter((commit) => commit.fillColor === '#ffffff')).toHaveLength(5);
    expect(commits.filter((commit) => commit.type === 'rectangle')).toHaveLength(1);
    // Each commit sits on its branch's row.
    chart.commits.forEach((commit, i) => {
      const lane = lanes[chart.branches.indexOf(commit.branch)]!;
      expect(commits[i]!.y! + commits[i]!.height! / 2).toBeCloseTo(lane.y! + lane.height! / 2, 1);
    });
    expect(texts(elements)).toEqual(expect.arrayContaining(['abc', 'ash']));
    // Mermaid's made-up ids (`3-a1b2c3d`, new on every parse) are not the author's and are not shown.
    expect(texts(elements).some((text) => /^\d+-[0-9a-f]{7}$/.test(text))).toBe(false);
    // Every parent joined: 17 first parents and 5 merged branches.
    expect(byPrefix(elements, 'git-link-')).toHaveLength(22);
    expect(warnings).toEqual([]);
    expect(readingViolations(elements)).toEqual([]);
  });

  it('keeps each slanted commit id above the next lane, clear of its line, commits and ids (a README\'s long ids)', async () => {
    // video-downloader's ids run to 36 characters: at the usual row gap their slants reached two lanes down.
    const { chart, elements } = await draw('video-downloader-branching-gitgraph.mmd');
    if (chart.family !== 'gitGraph') throw new Error(chart.family);
    const lanes = byPrefix(elements, 'git-branch-').map((lane) => lane.y! + lane.height! / 2);
    expect(lanes).toHaveLength(3);
    chart.commits.forEach((commit, i) => {
      const id = elements.find((element) => element.id === `git-id-${i}`);
      if (id === undefined) return;
      // The id is drawn at 45°: its lowest point is its centre plus half its slanted extent.
      const lowest = id.y! + id.height! / 2 + ((id.width! + id.height!) * Math.SQRT1_2) / 2;
      const below = lanes[chart.branches.indexOf(commit.branch) + 1];
      if (below !== undefined) expect(lowest).toBeLessThan(below - 10);
    });
  });

  it('keeps a top-down commit id clear of a merge line arriving from a lane on its left (Semantic Kernel\'s OpenAI versions)', async () => {
    // AzureOpenAI merges OpenAI four times: the merge line ran through "AOAI 2.0 GA" and the other ids beside it.
    const { elements } = await draw('semantic-kernel-openai-versions-gitgraph.mmd');
    const legs = byPrefix(elements, 'git-link-').flatMap((line) => {
      const points = line.points!;
      return points.slice(1).map((p, k) => [points[k]!, p] as const).filter(([a, b]) => Math.abs(a.y - b.y) < 0.5);
    });
    const ids = byPrefix(elements, 'git-id-');
    expect(ids.map((id) => id.text)).toContain('AOAI 2.0 GA');
    for (const id of ids) {
      const struck = legs.filter(([a, b]) => a.y > id.y! && a.y < id.y! + id.height! && Math.max(a.x, b.x) > id.x! && Math.min(a.x, b.x) < id.x! + id.width!);
      expect(struck, id.text).toEqual([]);
    }
    expect(readingViolations(elements)).toEqual([]);
  });

  it('draws a cherry-pick on its branch with a dashed line from the picked commit', async () => {
    const { elements } = await draw('mermaid-docs-gitgraph-cherry-pick.mmd');
    expect(texts(elements)).toEqual(expect.arrayContaining(['ZERO', 'MERGE', 'THREE', 'cherry-pick:MERGE|parent:B']));
    expect(byPrefix(elements, 'git-link-').filter((line) => line.strokeStyle === 'dashed')).toHaveLength(1);
  });

  it('stacks the tags of neighbouring commits rather than drawing one over the other', async () => {
    const scene = await codeToScene('gitGraph\n  commit id: "a" tag: "release-candidate-2024-01"\n  commit id: "b" tag: "hotfix-2024-01-15"\n  commit id: "c" tag: "v1"\n');
    const tags = byPrefix(scene.elements as Element[], 'git-tag-');
    expect(tags).toHaveLength(3);
    const apart = (a: Element, b: Element) => a.x! + a.width! <= b.x! || b.x! + b.width! <= a.x! || a.y! + a.height! <= b.y! || b.y! + b.height! <= a.y!;
    expect(apart(tags[0]!, tags[1]!) && apart(tags[1]!, tags[2]!) && apart(tags[0]!, tags[2]!)).toBe(true);
  });

  it('turns a long history left in Mermaid\'s default row top-down, and says so; a written LR keeps the row', async () => {
    const commits = Array.from({ length: 24 }, (_, i) => `  commit id: "c${i}"`).join('\n');
    const turned = await codeToScene(`gitGraph\n${commits}\n`);
    const lane = turned.elements.find((element) => element.id === 'git-commit-23')!;
    expect(lane.y).toBeGreaterThan(lane.x! * 4);
    expect(turned.warnings).toEqual([expect.stringMatching(/^24 commits drawn top-down/)]);
    const kept = await codeToScene(`gitGraph LR:\n${commits}\n`);
    const last = kept.elements.find((element) => element.id === 'git-commit-23')!;
    expect(last.x).toBeGreaterThan(last.y! * 4);
    expect(kept.warnings).toEqual([]);
  });
});

describe('Mermaid gantt', () => {
  it('draws the documentation\'s gantt: a bar per task on a dated axis, sections, the milestone, done, active and crit colours', async () => {
    const { chart, elements } = await draw('mermaid-docs-gantt.mmd');
    if (chart.family !== 'gantt') throw new Error(chart.family);
    expect(chart.sections).toEqual(['A section', 'Critical tasks', 'Documentation', 'Last section']);
    // 4, 7, 3 and 3 task lines in the four sections.
    expect(chart.tasks).toHaveLength(17);
    const tasks = elements.filter((element) => /^gantt-task-\d+$/.test(element.id));
    expect(tasks).toHaveLength(17);
    // Bars lie where Mermaid's dates put them: "Active task" runs 2014-01-09 for 3 days, after "Completed task".
    const bar = (label: string) => {
      const i = chart.tasks.findIndex((task) => task.label === label);
      return tasks[i]!;
    };
    // Weekends are excluded: its three days end on Tuesday 14th.
    expect(chart.tasks.find((task) => task.label === 'Active task')).toMatchObject({ start: Date.UTC(2014, 0, 9), end: Date.UTC(2014, 0, 14), active: true });
    // "Completed task" runs two days from the 6th; "Active task" starts a day after it ends, on the axis's scale.
    expect(bar('Active task').x! - bar('Completed task').x!).toBeCloseTo(bar('Completed task').width! * 1.5, 0);
    expect(bar('Functionality added').type).toBe('diamond');
    expect(bar('Future task in critical line').fillColor).toBe('#ff8888');
    expect(bar('Completed task').fillColor).toBe('#d3d3d3');
    expect(texts(elements)).toEqual(expect.arrayContaining(['A section', 'Critical tasks', 'Documentation', 'Last section', '2014-01-12', '2014-01-19', '2014-01-26']));
    // `excludes weekends`: the weekends are shaded, the first Saturday 11 and Sunday 12 January as one band.
    expect(chart.excludedDays?.slice(0, 2)).toEqual([Date.UTC(2014, 0, 11), Date.UTC(2014, 0, 12)]);
    const weekend = elements.find((element) => element.id === 'gantt-excluded-0')!;
    expect(weekend.width).toBeCloseTo(bar('Completed task').width!, 1);
    // Rows top to bottom in the author's order.
    const tops = tasks.map((task) => task.y! + task.height! / 2);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(readingViolations(elements)).toEqual([]);
  });

  it('marks a release pipeline timed in seconds and minutes every five minutes, not once at its start (Powertools’ release gantt)', async () => {
    const { elements } = await draw('powertools-release-gantt.mmd');
    // Its tasks run 10:00 to about 10:33 (`dateFormat HH:mm`, durations of 8s to 6.3m): an hourly axis had only 10:00.
    const dates = byPrefix(elements, 'gantt-date-').map((element) => element.text);
    expect(dates).toEqual(['10:00', '10:05', '10:10', '10:15', '10:20', '10:25', '10:30']);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid timeline', () => {
  it('draws the documentation\'s timeline: sections over their periods, each period\'s events under it', async () => {
    const { chart, elements } = await draw('mermaid-docs-timeline.mmd');
    if (chart.family !== 'timeline') throw new Error(chart.family);
    expect(chart.periods.map((period) => period.label)).toEqual(['Industry 1.0', 'Industry 2.0', 'Industry 3.0', 'Industry 4.0', 'Industry 5.0']);
    const sections = byPrefix(elements, 'timeline-section-');
    expect(sections.map((section) => section.text)).toEqual(['17th-20th century', '21st century']);
    const periods = elements.filter((element) => /^timeline-period-\d+$/.test(element.id));
    // The first section spans its three periods, the second its two.
    expect(sections[0]!.x).toBe(periods[0]!.x);
    expect(sections[0]!.x! + sections[0]!.width!).toBe(periods[2]!.x! + periods[2]!.width!);
    const event = elements.find((element) => element.id === 'timeline-event-3-0')!;
    expect(event.text).toBe('Internet, Robotics,\nInternet of Things');
    expect(event.x).toBe(periods[3]!.x);
    expect(event.y).toBeGreaterThan(periods[3]!.y! + periods[3]!.height!);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid timeline bands', () => {
  it('goes on in another band past six periods, sharing them evenly, so a long roadmap stays readable at 880 px', async () => {
    const periods = Array.from({ length: 8 }, (_, i) => `  v1.${i} : Release ${i} of the platform`).join('\n');
    const { elements } = await codeToScene(`timeline\n${periods}\n`).then((scene) => ({ elements: scene.elements as Element[] }));
    expect(byPrefix(elements, 'timeline-axis-')).toHaveLength(2);
    const tops = elements.filter((element) => /^timeline-period-\d+$/.test(element.id)).map((period) => period.y);
    expect(new Set(tops.slice(0, 4)).size).toBe(1);
    expect(tops[4]).toBeGreaterThan(tops[3]!);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid pie', () => {
  it('draws the documentation\'s pie: filled slices in the order written with their shares, a legend with the values', async () => {
    const { elements } = await draw('mermaid-docs-pie.mmd');
    const slices = byPrefix(elements, 'pie-slice-');
    expect(slices).toHaveLength(4);
    for (const slice of slices) {
      expect(slice.type).toBe('line');
      expect(slice.points![0]).toEqual(slice.points!.at(-1));
      expect(slice.fillColor).not.toBe('transparent');
    }
    expect(byPrefix(elements, 'pie-share-').map((share) => share.text)).toEqual(['40%', '46%', '9%', '5%']);
    expect(texts(elements)).toEqual(expect.arrayContaining(['Calcium [42.96]', 'Potassium [50.05]', 'Magnesium [10.01]', 'Iron [5]', 'Key elements in Product X']));
    // Clockwise from twelve o'clock: the first slice starts straight up from the centre and turns right.
    const first = slices[0]!.points!;
    expect(first[1]!.x).toBeCloseTo(first[0]!.x, 1);
    expect(first[1]!.y).toBeLessThan(first[0]!.y);
    expect(first[2]!.x).toBeGreaterThan(first[1]!.x);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid journey', () => {
  it('draws the documentation\'s journey: sections over their tasks, each task\'s actors, a face at its score', async () => {
    const { chart, elements } = await draw('mermaid-docs-journey.mmd');
    if (chart.family !== 'journey') throw new Error(chart.family);
    expect(chart.actors).toEqual(['Cat', 'Me']);
    expect(byPrefix(elements, 'journey-section-').map((section) => section.text)).toEqual(['Go to work', 'Go home']);
    const tasks = elements.filter((element) => /^journey-task-\d+$/.test(element.id));
    expect(tasks.map((task) => task.text)).toEqual(['Make tea', 'Go upstairs', 'Do work', 'Go downstairs', 'Sit down']);
    // "Do work" (Me and Cat) has two actor dots.
    expect(byPrefix(elements, 'journey-task-2-actor-')).toHaveLength(2);
    // Scores 5, 3, 1, 5, 5: the better the score, the higher the face.
    const face = (i: number) => elements.find((element) => element.id === `journey-score-${i}`)!.y!;
    expect(face(0)).toBe(face(3));
    expect(face(0)).toBeLessThan(face(1));
    expect(face(1)).toBeLessThan(face(2));
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid quadrantChart', () => {
  it('draws the documentation\'s quadrant chart: four named quadrants, the axes\' ends, every campaign at its written place', async () => {
    const { chart, elements } = await draw('mermaid-docs-quadrant.mmd');
    if (chart.family !== 'quadrant') throw new Error(chart.family);
    expect(chart.quadrants).toEqual(['We should expand', 'Need to promote', 'Re-evaluate', 'May be improved']);
    expect(chart.xAxis).toEqual(['Low Reach', 'High Reach']);
    expect(chart.yAxis).toEqual(['Low Engagement', 'High Engagement']);
    // Values read back from Mermaid's drawing are the ones written (Campaign A: [0.3, 0.6]).
    expect(chart.points[0]).toMatchObject({ label: 'Campaign A', x: 0.3, y: 0.6 });
    const square = elements.find((element) => element.id === 'quadrant-frame')!;
    const point = elements.find((element) => element.id === 'quadrant-point-0')!;
    expect(point.x! + point.width! / 2).toBeCloseTo(square.x! + 0.3 * square.width!, 0);
    expect(point.y! + point.height! / 2).toBeCloseTo(square.y! + 0.4 * square.height!, 0);
    expect(texts(elements)).toEqual(expect.arrayContaining(['Campaign F', 'We should expand', 'High Engagement']));
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid xychart', () => {
  it('draws the documentation\'s xy chart: a bar per month on the value axis, the line through the same values', async () => {
    const { chart, elements } = await draw('mermaid-docs-xychart.mmd');
    if (chart.family !== 'xy') throw new Error(chart.family);
    expect(chart.categories).toHaveLength(12);
    expect(chart.yRange).toEqual({ min: 4000, max: 11000 });
    const bars = byPrefix(elements, 'xy-bar-0-');
    expect(bars).toHaveLength(12);
    // 11,000 in July reaches the top of the 4,000–11,000 axis; 5,000 in January a seventh of it.
    expect(bars[6]!.height! / bars[0]!.height!).toBeCloseTo(7, 1);
    const line = elements.find((element) => element.id === 'xy-line-1')!;
    expect(line.points).toHaveLength(12);
    expect(line.points![6]!.y).toBeCloseTo(bars[6]!.y!, 1);
    expect(texts(elements)).toEqual(expect.arrayContaining(['jan', 'dec', 'Revenue (in $)', '10,000']));
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid xychart settings', () => {
  it('writes each bar\'s value under showDataLabel, and lays a horizontal chart on its side', async () => {
    const labelled = await codeToScene('---\nconfig:\n  xyChart:\n    showDataLabel: true\n---\nxychart\n  x-axis [a, b]\n  y-axis 0 --> 30\n  bar [12, 25]\n');
    expect(byPrefix(labelled.elements as Element[], 'xy-value-').map((value) => value.text)).toEqual(['12', '25']);
    const turned = await codeToScene('xychart horizontal\n  x-axis [north, south]\n  y-axis 0 --> 100\n  bar [40, 90]\n');
    const bars = byPrefix(turned.elements as Element[], 'xy-bar-0-');
    // Bars grow to the right, one under the other, and 90 is longer than 40.
    expect(bars[1]!.y).toBeGreaterThan(bars[0]!.y! + bars[0]!.height!);
    expect(bars[1]!.width! / bars[0]!.width!).toBeCloseTo(90 / 40, 1);
    expect(bars[0]!.width).toBeGreaterThan(bars[0]!.height!);
  });
});

describe('Mermaid kanban', () => {
  it('draws the documentation\'s board: a column per section, its cards in order with tickets, assignees and priority strips', async () => {
    const { chart, elements, warnings } = await draw('mermaid-docs-kanban.mmd');
    if (chart.family !== 'kanban') throw new Error(chart.family);
    expect(chart.columns.map((column) => column.label)).toEqual(['Todo', 'In progress', 'Ready for deploy', 'Ready for test', 'Done', "Can't reproduce"]);
    expect(chart.columns.map((column) => column.cards.length)).toEqual([2, 1, 1, 2, 3, 1]);
    const columns = elements.filter((element) => /^kanban-column-\d+$/.test(element.id));
    expect(columns).toHaveLength(6);
    const card = elements.find((element) => element.id === 'kanban-column-3-card-0')!;
    expect(card.text).toMatch(/MC-2038\n?.*@K\.Sveidqvist$/s);
    expect(card.x).toBeGreaterThan(columns[3]!.x!);
    expect(card.x! + card.width!).toBeLessThan(columns[3]!.x! + columns[3]!.width!);
    // High, Very Low, Very High and High: four strips.
    expect(elements.filter((element) => element.id.endsWith('-priority'))).toHaveLength(4);
    expect(warnings).toEqual([]);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid packet', () => {
  it('draws the documentation\'s TCP header: 32-bit rows, each field across its bits with its first and last bit numbered', async () => {
    const { chart, elements } = await draw('mermaid-docs-packet.mmd');
    if (chart.family !== 'packet') throw new Error(chart.family);
    expect(chart.rows).toHaveLength(8);
    const fields = elements.filter((element) => /^packet-field-\d+-\d+$/.test(element.id));
    expect(fields).toHaveLength(18);
    const field = (label: string) => fields.find((element) => element.text === label || elements.some((text) => text.id === `${element.id}-name` && text.text === label))!;
    // Source Port is bits 0–15: half a row; Window (112–127) starts where bit 16 of its row would.
    expect(field('Source Port').width! * 2).toBeCloseTo(field('Sequence Number').width!, 1);
    expect(field('Window').x).toBeCloseTo(field('Destination Port').x!, 1);
    expect(texts(elements)).toEqual(expect.arrayContaining(['URG', '0', '15', '255']));
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid treemap', () => {
  it('draws the documentation\'s treemap: areas in proportion to the values, items inside their section under its name', async () => {
    const { chart, elements } = await draw('mermaid-docs-treemap.mmd');
    if (chart.family !== 'treemap') throw new Error(chart.family);
    const box = (label: string) => elements.find((element) => element.text === label || element.text?.startsWith(`${label}\n`))!;
    const area = (element: Element) => element.width! * element.height!;
    expect(area(box('Phones')) / area(box('Accessories'))).toBeCloseTo(50 / 20, 1);
    expect(box('Phones').text).toBe('Phones\n50');
    const clothing = box('Clothing');
    const mens = box("Men's");
    expect(mens.x).toBeGreaterThanOrEqual(clothing.x!);
    expect(mens.x! + mens.width!).toBeLessThanOrEqual(clothing.x! + clothing.width! + 0.01);
    expect(mens.y).toBeGreaterThan(clothing.y! + clothing.height!);
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid radar', () => {
  it('draws the documentation\'s grades: six axes clockwise from the top, a filled curve per student at its values, a legend', async () => {
    const { chart, elements } = await draw('mermaid-docs-radar.mmd');
    if (chart.family !== 'radar') throw new Error(chart.family);
    expect(chart.axes).toEqual(['Math', 'Science', 'English', 'History', 'Geography', 'Art']);
    const axis = elements.find((element) => element.id === 'radar-axis-0')!;
    const alice = elements.find((element) => element.id === 'radar-curve-0')!;
    // Alice's 85 in Math lies on the upright axis, 85 % of the way out.
    const [centre, top] = axis.points!;
    expect(alice.points![0]!.x).toBeCloseTo(centre!.x, 1);
    expect((centre!.y - alice.points![0]!.y) / (centre!.y - top!.y)).toBeCloseTo(0.85, 2);
    expect(alice.points![0]).toEqual(alice.points!.at(-1));
    expect(texts(elements)).toEqual(expect.arrayContaining(['Alice', 'Bob', 'Geography']));
    expect(readingViolations(elements)).toEqual([]);
  });
});

describe('Mermaid chart refusals', () => {
  it('refuses a gitGraph Mermaid refuses with Mermaid\'s message', async () => {
    await expect(mermaidNotation.toGraph('gitGraph\n  commit id: "a"\n  cherry-pick id: "a"')).rejects.toMatchObject({ code: 'parse_error' });
  });

  it('refuses a gantt whose task name holds a colon with the line to blame, not a crash (a roadmap\'s freeze task)', async () => {
    // Mermaid itself stops on this chart with "Cannot read properties of undefined (reading 'type')".
    const code = ['gantt', '    dateFormat YYYY-MM-DD', '    section Outreach', '    Education Outreach :2026-06-15, 2026-10-31', '    CRITICAL FREEZE: NO EDITS :crit, f1, 2026-07-15, 2026-10-31'].join('\n');
    const refusal = await mermaidNotation.toGraph(code).then(() => undefined, (error: unknown) => error as AppError);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'parse_error', details: { line: 5 } });
    expect(refusal!.message).toContain('"CRITICAL FREEZE: NO EDITS" has a \':\' in its name');
  });
});

describe('Mermaid chart export', () => {
  it('says that a chart is exported as its boxes, not as the chart\'s syntax', async () => {
    const { exportScene } = await import('../../export/index.js');
    const { elements } = await draw('mermaid-docs-pie.mmd');
    const exported = exportScene('mermaid', intakeScene(elements).elements);
    expect(exported.warnings[0]).toMatch(/^the pie chart is exported as its boxes and texts, not as Mermaid's pie syntax/);
  });
});

describe('Mermaid gitGraph configuration', () => {
  it('names the main branch as the front matter configures it (Mermaid\'s own metro-line example)', async () => {
    const code = ['---', 'config:', '  gitGraph:', "    mainBranchName: 'MetroLine1'", '---', 'gitGraph', '  commit id:"NewYork"', '  branch MetroLine2', '  commit id:"Chicago"', '  checkout MetroLine1', '  merge MetroLine2'].join('\n');
    const graph = await mermaidNotation.toGraph(code);
    expect(graph.chart).toMatchObject({ branches: ['MetroLine1', 'MetroLine2'] });
    // The setting does not outlive its diagram.
    expect((await mermaidNotation.toGraph('gitGraph\n  commit')).chart).toMatchObject({ branches: ['main'] });
  });
});

describe('Mermaid sankey', () => {
  it('draws the documentation\'s energy flows: sources left, sinks in the last column, a band per flow as wide as its value', async () => {
    const { chart, elements } = await draw('mermaid-docs-sankey.mmd');
    if (chart.family !== 'sankey') throw new Error(chart.family);
    expect(chart.links).toHaveLength(68);
    expect(chart.nodes).toHaveLength(48);
    // The front matter turns the values off.
    expect(chart.showValues).toBe(false);
    const node = (name: string) => elements.find((element) => element.id === `sankey-node-${chart.nodes.indexOf(name)}`)!;
    expect(node('Nuclear').x).toBe(0);
    expect(node('Losses').x).toBe(node('National navigation').x);
    expect(node('Losses').x).toBeGreaterThan(node('Thermal generation').x!);
    const flows = byPrefix(elements, 'sankey-flow-');
    expect(flows).toHaveLength(68);
    expect(flows.every((flow) => flow.points![0]!.x === flow.points!.at(-1)!.x && flow.fillColor !== 'transparent')).toBe(true);
    // Nuclear's 839.978 all goes to thermal generation: its band is as tall as its node.
    const nuclear = flows[chart.links.findIndex((link) => link.from === 'Nuclear')]!;
    expect(nuclear.points![0]!.y - nuclear.points!.at(-2)!.y).toBeCloseTo(-node('Nuclear').height!, 0);
    expect(texts(elements)).toEqual(expect.arrayContaining(['Nuclear', 'Losses']));
  });
});
