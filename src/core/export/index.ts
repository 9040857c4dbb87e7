import { AppError } from '../errors.js';
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
  return { format, code, warnings };
}
