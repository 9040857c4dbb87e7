import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { sqlNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/sql/${name}`, import.meta.url), 'utf8');
const edge = (graph: ReturnType<typeof sqlNotation.toGraph>, from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to);

describe('sqlNotation on real schemas', () => {
  it('draws the MySQL employees schema with composite keys and skips the client commands', () => {
    const graph = sqlNotation.toGraph(fixture('mysql-employees.sql'));
    expect(graph.nodes.map((n) => n.id).sort()).toEqual(['departments', 'dept_emp', 'dept_manager', 'employees', 'salaries', 'titles']);
    const deptEmp = graph.nodes.find((n) => n.id === 'dept_emp')!;
    expect(deptEmp.rows).toContain('PK FK emp_no  int');
    expect(edge(graph, 'dept_emp', 'departments')).toMatchObject({ label: 'dept_no', endArrowhead: 'double-bar', startArrowhead: 'circle-crows-foot' });
    expect(graph.warnings.some((w) => w.includes('source load_departments.dump'))).toBe(true);
  });

  it('reads TPC-C multi-column foreign keys as one relationship', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-tpcc-ddl.sql'));
    expect(graph.nodes).toHaveLength(9);
    expect(edge(graph, 'order_line', 'oorder')).toMatchObject({ label: 'ol_w_id, ol_d_id, ol_o_id' });
    expect(graph.warnings).toEqual([]);
  });

  it('reads SEATS with several foreign keys to the same parent', () => {
    const graph = sqlNotation.toGraph(fixture('mysql-seats-ddl.sql'));
    expect(graph.edges.filter((e) => e.from === 'airport_distance' && e.to === 'airport')).toHaveLength(2);
  });

  it('reads the pagila pg_dump: keys added by ALTER TABLE, the public schema as a container, unknown clauses approximated', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-pagila-schema.sql'));
    expect(graph.nodes).toHaveLength(71);
    expect(graph.edges).toHaveLength(37);
    expect(graph.groups).toEqual([{ id: 'schema:public', label: 'public', kind: 'schema' }]);
    expect(graph.nodes.every((n) => n.parent === 'schema:public')).toBe(true);
    expect(graph.nodes.find((n) => n.id === 'public.film_actor')!.rows!.slice(0, 2)).toEqual(['PK FK actor_id  integer', 'PK FK film_id  integer']);
    expect(graph.warnings).toContain('line 438: film.length_hours: column read approximately (the SQL parser does not know its definition)');
  });
});

describe('sqlNotation cardinality and errors', () => {
  it('maps nullability and uniqueness to crows-foot ends', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE users (id serial PRIMARY KEY);
      CREATE TABLE profiles (user_id int NOT NULL UNIQUE REFERENCES users(id));
      CREATE TABLE posts (id int PRIMARY KEY, editor_id int REFERENCES users(id));`);
    expect(edge(graph, 'profiles', 'users')).toMatchObject({ startArrowhead: 'circle-bar', endArrowhead: 'double-bar', startLabel: '0..1', endLabel: '1' });
    expect(edge(graph, 'posts', 'users')).toMatchObject({ startArrowhead: 'circle-crows-foot', endArrowhead: 'circle-bar', endLabel: '0..1' });
  });

  it('warns about a reference to a table the script does not create', () => {
    const graph = sqlNotation.toGraph('CREATE TABLE a (b_id int REFERENCES b(id));');
    expect(graph.edges).toEqual([]);
    expect(graph.warnings).toEqual(['a: foreign key (b_id) references b, which this script does not create']);
  });

  it('reports a broken CREATE TABLE with its line and column in the whole script', () => {
    const code = 'CREATE TABLE ok (id int);\n\nCREATE TABLE broken (\n  id int,\n  name varchar(20) NOT NULL,,\n);';
    try {
      sqlNotation.toGraph(code);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('parse_error');
      expect((error as AppError).details).toEqual({ line: 5, column: 29 });
    }
  });

  it('refuses a script without any table', () => {
    expect(() => sqlNotation.toGraph('SELECT 1;')).toThrow(/expected at least one CREATE TABLE/);
  });

  it('claims DDL and not YAML or prose', () => {
    expect(sqlNotation.detect(fixture('postgres-tpcc-ddl.sql'))).toBeGreaterThan(0.8);
    expect(sqlNotation.detect('services:\n  web:\n    image: nginx\n')).toBe(0);
    expect(sqlNotation.detect('We will create a table of results.')).toBe(0);
  });
});
