import { AppError } from '../errors.js';
import type { Element } from '../scene/intake.js';
import { toExcalidraw } from '../scene/to-excalidraw.js';

/** The export formats and their converters: one registry, used by REST, MCP and the OpenAPI document. */
export const EXPORT_FORMATS = ['excalidraw'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ExportResult = { format: 'excalidraw'; scene: ReturnType<typeof toExcalidraw>['scene']; warnings: string[] };

export function parseExportFormat(value: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new AppError('unsupported_format', `format must be one of ${EXPORT_FORMATS.join(', ')}; got "${value}"`, { supported: EXPORT_FORMATS });
  }
  return value as ExportFormat;
}

export function exportScene(format: ExportFormat, elements: readonly Element[]): ExportResult {
  const { scene, warnings } = toExcalidraw(elements);
  return { format, scene, warnings };
}
