import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LARGE_WIDTH, READABLE_TEXT } from '../layout/drawing-rules.js';
import { drawGraph } from '../notations/index.js';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { extentOf } from '../quality/check.js';
import { FOLD_NODES, foldForReading } from './fold.js';
import { READABLE_TABLE_AREA, tableArea } from './fold-columns.js';
import type { GraphIR } from './types.js';

const flowable = () => readFileSync(new URL('../../../test/fixtures/sql/flowable-postgres-all.sql', import.meta.url), 'utf8');

describe('foldPlainColumns (through foldForReading)', () => {
  it('draws each table of a schema above 40 tables as its keys and a count of its other columns (Flowable, 62 tables)', async () => {
    const graph = await sqlNotation.toGraph(flowable());
    expect(graph.nodes).toHaveLength(62);
    const execution = (g: typeof graph) => g.nodes.find((node) => node.id === 'ACT_RU_EXECUTION')!;
    // 39 columns drawn one a row made this table 600 px tall; eight like it made the drawing 2,985 × 6,960 px.
    expect(execution(graph).rows).toHaveLength(39);
    const folded = foldForReading(graph, 'sql');
    expect(execution(folded).rows).toEqual([
      'PK    ID_  varchar(64)',
      'FK    PROC_INST_ID_  varchar(64)',
      'FK    PARENT_ID_  varchar(64)',
      'FK    PROC_DEF_ID_  varchar(64)',
      'FK    SUPER_EXEC_  varchar(64)',
      '      … 34 more columns',
    ]);
    // Its relations are all still there: columns are counted, no line is dropped for them.
    expect(folded.edges.filter((edge) => edge.from === 'ACT_RU_EXECUTION')).toHaveLength(4);
    expect(folded.warnings.at(-1)).toMatch(/^62 tables drawn to stay readable: .* and the 721 columns of 59 tables that are not keys are counted in one row under each table's keys; detail: "full" draws every column and line$/);
  });

  it('keeps every column with detail "full", at 40 tables or fewer, and where one column would be counted', async () => {
    const graph = await sqlNotation.toGraph(flowable());
    expect(foldForReading(graph, 'sql', 'full')).toBe(graph);
    const tables = (count: number) =>
      Array.from({ length: count }, (_, i) => `CREATE TABLE t${i} (id int PRIMARY KEY, a int, b int${i === 0 ? '' : `, up int REFERENCES t${i - 1}(id)`});`).join('\n');
    const atLimit = foldForReading(await sqlNotation.toGraph(tables(FOLD_NODES)), 'sql');
    expect(atLimit.nodes[1]!.rows).toEqual(['PK    id  int', '      a  int', '      b  int', 'FK    up  int']);
    const above = foldForReading(await sqlNotation.toGraph(tables(FOLD_NODES + 1)), 'sql');
    expect(above.nodes[1]!.rows).toEqual(['PK    id  int', 'FK    up  int', '      … 2 more columns']);
    const oneColumn = foldForReading(await sqlNotation.toGraph(tables(FOLD_NODES + 1).replace('CREATE TABLE t5 (id int PRIMARY KEY, a int, b int', 'CREATE TABLE t5 (id int PRIMARY KEY, a int')), 'sql');
    expect(oneColumn.nodes[5]!.rows).toEqual(['PK    id  int', '      a  int', 'FK    up  int']);
  });
});

/** The smallest text of a drawing fitted to a page `width` px wide (never enlarged), as the quality checker reads it. */
async function textAt(graph: GraphIR, notation: 'sql' | 'mermaid', width: number): Promise<number> {
  const { elements } = await drawGraph(graph, notation);
  const sizes = elements.flatMap((element) => ('text' in element && element.text !== '' && Number(element.fontSize) > 0 ? [Number(element.fontSize)] : []));
  return Math.min(...sizes) * Math.min(1, width / extentOf(elements).width);
}

/**
 * A Mermaid ER shaped as the 39-entity one issue 27's reviewers scored 2: every entity a long list of commented
 * attributes (its tables alone took 16 Mpx², 5 px text on a page 1,600 px wide), related in a chain.
 */
function wideEntities(count: number, attributes: number): string {
  const lines = ['erDiagram'];
  for (let i = 0; i < count; i++) {
    lines.push(`    ENTITY_${i} {`, '        uuid id PK', ...(i > 0 ? [`        uuid entity_${i - 1}_id FK`] : []));
    for (let a = 0; a < attributes; a++) lines.push(`        varchar attribute_${a}_of_entity_${i} "what attribute ${a} holds, as documented"`);
    lines.push('    }');
    if (i > 0) lines.push(`    ENTITY_${i - 1} ||--o{ ENTITY_${i} : "has"`);
  }
  return lines.join('\n');
}

describe('folding by the room the tables need (READABLE_TABLE_AREA)', () => {
  it('counts the plain attributes of a Mermaid ER of fewer than 40 entities too large to read in full, so its text reads on a wide page', async () => {
    const graph = await mermaidNotation.toGraph(wideEntities(39, 30));
    expect(graph.nodes.length).toBeLessThanOrEqual(FOLD_NODES);
    expect(tableArea(graph)).toBeGreaterThan(5 * READABLE_TABLE_AREA);
    const folded = foldForReading(graph, 'mermaid');
    expect(folded.nodes.find((node) => node.id === 'ENTITY_1')!.rows).toEqual(['PK    id  uuid', 'FK    entity_0_id  uuid', '      … 30 more attributes']);
    // Every relationship is still drawn, with its label.
    expect(folded.edges).toEqual(graph.edges);
    expect(folded.warnings.at(-1)).toBe(
      '39 entities drawn to stay readable: the 1170 attributes of 39 entities that are not keys are counted in one row under each entity\'s keys; detail: "full" draws every attribute and line',
    );
    expect(foldForReading(graph, 'mermaid', 'full')).toBe(graph);
    expect(await textAt(graph, 'mermaid', LARGE_WIDTH)).toBeLessThan(READABLE_TEXT);
    expect(await textAt(folded, 'mermaid', LARGE_WIDTH)).toBeGreaterThanOrEqual(READABLE_TEXT);
  }, 60_000);

  it('folds a SQL schema of fewer than 40 tables whose columns cannot be read in full, and keeps every column of the corpus schemas that can', async () => {
    const tables = Array.from({ length: 24 }, (_, t) => {
      const columns = Array.from({ length: 40 }, (_, c) => `column_${c}_of_table_${t} varchar(255)`).join(', ');
      return `CREATE TABLE t${t} (id int PRIMARY KEY, ${columns}${t === 0 ? '' : `, up int REFERENCES t${t - 1}(id)`});`;
    });
    const graph = await sqlNotation.toGraph(tables.join('\n'));
    const folded = foldForReading(graph, 'sql');
    expect(folded.nodes[1]!.rows).toEqual(['PK    id  int', 'FK    up  int', '      … 40 more columns']);
    expect(folded.warnings.at(-1)).toMatch(/^24 tables drawn to stay readable: the 960 columns of 24 tables that are not keys are counted/);
    expect(await textAt(graph, 'sql', LARGE_WIDTH)).toBeLessThan(READABLE_TEXT);
    expect(await textAt(folded, 'sql', LARGE_WIDTH)).toBeGreaterThanOrEqual(READABLE_TEXT);
    // The ten wide tables of the Seats benchmark (0.8 Mpx²) and sakila's sixteen still draw every column.
    for (const file of ['mysql-seats-ddl.sql', 'mysql-sakila-schema.sql']) {
      const schema = await sqlNotation.toGraph(readFileSync(new URL(`../../../test/fixtures/sql/${file}`, import.meta.url), 'utf8'));
      expect(foldForReading(schema, 'sql').nodes.map((node) => node.rows)).toEqual(schema.nodes.map((node) => node.rows));
    }
  }, 60_000);
});
