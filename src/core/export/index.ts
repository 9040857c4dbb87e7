import { AppError } from '../errors.js';
import { CHART_GROUP_PREFIX } from '../graph/chart.js';
import type { Element } from '../scene/intake.js';
import { toExcalidraw } from '../scene/to-excalidraw.js';
import { toD2 } from './d2.js';
import { recoverGraph } from './graph-recovery.js';
import { toMermaid } from './mermaid.js';

/** The export formats and their converters: one registry, used by REST, MCP and the OpenAPI document. */
export const EXPORT_FORMATS = ['excalidraw', 'mermaid', 'd2'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ExportResult =
  | { format: 'excalidraw'; scene: ReturnType<typeof toExcalidraw>['scene']; warnings: string[] }
  | { format: 'mermaid' | 'd2'; code: string; warnings: string[] };

export interface ExportOptions {
  /** The service's public base URL (e.g. `https://draw.example.com`): D2 icons link to `<publicUrl>/icons/…`. */
  publicUrl?: string;
}

export function parseExportFormat(value: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new AppError('unsupported_format', `format must be one of ${EXPORT_FORMATS.join(', ')}; got "${value}"`, { supported: EXPORT_FORMATS });
  }
  return value as ExportFormat;
}

export function exportScene(format: ExportFormat, elements: readonly Element[], options: ExportOptions = {}): ExportResult {
  if (format === 'excalidraw') {
    const { scene, warnings } = toExcalidraw(elements);
    return { format, scene, warnings };
  }
  const graph = recoverGraph(elements);
  const { code, warnings } = format === 'mermaid' ? toMermaid(graph) : toD2(graph, { ...(options.publicUrl !== undefined && { iconBaseUrl: options.publicUrl }) });
  return { format, code, warnings: [...chartWarnings(format, elements), ...warnings] };
}

/** A chart (scene/charts) is written as the shapes it is drawn with: the writers know graphs, not chart syntax. */
function chartWarnings(format: 'mermaid' | 'd2', elements: readonly Element[]): string[] {
  const families = new Set(elements.flatMap((element) => (element.groupIds ?? []).filter((group) => group.startsWith(CHART_GROUP_PREFIX)).map((group) => group.slice(CHART_GROUP_PREFIX.length))));
  return [...families].map(
    (family) => `the ${family} chart is exported as its boxes and texts, not as ${format === 'mermaid' ? `Mermaid's ${family} syntax` : 'a D2 chart'} (the exporter writes graphs only); its slices, lines and axes are left out`,
  );
}
