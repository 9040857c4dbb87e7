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

  it('shows the Spring PetClinic MySQL display widths as written: INT(4) UNSIGNED as uint(4), not int(4,null)', () => {
    const graph = sqlNotation.toGraph(fixture('mysql-petclinic-schema.sql'));
    expect(graph.nodes.find((n) => n.id === 'pets')!.rows).toEqual(['PK    id  uint(4)', '      name  varchar(30)', '      birth_date  date', 'FK    type_id  uint(4)', 'FK    owner_id  uint(4)']);
    expect(graph.edges).toHaveLength(5);
  });

  it("shows sakila's ENUM and SET values and pagila's time zones as written, long value lists cut and said", () => {
    const sakila = sqlNotation.toGraph(fixture('mysql-sakila-schema.sql'));
    const film = sakila.nodes.find((n) => n.id === 'film')!.rows!;
    expect(film).toContain("      rating  enum('G','PG','PG-13','R',…)");
    expect(film).toContain("      special_features  set('Trailers',…)");
    expect(film).toContain('PK    film_id  uint');
    expect(sakila.warnings).toContain("film.rating, film.special_features: the type's value list is longer than 24 characters; drawn up to … (the rest is in the script)");
    const pagila = sqlNotation.toGraph(fixture('postgres-pagila-schema.sql'));
    const rental = pagila.nodes.find((n) => n.id === 'public.rental')!.rows!;
    // `timestamp with time zone` is not the `timestamp` (without) it was drawn as.
    expect(rental).toContain('      return_date  timestamptz');
    const film2 = pagila.nodes.find((n) => n.id === 'public.film')!.rows!;
    expect(film2).toContain('      special_features  text[]');
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

  it('writes pg_dump’s `character varying(n)` as its alias varchar(n), so a table is as narrow as its author’s DDL', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-sakila-schema.sql'));
    const actor = graph.nodes.find((n) => n.id === 'actor')!;
    expect(actor.rows).toContain('      first_name  varchar(45)');
    expect(graph.nodes.flatMap((n) => n.rows ?? []).filter((row) => row.includes('character varying'))).toEqual([]);
  });

  it('reads the pagila pg_dump: keys added by ALTER TABLE, the public schema as a container, unknown clauses approximated', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-pagila-schema.sql'));
    expect(graph.nodes).toHaveLength(16);
    expect(graph.edges).toHaveLength(22);
    expect(graph.groups).toEqual([{ id: 'schema:public', label: 'public', kind: 'schema' }]);
    expect(graph.nodes.every((n) => n.parent === 'schema:public')).toBe(true);
    expect(graph.nodes.find((n) => n.id === 'public.film_actor')!.rows!.slice(0, 2)).toEqual(['PK FK actor_id  integer', 'PK FK film_id  integer']);
    expect(graph.warnings).toContain('line 438: film.length_hours: column read approximately (the SQL parser does not know its definition)');
  });
});

describe('sqlNotation pg_dump clauses', () => {
  it('reads a foreign key pg_dump adds NOT VALID as the relation it is, instead of refusing the schema', () => {
    // As pg_dump writes a constraint added with NOT VALID (its rows were not checked when it was added).
    const dump = [
      'CREATE TABLE public.author (id integer NOT NULL);',
      'CREATE TABLE public.book (id integer NOT NULL, author_id integer);',
      'ALTER TABLE ONLY public.author ADD CONSTRAINT author_pkey PRIMARY KEY (id);',
      'ALTER TABLE public.book ADD CONSTRAINT book_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.author(id) NOT VALID;',
      'ALTER TABLE public.book ADD CONSTRAINT book_id_check CHECK ((id > 0)) NOT VALID;',
    ].join('\n');
    const graph = sqlNotation.toGraph(dump) as ReturnType<typeof sqlNotation.toGraph> & { edges: Array<{ from: string; to: string }> };
    expect(graph.edges.map((e) => [e.from, e.to])).toEqual([['public.book', 'public.author']]);
  });

  it('reads a DEFERRABLE foreign key as the relation it is, added by ALTER TABLE or in the table (a Django project’s pg_dump)', () => {
    // As pg_dump writes every foreign key Django creates (pije76/scportal's dbname.sql refused at its first one).
    const dump = [
      'CREATE TABLE public.auth_permission (id integer NOT NULL, codename character varying(100) NOT NULL);',
      'CREATE TABLE public.auth_group (id integer PRIMARY KEY, name character varying(150) NOT NULL);',
      'CREATE TABLE public.auth_group_permissions (id integer NOT NULL, group_id integer NOT NULL REFERENCES public.auth_group(id) DEFERRABLE INITIALLY DEFERRED, permission_id integer NOT NULL);',
      'ALTER TABLE ONLY public.auth_permission ADD CONSTRAINT auth_permission_pkey PRIMARY KEY (id);',
      'ALTER TABLE ONLY public.auth_group_permissions',
      '    ADD CONSTRAINT auth_group_permissions_permission_id_fkey FOREIGN KEY (permission_id) REFERENCES public.auth_permission(id) DEFERRABLE INITIALLY DEFERRED;',
    ].join('\n');
    const graph = sqlNotation.toGraph(dump) as ReturnType<typeof sqlNotation.toGraph> & { edges: Array<{ from: string; to: string }> };
    expect(graph.edges.map((e) => [e.from, e.to]).sort()).toEqual([
      ['public.auth_group_permissions', 'public.auth_group'],
      ['public.auth_group_permissions', 'public.auth_permission'],
    ]);
  });
});

describe('sqlNotation partitions', () => {
  it('folds the 55 pagila payment partitions, attached by ALTER TABLE, into payment: listed under its columns, their keys its own', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-pagila-schema.sql'));
    expect(graph.nodes.filter((n) => /payment_p\d/.test(n.id))).toEqual([]);
    const payment = graph.nodes.find((n) => n.id === 'public.payment')!;
    expect(payment.rows!.slice(0, 2)).toEqual(['PK    payment_id  integer', 'FK    customer_id  integer']);
    expect(payment.rows!.slice(-2)).toEqual(['partitions (55):', '  payment_p2022_01 … payment_p2026_07']);
    // Each partition's foreign keys, once for the table they partition.
    expect(graph.edges.filter((e) => e.from === 'public.payment').map((e) => `${e.to} ${e.label}`)).toEqual([
      'public.customer customer_id',
      'public.rental rental_id',
      'public.staff staff_id',
    ]);
    expect(graph.edges.every((e) => !/payment_p\d/.test(e.from + e.to))).toBe(true);
    expect(graph.warnings.filter((w) => w.includes('ALTER TABLE ONLY'))).toEqual([]);
  });

  it('lists PARTITION OF tables on their parent by name, whatever their bounds, and points foreign keys to them at the parent', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE measurement (city_id int NOT NULL, logdate date NOT NULL, peaktemp int) PARTITION BY RANGE (logdate);
      CREATE TABLE measurement_y2006 PARTITION OF measurement FOR VALUES FROM ('2006-01-01') TO ('2007-01-01');
      CREATE TABLE measurement_old PARTITION OF measurement FOR VALUES FROM (MINVALUE) TO ('2006-01-01') PARTITION BY RANGE (city_id);
      CREATE TABLE measurement_old_1 PARTITION OF measurement_old FOR VALUES FROM (1) TO (100);
      CREATE TABLE alerts (id int PRIMARY KEY, logdate date REFERENCES measurement_y2006 (logdate));`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['measurement', 'alerts']);
    expect(graph.nodes[0]!.rows).toEqual(['      city_id  int', '      logdate  date', '      peaktemp  int', 'partitions (3):', '  measurement_y2006', '  measurement_old', '  measurement_old_1']);
    expect(graph.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(['alerts -> measurement']);
    expect(graph.warnings).toEqual([]);
  });

  it('keeps an attached table whose parent the script does not create, and reports a PARTITION OF one', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE orders_2024 (id int, placed date);
      ALTER TABLE ONLY orders ATTACH PARTITION orders_2024 FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
      CREATE TABLE orders_2025 PARTITION OF orders DEFAULT;`);
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([['orders_2024', ['      id  int', '      placed  date']]]);
    expect(graph.warnings).toEqual(['orders_2025: partition of orders, which this script does not create; not drawn']);
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

describe('sqlNotation references and keys the parser does not take as written', () => {
  it('reads REFERENCES without a column list as a relation to the parent’s primary key, in every position', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL UNIQUE);
      CREATE TABLE user_passwords (id integer PRIMARY KEY REFERENCES users ON DELETE CASCADE, hash text NOT NULL);
      CREATE TABLE followed_users (
        follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        followed_id integer NOT NULL REFERENCES public.users,
        UNIQUE (follower_id, followed_id)
      );
      CREATE TABLE articles (id serial PRIMARY KEY, parent_id int REFERENCES articles, author_id integer NOT NULL REFERENCES "users");
      CREATE TABLE tags (article_id int, CONSTRAINT fk FOREIGN KEY (article_id) REFERENCES articles);`);
    expect(graph.edges.map((e) => `${e.from}.${e.label} -> ${e.to}`).sort()).toEqual([
      'articles.author_id -> users',
      'articles.parent_id -> articles',
      'followed_users.followed_id -> users',
      'followed_users.follower_id -> users',
      'tags.article_id -> articles',
      'user_passwords.id -> users',
    ]);
    expect(graph.warnings).toEqual([]);
  });

  it('keeps the keys of a column whose type the parser does not know (bpchar)', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE country (code bpchar(2) PRIMARY KEY, name text);
      CREATE TABLE city (id int PRIMARY KEY, country_code bpchar(2) NOT NULL REFERENCES country (code));`);
    expect(graph.nodes.find((n) => n.id === 'country')!.rows![0]).toMatch(/^PK\s+code\s+bpchar\(2\)/);
    expect(graph.edges.map((e) => `${e.from}.${e.label} -> ${e.to}`)).toEqual(['city.country_code -> country']);
  });

  it('reads comments between the columns of a table read column by column as prose, whatever commas and quotes they hold (listmonk)', () => {
    // An enum type the parser does not know sends the table to the column-by-column reading, as listmonk's campaigns.
    const graph = sqlNotation.toGraph(`
      CREATE TYPE campaign_type AS ENUM ('regular', 'optin');
      CREATE TABLE campaigns (
        id SERIAL PRIMARY KEY,
        status campaign_status NOT NULL DEFAULT 'draft',
        -- For opt-in campaigns, this will be 'unsubscribed'.
        type campaign_type DEFAULT 'regular', /* one, two */
        -- the author's note
        template_id INTEGER REFERENCES templates(id)
      );
      CREATE TABLE templates (id SERIAL PRIMARY KEY);`);
    const columns = graph.nodes.find((n) => n.id === 'campaigns')!.rows!.map((row) => row.split(/\s+/).find((word) => /^[a-z]/.test(word)));
    expect(columns).toEqual(['id', 'status', 'type', 'template_id']);
    expect(graph.edges.map((e) => `${e.from}.${e.label} -> ${e.to}`)).toEqual(['campaigns.template_id -> templates']);
  });
});

describe('sqlNotation routine bodies, DELIMITER and the rest of the DDL grammar', () => {
  it('reads MySQL sakila: DELIMITER blocks are directives, and the temporary table of a procedure body is not a table', () => {
    const graph = sqlNotation.toGraph(fixture('mysql-sakila-schema.sql'));
    expect(graph.nodes).toHaveLength(16);
    expect(graph.nodes.map((n) => n.id)).not.toContain('tmpCustomer');
    expect(graph.edges).toHaveLength(22);
    expect(graph.warnings).toContain('line 447: skipped a statement the SQL parser does not read (CREATE PROCEDURE rewards_report)');
    expect(graph.warnings.filter((w) => /DELIMITER|\(END\b/.test(w))).toEqual([]);
  });

  it('keeps a routine body whole without DELIMITER (SQLite triggers, MySQL clients that send it at once)', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE orders (id int PRIMARY KEY);
      CREATE PROCEDURE archive() BEGIN
        CREATE TEMPORARY TABLE scratch (id int);
        IF 1 = 1 THEN INSERT INTO scratch SELECT id FROM orders; END IF;
        SELECT CASE WHEN 1 THEN 2 END;
        CREATE TABLE orders_archive (id int REFERENCES orders);
      END;
      CREATE TABLE lines (order_id int REFERENCES orders (id));`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['orders', 'lines']);
    expect(graph.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(['lines -> orders']);
  });

  it('reads DELIMITER $$ blocks, `END$$` written without a space included, and the tables after them', () => {
    const graph = sqlNotation.toGraph(
      'CREATE TABLE a (id int PRIMARY KEY) ENGINE=InnoDB;\nDELIMITER $$\nCREATE PROCEDURE p()\nBEGIN\n  CREATE TEMPORARY TABLE tmp (x int);\nEND $$\n' +
        'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.id = 1; END$$\nDELIMITER ;\n' +
        'CREATE TABLE `b` (`id` int, `a_id` int, CONSTRAINT `fk1` FOREIGN KEY (`a_id`) REFERENCES `a` (`id`));\nCREATE TABLE c (id int);',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['b->a']);
    expect(graph.warnings).toEqual([
      'line 3: skipped a statement the SQL parser does not read (CREATE PROCEDURE p())',
      'line 7: skipped a statement the SQL parser does not read (CREATE TRIGGER t)',
    ]);
  });

  it('reads the SQLite sakila, whose CHECK constraints sit beside its keys, instead of failing', () => {
    const graph = sqlNotation.toGraph(fixture('sqlite-sakila-schema.sql'));
    expect(graph.nodes).toHaveLength(16);
    expect(graph.edges).toHaveLength(22);
    expect(graph.nodes.find((n) => n.id === 'film')!.rows![0]).toMatch(/^PK\s+film_id/);
  });

  it('folds PostgreSQL sakila’s inheritance partitions (CHECK-only children) into payment, and draws the staff self reference', () => {
    const graph = sqlNotation.toGraph(fixture('postgres-sakila-schema.sql'));
    expect(graph.nodes).toHaveLength(15);
    expect(graph.edges).toHaveLength(22);
    expect(graph.nodes.find((n) => n.id === 'payment')!.rows!.slice(-2)).toEqual(['partitions (6):', '  payment_p2007_01 … payment_p2007_06']);
    expect(graph.warnings.filter((w) => /options|tmpCustomer/.test(w))).toEqual([]);
  });

  it('adds the columns and keys of ALTER TABLE … ADD [COLUMN], and copies a LIKE table’s columns (keys as the dialect does)', () => {
    const graph = sqlNotation.toGraph(`
      CREATE TABLE a (id int, name text);
      CREATE TABLE b (id int);
      ALTER TABLE a ADD PRIMARY KEY (id);
      ALTER TABLE ONLY b ADD COLUMN a_id int REFERENCES a (id), ADD CONSTRAINT b_pk PRIMARY KEY (id);
      ALTER TABLE b ADD parent_id int, ADD FOREIGN KEY (parent_id) REFERENCES b;
      CREATE TABLE a_copy (LIKE a INCLUDING ALL);
      CREATE TABLE a_shape (LIKE a);
      CREATE TABLE c (code character(3) PRIMARY KEY);`);
    expect(graph.nodes.map((n) => [n.id, n.rows])).toEqual([
      ['a', ['PK    id  int', '      name  text']],
      ['b', ['PK    id  int', 'FK    a_id  int', 'FK    parent_id  int']],
      ['a_copy', ['PK    id  int', '      name  text']],
      ['a_shape', ['      id  int', '      name  text']],
      ['c', ['PK    code  char(3)']],
    ]);
    expect(graph.edges.map((e) => `${e.from}.${e.label} -> ${e.to}`)).toEqual(['b.a_id -> a', 'b.parent_id -> b']);
    expect(graph.warnings).toEqual([]);
  });
});

describe('sqlNotation on PostgreSQL install scripts (AdventureWorks-for-Postgres form)', () => {
  // Written here in the form of lorint/AdventureWorks-for-Postgres install.sql, which was refused whole.
  const script = [
    '\\pset tuples_only on',
    'CREATE DOMAIN "Name" varchar(50) NULL;',
    'CREATE SCHEMA Person',
    '  CREATE TABLE BusinessEntity(',
    '    BusinessEntityID SERIAL, --  NOT FOR REPLICATION',
    '    ModifiedDate TIMESTAMP NOT NULL',
    '  )',
    '  CREATE TABLE Person(',
    '    BusinessEntityID INT NOT NULL,',
    '    FirstName "Name" NOT NULL,',
    '    Demographics XML NULL, -- XML("IndividualSurveySchemaCollection"),',
    '    Suffix varchar(10) NULL',
    '  )',
    '  CREATE VIEW p AS SELECT * FROM Person;',
    "COMMENT ON SCHEMA Person IS 'Names and addresses';",
    "\\copy Person.Person FROM './Person.csv' DELIMITER E'\\t' CSV",
    'CREATE TABLE Person.Password (BusinessEntityID INT NOT NULL);',
    'ALTER TABLE Person.BusinessEntity ADD CONSTRAINT "PK_BusinessEntity" PRIMARY KEY (BusinessEntityID);',
    'ALTER TABLE Person.Person ADD CONSTRAINT "FK_Person_BusinessEntity" FOREIGN KEY (BusinessEntityID) REFERENCES Person.BusinessEntity(BusinessEntityID);',
    // PostgreSQL folds unquoted names: these name the tables created as Person.Password and Person.Person.
    'ALTER TABLE person.password ADD CONSTRAINT "FK_Password_Person" FOREIGN KEY (BusinessEntityID) REFERENCES person.person(BusinessEntityID);',
  ].join('\n');

  it('reads the tables of CREATE SCHEMA … CREATE TABLE … as tables of that schema, with the keys added later, named as written or as PostgreSQL folds them', () => {
    const graph = sqlNotation.toGraph(script);
    expect(graph.nodes.map((n) => [n.id, n.parent])).toEqual([
      ['Person.BusinessEntity', 'schema:Person'],
      ['Person.Person', 'schema:Person'],
      ['Person.Password', 'schema:Person'],
    ]);
    expect(graph.edges.map((e) => `${e.from}.${e.label} -> ${e.to}`)).toEqual([
      'Person.Person.BusinessEntityID -> Person.BusinessEntity',
      'Person.Password.BusinessEntityID -> Person.Person',
    ]);
  });

  it('ends a psql meta-command at its line, and keeps a column whose trailing comment holds a quote and a comma', () => {
    const graph = sqlNotation.toGraph(script);
    // Read on to the `;`, `\copy` swallowed the CREATE TABLE on the next line.
    expect(graph.nodes.map((n) => n.id)).toContain('Person.Password');
    expect(graph.nodes.find((n) => n.id === 'Person.Person')!.rows).toEqual([
      'FK    BusinessEntityID  int',
      '      FirstName  "name"',
      '      Demographics  xml',
      '      Suffix  varchar(10)',
    ]);
    expect(graph.warnings.filter((w) => /constraint/.test(w))).toEqual([]);
  });

  it('skips the rows pg_dump writes after COPY … FROM stdin, so a quote in the data does not swallow the keys added after it', () => {
    const graph = sqlNotation.toGraph(
      'CREATE TABLE public.actor (actor_id int NOT NULL, name text);\nCREATE TABLE public.film (film_id int NOT NULL, actor_id int);\n' +
        "COPY public.actor (actor_id, name) FROM stdin;\n1\tO'Brien\n2\tBob; Jr\n\\.\n\n" +
        'ALTER TABLE ONLY public.actor ADD CONSTRAINT actor_pkey PRIMARY KEY (actor_id);\n' +
        'ALTER TABLE ONLY public.film ADD CONSTRAINT film_actor_fkey FOREIGN KEY (actor_id) REFERENCES public.actor(actor_id);\n',
    );
    expect(graph.nodes.find((n) => n.id === 'public.actor')!.rows![0]).toBe('PK    actor_id  int');
    expect(graph.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(['public.film -> public.actor']);
    expect(graph.warnings).toEqual(['line 3: skipped a statement the SQL parser does not read (COPY public.actor (actor_id,)']);
  });
});
