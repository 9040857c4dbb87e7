import { describe, expect, it } from 'vitest';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { foldForReading } from './fold.js';
import { REFERENCE_HUB_MIN, REFERENCE_HUB_TABLES } from './fold-references.js';

/**
 * A pg_dump-like schema shaped as OpenStreetMap's (57 tables, 34 of 71 foreign keys to `users`): `hubbed` tables each
 * with a foreign key to `users`, every fourth also to `changesets`, and `plain` tables with none.
 */
function schema(hubbed: number, plain = 0): string {
  const tables = ['CREATE TABLE public.users (id bigint NOT NULL PRIMARY KEY, display_name character varying);'];
  tables.push('CREATE TABLE public.changesets (id bigint NOT NULL PRIMARY KEY, user_id bigint NOT NULL REFERENCES public.users(id));');
  for (let i = 0; i < hubbed; i++) {
    const changeset = i % 4 === 0 ? ', changeset_id bigint REFERENCES public.changesets(id)' : '';
    tables.push(`CREATE TABLE public.t${i} (id bigint NOT NULL PRIMARY KEY, author_id bigint REFERENCES public.users(id)${changeset});`);
  }
  for (let i = 0; i < plain; i++) tables.push(`CREATE TABLE public.p${i} (id bigint NOT NULL PRIMARY KEY);`);
  return tables.join('\n');
}

describe('foldReferenceHubs (through foldForReading)', () => {
  it('names the foreign keys into a hub of a large schema on their columns, instead of a wall of lines into it', async () => {
    const graph = await sqlNotation.toGraph(schema(29));
    expect(graph.nodes).toHaveLength(31);
    expect(graph.edges.filter((edge) => edge.to === 'public.users')).toHaveLength(30);
    const folded = foldForReading(graph, 'sql');
    // No line into users; the 8 lines to changesets (too few for a hub) stay.
    expect(folded.edges.filter((edge) => edge.to === 'public.users')).toEqual([]);
    expect(folded.edges.filter((edge) => edge.to === 'public.changesets')).toHaveLength(8);
    const t0 = folded.nodes.find((node) => node.id === 'public.t0')!;
    expect(t0.rows).toEqual(['PK    id  bigint', 'FK    author_id  bigint → users', 'FK    changeset_id  bigint']);
    expect(folded.warnings.at(-1)).toBe(
      '31 tables drawn to stay readable: the 30 foreign keys of 30 tables to users are named on their columns ("→ users") instead of drawn as lines; detail: "full" draws every line',
    );
    // The one schema holding every table is named above the drawing instead of boxed round it, so its parts pack.
    expect(folded.title).toBe('schema public');
    expect(folded.groups).toEqual([]);
    expect(folded.nodes.every((node) => node.parent === undefined)).toBe(true);
  });

  it('draws every line with detail "full", in a schema of a few tables, and to a table few keys point at', async () => {
    const graph = await sqlNotation.toGraph(schema(29));
    expect(foldForReading(graph, 'sql', 'full')).toBe(graph);
    const small = await sqlNotation.toGraph(schema(REFERENCE_HUB_TABLES - 2));
    expect(foldForReading(small, 'sql')).toBe(small);
    // Many tables, but only REFERENCE_HUB_MIN - 2 keys to users: no hub; the schema is still named as the title.
    const spread = await sqlNotation.toGraph(schema(REFERENCE_HUB_MIN - 3, 20));
    const folded = foldForReading(spread, 'sql');
    expect(folded.edges).toEqual(spread.edges);
    expect(folded.warnings).toEqual(spread.warnings);
    expect(folded.title).toBe('schema public');
  });
});

/**
 * A Mermaid ER shaped as an ERP's documentation diagram (40 entities, 73 relationships, 27 of them from COMPANY, each
 * entity keeping a `company_id` FK): `owned` entities each owned by COMPANY and holding its key, `loose` ones related
 * to COMPANY without such a key, and a chain of relationships among the owned ones.
 */
function erp(owned: number, loose = 0): string {
  const lines = ['erDiagram', '    COMPANY {', '        UUID id PK', '        string name', '    }'];
  for (let i = 0; i < owned; i++) {
    lines.push(`    E${i} {`, '        UUID id PK', '        UUID company_id FK', ...(i > 0 ? [`        UUID e${i - 1}_id FK`] : []), '        string name', '    }');
    lines.push(`    COMPANY ||--o{ E${i} : "${i % 3 === 0 ? 'has' : 'owns'}"`);
    if (i > 0) lines.push(`    E${i - 1} ||--o{ E${i} : "contains"`);
  }
  for (let i = 0; i < loose; i++) lines.push(`    L${i} {`, '        UUID id PK', '    }', `    COMPANY ||--o{ L${i} : "records"`);
  return lines.join('\n');
}

describe('foldEntityHubs (through foldForReading)', () => {
  it("names a Mermaid ER hub's relationships on the attributes that refer to it, the other relationships drawn", async () => {
    const graph = await mermaidNotation.toGraph(erp(27, 2));
    expect(graph.nodes).toHaveLength(30);
    expect(graph.edges.filter((edge) => edge.from === 'COMPANY')).toHaveLength(29);
    const folded = foldForReading(graph, 'mermaid');
    // The two entities without a company_id keep their lines; the 26 "contains" between the others all stay.
    expect(folded.edges.filter((edge) => edge.from === 'COMPANY').map((edge) => edge.to)).toEqual(['L0', 'L1']);
    expect(folded.edges.filter((edge) => edge.label === 'contains')).toHaveLength(26);
    expect(folded.nodes.find((node) => node.id === 'E1')!.rows).toEqual(['PK    id  UUID', 'FK    company_id  UUID → COMPANY', 'FK    e0_id  UUID', '      name  string']);
    expect(folded.warnings.at(-1)).toBe(
      '30 entities drawn to stay readable: the 27 relationships of 27 entities with COMPANY ("has", "owns") are named on their attributes that refer to it ("→ COMPANY") instead of drawn as lines; detail: "full" draws every line',
    );
  });

  it('draws every relationship with detail "full", in a diagram of a few entities, and to a hub few entities hold a key of', async () => {
    const graph = await mermaidNotation.toGraph(erp(27));
    expect(foldForReading(graph, 'mermaid', 'full')).toBe(graph);
    const small = await mermaidNotation.toGraph(erp(REFERENCE_HUB_TABLES - 2));
    expect(foldForReading(small, 'mermaid')).toBe(small);
    const keyless = await mermaidNotation.toGraph(erp(REFERENCE_HUB_MIN - 1, 20));
    expect(foldForReading(keyless, 'mermaid')).toBe(keyless);
  });
});
