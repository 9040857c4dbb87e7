import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codeToScene } from '../notations/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { intakeScene } from '../scene/intake.js';
import { exportScene } from './index.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/sql/${name}`, import.meta.url), 'utf8');

describe('export of a large schema drawn folded (graph/fold.ts)', () => {
  it('writes no count row as a column and turns each hub mark back into its relationship (Flowable, 62 tables)', async () => {
    const code = fixture('flowable-postgres-all.sql');
    const { elements } = intakeScene((await codeToScene(code, { notation: 'sql' })).elements);
    const mermaid = exportScene('mermaid', elements);
    const d2 = exportScene('d2', elements);
    if (mermaid.format !== 'mermaid' || d2.format !== 'd2') throw new Error('code exports expected');
    // Before: `_34morecolumns _ "… 34 more columns"` and `varchar(64)_ EXECUTION_ID_ FK "… varchar(64) →"` then `string ACT_RU_EXECUTION`.
    expect(mermaid.code).not.toMatch(/more ?columns|→/);
    expect(d2.code).not.toMatch(/more columns|→/);
    expect(mermaid.code).toMatch(/^ {4}varchar\(64\) EXECUTION_ID_ FK$/m);
    // Every foreign key of the script is a relationship again, those to the two hubs included.
    const relationships = mermaid.code.split('\n').filter((line) => /^ {2}\S+ \S+--\S+ \S+ : /.test(line));
    expect(relationships).toHaveLength((await sqlNotation.toGraph(code)).edges.length);
    expect(relationships).toContain('  ACT_RU_JOB }o--o| ACT_RU_EXECUTION : "EXECUTION_ID_"');
    for (const said of [mermaid.warnings, d2.warnings]) {
      expect(said).toContain('59 tables were drawn with 721 of their columns counted ("… N more columns"), so only the columns drawn are exported; draw the code with detail: "full" to export every column');
      expect(said.find((line) => line.includes('marks on their columns'))).toMatch(/^\d+ relationships drawn as marks on their columns \("→ ACT_RU_EXECUTION"\) are exported as relationships to ACT_RU_EXECUTION, ACT_GE_BYTEARRAY, as zero or more to zero or one/);
    }
  });

  it('exports a schema drawn in full as it always did (Camunda with detail "full": no count rows, no warning)', async () => {
    const { elements } = intakeScene((await codeToScene(fixture('camunda-postgres-engine.sql'), { notation: 'sql', detail: 'full' })).elements);
    const mermaid = exportScene('mermaid', elements);
    expect(mermaid.warnings.join('\n')).not.toMatch(/counted|marks on their columns/);
  });
});
