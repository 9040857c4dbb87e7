import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sqlNotation } from '../notations/sql/index.js';
import { FOLD_NODES, foldForReading } from './fold.js';

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
