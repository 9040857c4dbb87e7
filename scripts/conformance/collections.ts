/**
 * The conformance run's collections: public repositories at pinned commits, which of their files are inputs, and how
 * an input is cut out of a file (a Markdown code block, a Go test's raw string). Each collection is a notation's own
 * tool's files or a large body of its users' files; what the original tool refuses is left out here, with the rule
 * that decides it next to the collection (see `excluded`).
 */

export type ConformanceNotation = 'dot' | 'mermaid' | 'd2' | 'plantuml' | 'sql' | 'helm' | 'kubernetes' | 'compose' | 'terraform';

/** One input: where it came from (`path` or `path#case`) and its text. */
export interface ConformanceInput {
  notation: ConformanceNotation;
  repo: string;
  source: string;
  code: string;
}

export interface Collection {
  notation: ConformanceNotation;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  licence: string;
  /** Whether a handful of its files may be committed as the CI sample (a licence allowing redistribution with attribution). */
  sampleable: boolean;
  /** Paths (from the repository's root) that hold inputs. */
  paths: RegExp;
  /**
   * `directory` when the tool reads a folder's files as one input (a Terraform module is every .tf file of its
   * folder); each file is one input by default.
   */
  unit?: 'directory';
  /** The inputs in one file; the whole file by default. */
  extract?: (path: string, text: string, read: (path: string) => string) => Array<{ source: string; code: string }>;
  /** Why an input the original tool would refuse, or that is not of this notation, is left out; undefined keeps it. */
  excluded?: (source: string, code: string) => string | undefined;
}

/** Code blocks fenced as one of `languages` in a Markdown file, each named by the line it starts on. */
export function markdownBlocks(languages: readonly string[]) {
  return (path: string, text: string): Array<{ source: string; code: string }> => {
    const blocks: Array<{ source: string; code: string }> = [];
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]+)/.exec(lines[i]!);
      if (open === null) continue;
      const fence = open[2]!;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !lines[j]!.trim().startsWith(fence); j++) body.push(lines[j]!.slice(open[1]!.length));
      if (languages.includes(open[3]!)) blocks.push({ source: `${path}#L${i + 1}`, code: body.join('\n') });
      i = j;
    }
    return blocks;
  };
}

/**
 * D2's end-to-end tests: each `script:` raw string of a test case in the Go test files, and `loadFromFile` cases read
 * from testdata/files. A case with `expErr` is one D2 itself must refuse, so it is not an input.
 */
export function d2TestCases(path: string, text: string, read: (path: string) => string): Array<{ source: string; code: string }> {
  if (path.endsWith('.d2')) return [{ source: path, code: text }];
  if (path.endsWith('.txt')) {
    // txtar: `-- name --` headers, each followed by one script.
    return text
      .split(/^-- (.+?) --$/m)
      .slice(1)
      .flatMap((part, i, parts) => (i % 2 === 0 ? [{ source: `${path}#${part}`, code: parts[i + 1] ?? '' }] : []));
  }
  const cases: Array<{ source: string; code: string }> = [];
  // A test case literal starts at its `name:` field; its script is the raw string after `script:` before the next case.
  const starts = [...text.matchAll(/\bname:\s*"([^"]+)"/g)];
  starts.forEach((start, i) => {
    const body = text.slice(start.index, starts[i + 1]?.index ?? text.length);
    if (/\bexpErr:/.test(body)) return;
    const script = /\bscript:\s*`([^`]*)`/.exec(body);
    const file = /loadFromFile\(t,\s*"([^"]+)"\)/.exec(body);
    if (script !== null) cases.push({ source: `${path}#${start[1]}`, code: script[1]! });
    else if (file !== null) {
      const filePath = `e2etests/testdata/files/${file[1]}.d2`;
      try {
        cases.push({ source: `${path}#${start[1]}`, code: read(filePath) });
      } catch {
        // A case naming a file the pinned commit lacks is skipped, not a failure of ours.
      }
    }
  });
  return cases;
}

/** Every YAML document stream with at least one `apiVersion` + `kind` object: what `kubectl apply -f` takes. */
function notKubernetesManifest(_source: string, code: string): string | undefined {
  return /^apiVersion:/m.test(code) && /^kind:/m.test(code) ? undefined : 'not a Kubernetes manifest (no top-level apiVersion and kind)';
}

/** PlantUML's other diagram families (@startjson, @startyaml, …) are not drawn; mind maps, WBS and gantt charts are. */
function notStartUml(_source: string, code: string): string | undefined {
  const start = /^\s*@start(\w+)/m.exec(code);
  if (start === null) return 'no @start line: an include file (a library of procedures), not a diagram';
  if (!/^(uml|mindmap|wbs|gantt)$/i.test(start[1]!)) return `@start${start[1]}: a PlantUML diagram family other than UML, mind maps, WBS and gantt charts`;
  // java-design-patterns' generator leaves `@startuml⏎@enduml` for a pattern without classes.
  const body = code.slice(start.index + start[0].length).split(/^\s*@end/m)[0]!;
  return body.split('\n').every((line) => /^\s*('.*)?$/.test(line)) ? 'an empty diagram: nothing between @startuml and @enduml' : undefined;
}

export const COLLECTIONS: readonly Collection[] = [
  {
    notation: 'dot',
    // The Graphviz source tree as mirrored on GitHub (gitlab.com/graphviz/graphviz is the live one): its example
    // graphs and its regression tests' inputs.
    repo: 'ellson/MOTHBALLED-graphviz',
    commit: 'ac239f71ea9f807590505e6862cebe50e992e271',
    licence: 'EPL-1.0',
    sampleable: true,
    paths: /^(graphs\/(directed|undirected)|rtest\/graphs|doc\/dotguide|doc\/infosrc|doc\/neato)\/[^/]+\.(gv|dot)$/,
    // Which of these Graphviz itself refuses is decided by running Graphviz's own parser on each (run.ts).
  },
  {
    notation: 'mermaid',
    repo: 'mermaid-js/mermaid',
    commit: 'df032c942c32f805a7f4cd1cf30a565e610bc4f1',
    licence: 'MIT',
    sampleable: true,
    paths: /^packages\/mermaid\/src\/docs\/(syntax\/[^/]+|intro\/[^/]+|ecosystem\/[^/]+)\.md$/,
    // The documentation renders these blocks on mermaid.js.org, so Mermaid accepts each.
    extract: markdownBlocks(['mermaid', 'mermaid-example']),
  },
  {
    notation: 'd2',
    repo: 'terrastruct/d2',
    commit: '2446e247b6d7d5b9395a1ae8ad1e9c2641231035',
    licence: 'MPL-2.0',
    sampleable: true,
    paths: /^e2etests\/([a-z_]+_test\.go|txtar\.txt)$/,
    // Cases with `expErr` are dropped by d2TestCases; what D2's compiler refuses at this commit is decided by D2's
    // compiler itself, which Drawbridge runs before reading (run.ts).
    extract: d2TestCases,
  },
  {
    notation: 'd2',
    // The examples D2's documentation site renders (d2lang.com), each a file of its own.
    repo: 'terrastruct/d2-docs',
    commit: 'f49a9c8985f346f0f38013c184dec3758b86dbc2',
    licence: 'BSD-2-Clause',
    sampleable: true,
    paths: /^static\/.+\.d2$/,
  },
  {
    notation: 'plantuml',
    repo: 'plantuml-stdlib/C4-PlantUML',
    commit: 'a11242b31bfd0fe599928eeb2efb58233c35ba40',
    licence: 'MIT',
    sampleable: true,
    paths: /^(samples|percy)\/.+\.puml$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    repo: 'kubernetes-sigs/cluster-api',
    commit: 'ae7ff047db499ac3858ade268ba38db8c9f128bb',
    licence: 'Apache-2.0',
    sampleable: true,
    paths: /\.(puml|plantuml)$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    repo: 'hyperledger/aries-rfcs',
    commit: 'fa3b46636568465d5a784c1a0ba3d0b4000aeae2',
    licence: 'Apache-2.0',
    sampleable: true,
    paths: /\.(puml|plantuml)$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    // 558 sequence, activity and component diagrams of a payments project, many with preprocessor variables and
    // conditions. Like the next one, it joined after the CI sample was drawn, so it stays out of that sample.
    repo: 'mojaloop/documentation',
    commit: 'cd65524f4636f49b13b373d1cf8bb80ab30512a1',
    licence: 'Apache-2.0',
    sampleable: false,
    paths: /\.(puml|plantuml)$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    // Class diagrams of 200+ design patterns, generated by a tool (packages of classes, generics, modifiers).
    repo: 'iluwatar/java-design-patterns',
    commit: '22a34127d0b08449c24cf7e230c04a097deca2f3',
    licence: 'MIT',
    sampleable: false,
    paths: /\.(puml|plantuml)$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    // The architecture documentation of an Eclipse project (82 files: sequences with refs and boxes, swimlane
    // activities, composite states, components, C4), the fresh files of issue 27's second review: 4 of the first 10
    // read were refused before.
    repo: 'eclipse-tractusx/item-relationship-service',
    commit: 'a6e5dd317a5168638f6e4e07bf0edff557504335',
    licence: 'CC-BY-4.0',
    sampleable: false,
    paths: /^docs\/.+\.puml$/,
    excluded: notStartUml,
  },
  {
    notation: 'plantuml',
    // One example per PlantUML diagram kind; its licence (CC BY-NC-SA) allows no copy in this repository.
    repo: 'joelparkerhenderson/plantuml-examples',
    commit: '8baf937a61027d4650c01f6d6f5782dfcb0eb418',
    licence: 'CC-BY-NC-SA-4.0',
    sampleable: false,
    paths: /^doc\/.+\.plantuml$/,
    excluded: notStartUml,
  },
  {
    notation: 'sql',
    repo: 'jOOQ/sakila',
    commit: 'e089a5b1ec9af0df7a9c6a5d47d49fa1736a4e84',
    licence: 'BSD-2-Clause',
    sampleable: true,
    // The dialects Drawbridge reads (PostgreSQL, MySQL, SQLite) and the PostgreSQL-compatible ones.
    paths: /^(mysql|postgres|sqlite|cockroachdb|yugabytedb)-sakila-db\/[^/]*schema[^/]*\.sql$/,
  },
  {
    notation: 'sql',
    repo: 'devrimgunduz/pagila',
    commit: 'eddcfc4513dab4239ee1acbdf52beb1f5fcf50ac',
    licence: 'PostgreSQL',
    sampleable: true,
    // pg_dump output of the schema, plain and with the jsonb column.
    paths: /^pagila-schema(-jsonb)?\.sql$/,
  },
  {
    notation: 'sql',
    repo: 'datacharmer/test_db',
    commit: '3c7fa05e04b4c339d91a43b7029a210212d48e6c',
    licence: 'CC-BY-SA-3.0',
    sampleable: false,
    paths: /^(employees(_partitioned)?\.sql|sakila\/sakila-mv-schema\.sql)$/,
  },
  {
    notation: 'helm',
    repo: 'bitnami/charts',
    commit: '5165628ae06697f8f68a670bef7739d93c4b7f44',
    licence: 'Apache-2.0',
    sampleable: true,
    // Every published chart's default values: `helm install` reads each.
    paths: /^bitnami\/[^/]+\/values\.yaml$/,
  },
  {
    notation: 'kubernetes',
    repo: 'kubernetes/examples',
    commit: '279e8e4fe314f6cb7bc55fa3fbc21bbeaa48c0ea',
    licence: 'Apache-2.0',
    sampleable: true,
    paths: /\.ya?ml$/,
    excluded: (source, code) =>
      /(^|\/)(\.github|charts?)\//.test(source) || /(^|\/)(kustomization|values|Chart)\.ya?ml$/.test(source)
        ? 'not a manifest: CI workflow, Helm chart or kustomization'
        : notKubernetesManifest(source, code),
  },
  {
    notation: 'compose',
    repo: 'docker/awesome-compose',
    commit: '18f59bdb09ecf520dd5758fbf90dec314baec545',
    licence: 'CC0-1.0',
    sampleable: true,
    paths: /(^|\/)(docker-)?compose(\.[\w-]+)?\.ya?ml$/,
  },
  {
    notation: 'terraform',
    repo: 'terraform-aws-modules/terraform-aws-vpc',
    commit: '82d1929e669efef4e2ad00611b8a68e7a56e049c',
    licence: 'Apache-2.0',
    sampleable: true,
    paths: /\.tf$/,
    unit: 'directory',
  },
  {
    notation: 'terraform',
    repo: 'terraform-aws-modules/terraform-aws-eks',
    commit: 'bef29c4d9523523e57fe898643fde2895106b339',
    licence: 'Apache-2.0',
    sampleable: true,
    paths: /\.tf$/,
    unit: 'directory',
  },
];
