import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { intakeScene } from '../scene/intake.js';
import { EXPORT_FORMATS, exportScene, parseExportFormat } from './index.js';

const elements = intakeScene([
  { id: 'api', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'API', iconRef: 'aws/Amazon S3' },
  { id: 'db', type: 'cylinder', x: 0, y: 300, width: 160, height: 80, text: 'DB' },
  { id: 'q', type: 'arrow', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' } },
  { id: 'aside', type: 'text', x: 900, y: 900, text: 'todo' },
]).elements;

describe('export registry', () => {
  it('offers excalidraw, mermaid and d2, and names them when asked for another format', () => {
    expect(EXPORT_FORMATS).toEqual(['excalidraw', 'mermaid', 'd2']);
    expect(parseExportFormat('d2')).toBe('d2');
    const error = (() => {
      try {
        parseExportFormat('plantuml');
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toBe('format must be one of excalidraw, mermaid, d2; got "plantuml"');
  });

  it('exports code with the lossy parts in warnings, icons linked from the public URL', () => {
    const mermaid = exportScene('mermaid', elements);
    expect(mermaid.format).toBe('mermaid');
    expect(mermaid.format === 'mermaid' && mermaid.code).toContain('  api --> db\n');
    expect(mermaid.warnings).toContain('element "aside" (text): free text "todo" is on no shape or arrow, so it is not exported');
    const d2 = exportScene('d2', elements, { publicUrl: 'https://draw.example.com' });
    expect(d2.format === 'd2' && d2.code).toContain('icon: "https://draw.example.com/icons/aws/Amazon%20S3.svg"');
    expect(d2.warnings).toContain('element "aside" (text): free text "todo" is on no shape or arrow, so it is not exported');
  });

  it('exports a text linked to its arrow (labelOf) as that arrow\'s label, however far from it it was drawn', () => {
    const linked = intakeScene([...elements.filter((e) => e.id !== 'aside'), { id: 'q-label', type: 'text', x: 600, y: 150, text: 'SQL', labelOf: 'q' }]).elements;
    const mermaid = exportScene('mermaid', linked);
    expect(mermaid.format === 'mermaid' && mermaid.code).toContain('  api -->|"SQL"| db\n');
    expect(mermaid.warnings.join()).not.toMatch(/SQL/);
  });

  it('keeps the Excalidraw export as it was', () => {
    const result = exportScene('excalidraw', elements);
    expect(result.format).toBe('excalidraw');
    expect(result.format === 'excalidraw' && result.scene.type).toBe('excalidraw');
  });
});
