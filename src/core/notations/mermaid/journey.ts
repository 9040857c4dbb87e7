/** Mermaid `journey` → the user journey chart (graph/chart.ts), from Mermaid's journey database: scored tasks in sections, with the actors taking part. */
import type { JourneyChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface JourneyDb extends TitledDb {
  getSections(): string[];
  getTasks(): { section: string; task: string; score: number; people: string[] }[];
  getActors(): string[];
}

export function journeyToGraph(db: JourneyDb): GraphIR {
  const warnings: string[] = [];
  const tasks = db.getTasks().map((task) => {
    const label = chartLabel(task.task);
    const score = Number(task.score);
    if (!Number.isFinite(score) || score < 1 || score > 5) warnings.push(`task "${label}" scores ${task.score}: drawn at the nearest of 1 to 5`);
    return { label, section: chartLabel(task.section), score: Number.isFinite(score) ? score : 3, people: task.people.map((person) => person.trim()).filter((person) => person !== '') };
  });
  const chart: JourneyChart = { family: 'journey', sections: db.getSections().map(chartLabel), actors: db.getActors().map((actor) => actor.trim()).filter((actor) => actor !== ''), tasks };
  return chartGraph(chart, db, warnings);
}
