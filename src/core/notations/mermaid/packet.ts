/** Mermaid `packet` → the packet chart (graph/chart.ts), from Mermaid's packet database: its rows of fields as Mermaid splits them. */
import type { PacketChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface PacketDb extends TitledDb {
  getPacket(): { start: number; end: number; label: string }[][];
  getConfig(): { bitsPerRow?: number };
}

export function packetToGraph(db: PacketDb): GraphIR {
  const chart: PacketChart = {
    family: 'packet',
    bitsPerRow: db.getConfig().bitsPerRow ?? 32,
    rows: db.getPacket().map((row) => row.map((field) => ({ start: field.start, end: field.end, label: chartLabel(field.label) }))),
  };
  return chartGraph(chart, db);
}
