/** PlantUML `@startgantt`, read by our own reader and drawn as Mermaid's gantt is (issue 27: it was left out as another family). */
import { describe, expect, it } from 'vitest';
import type { GanttChart } from '../../graph/chart.js';
import { codeToScene, detectNotation } from '../index.js';
import { plantumlNotation } from './index.js';

const DAY = 86_400_000;
const day = (text: string) => Date.parse(`${text}T00:00:00Z`);

function chartOf(code: string): { chart: GanttChart; warnings: string[] } {
  const graph = plantumlNotation.toGraph(code);
  expect(graph.layout).toBe('chart');
  if (graph.chart?.family !== 'gantt') throw new Error('not a gantt chart');
  return { chart: graph.chart, warnings: graph.warnings };
}

describe('PlantUML gantt', () => {
  const plan = [
    '@startgantt',
    'title Release plan',
    'Project starts 2020-07-01',
    'saturday are closed',
    'sunday are closed',
    '-- Design --',
    '[Prototype design] as [PD] lasts 10 days and is colored in Fuchsia/FireBrick',
    '[Test prototype] lasts 1 week',
    "[Test prototype] starts at [PD]'s end",
    "[Prototype completed] happens at [Test prototype]'s end",
    '-- Build --',
    'then [Build] on {Alice} lasts 2 days and is 40% complete',
    '[Review] starts 2020-08-10 and ends 2020-08-14',
    '@endgantt',
  ].join('\n');

  it('places tasks by their sentences: open days only, one task after another, the milestone at its end, sections, colours and progress', () => {
    expect(detectNotation(plan)).toBe('plantuml');
    const { chart, warnings } = chartOf(plan);
    expect(warnings).toEqual([]);
    expect(chart.sections).toEqual(['Design', 'Build']);
    const task = (label: string) => chart.tasks.find((t) => t.label === label)!;
    // Ten open days from Wednesday 1 July, weekends closed: the last is Tuesday 14th.
    expect(task('Prototype design')).toMatchObject({ start: day('2020-07-01'), end: day('2020-07-15'), fill: '#ff00ff', stroke: '#b22222' });
    // A week of open days from the 15th: Wednesday to the next Tuesday, seven working days.
    expect(task('Test prototype')).toMatchObject({ start: day('2020-07-15'), end: day('2020-07-24') });
    expect(task('Prototype completed')).toMatchObject({ milestone: true, start: day('2020-07-24'), end: day('2020-07-24') });
    // `then` starts after the line before; resources are written beside the name.
    expect(task('Build {Alice}')).toMatchObject({ start: day('2020-07-24'), progress: 0.4, section: 'Build' });
    // An end date is the task's last day.
    expect(task('Review')).toMatchObject({ start: day('2020-08-10'), end: day('2020-08-15') });
    // The closed weekends are shaded: the first is Saturday 4 and Sunday 5 July.
    expect(chart.excludedDays?.slice(0, 2)).toEqual([day('2020-07-04'), day('2020-07-05')]);
  });

  it('draws the chart with its title, a bar or diamond per task and dated axis', async () => {
    const scene = await codeToScene(plan);
    const ids = scene.elements.map((element) => element.id);
    expect(ids.filter((id) => /^gantt-task-\d+$/.test(id))).toHaveLength(5);
    const texts = scene.elements.flatMap((element) => ('text' in element && typeof element.text === 'string' ? [element.text] : []));
    expect(texts).toEqual(expect.arrayContaining(['Release plan', 'Design', 'Build', 'Prototype design', '2020-07-05']));
    expect(scene.elements.find((element) => element.id === 'gantt-task-2')!.type).toBe('diamond');
  });

  it('keeps tasks shown under one name apart when each has its own alias', () => {
    const { chart } = chartOf(['@startgantt', '[Week 1] as [w1] lasts 1 week', '[Done] as [w1_end] happens at [w1]\'s end', '[Week 2] as [w2] lasts 1 week', "[w2] starts at [w1]'s end", '[Done] as [w2_end] happens at [w2]\'s end', '@endgantt'].join('\n'));
    expect(chart.tasks.map((task) => [task.label, task.milestone, task.start / DAY])).toEqual([
      ['Week 1', false, 0],
      ['Done', true, 7],
      ['Week 2', false, 7],
      ['Done', true, 14],
    ]);
  });

  it('counts days from 0 without a project start, and says what it does not read', () => {
    const { chart, warnings } = chartOf(['@startgantt', '[Task1] requires 8 days', 'then [Task2] requires 4 days', 'Task3 lasts forever', '@endgantt'].join('\n'));
    expect(chart.dayNumbers).toBe(true);
    expect(chart.tasks.map((task) => [task.start / DAY, task.end / DAY])).toEqual([
      [0, 8],
      [8, 12],
    ]);
    expect(warnings).toEqual(['line 4: "Task3 lasts forever" is not a gantt sentence read here: left out']);
  });
});
