/**
 * Writes the CI sample of the conformance run: a fixed, spread-out pick of inputs from the collections whose licence
 * allows a copy here (`sampleable`), to test/fixtures/conformance/<notation>/, with SOURCES.md naming each file's
 * repository, commit, path and licence. `npm run conformance:sample` (after conformance:fetch); the test
 * (test/conformance.test.ts) reads only the folder. Inputs over 24 KiB are left to the full run.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { COLLECTIONS, collectionInputs } from './sources.js';
import type { ConformanceInput, ConformanceNotation } from './collections.js';

/** How many inputs per notation the sample holds, spread over its collections. */
const PER_NOTATION: Record<ConformanceNotation, number> = { dot: 50, mermaid: 40, d2: 25, plantuml: 40, sql: 6, helm: 20, kubernetes: 30, compose: 20, terraform: 12 };

/** Inputs the sample always holds: real files a fix of ours was made for (the class tests read them). */
const PINNED = [
  'rtest/graphs/b33.gv',
  'rtest/graphs/b545.gv',
  'rtest/graphs/decorate.gv',
  'rtest/graphs/multi.gv',
  'docs/book/src/images/worker-machines-resources.plantuml',
  'docs/book/src/images/cluster-topology-controller.plantuml',
  'docs/proposals/images/kubelet-authentication/client-authenticator-flow.plantuml',
  'concepts/0478-coprotocols/payment-protocol.puml',
  'features/0042-lox/keyring.puml',
  'concepts/0051-dkms/puml/06-add-new-edge-agent.puml',
  'pagila-schema.sql',
];

const MAX_BYTES = 24 * 1024;
const EXTENSIONS: Record<ConformanceNotation, string> = { dot: 'gv', mermaid: 'mmd', d2: 'd2', plantuml: 'puml', sql: 'sql', helm: 'values.yaml', kubernetes: 'yaml', compose: 'compose.yaml', terraform: 'tf' };

/** A file name that says where the input came from: `rtest/graphs/b33.gv` → `rtest--graphs--b33.gv`. */
export function sampleFileName(input: Pick<ConformanceInput, 'notation' | 'source'>): string {
  const base = input.source.replace(/\.(gv|dot|md|go|txt|puml|plantuml|sql|ya?ml|tf)(?=#|$)/, '').replace(/[^\w.#-]+/g, '--').replace(/#/g, '.').replace(/--$/, '');
  return `${base}.${EXTENSIONS[input.notation]}`;
}

const root = new URL('../../test/fixtures/conformance/', import.meta.url);
rmSync(root, { recursive: true, force: true });
const sources: string[] = [];
for (const notation of Object.keys(PER_NOTATION) as ConformanceNotation[]) {
  const collections = COLLECTIONS.filter((c) => c.notation === notation && c.sampleable);
  const pools = collections.map((collection) => ({ collection, inputs: collectionInputs(collection).inputs.filter((i) => Buffer.byteLength(i.code) <= MAX_BYTES || PINNED.some((p) => i.source.endsWith(p))).sort((a, b) => a.source.localeCompare(b.source)) }));
  const total = pools.reduce((sum, pool) => sum + pool.inputs.length, 0);
  for (const { collection, inputs } of pools) {
    const share = Math.max(1, Math.round((PER_NOTATION[notation] * inputs.length) / Math.max(1, total)));
    const step = Math.max(1, Math.floor(inputs.length / share));
    const picked = inputs.filter((input, i) => i % step === 0 || PINNED.some((p) => input.source.endsWith(p))).slice(0, share + PINNED.length);
    if (picked.length === 0) continue;
    mkdirSync(new URL(`${notation}/`, root), { recursive: true });
    sources.push(`## ${notation}: ${collection.repo} @ ${collection.commit} (${collection.licence})`, '');
    for (const input of picked) {
      const name = sampleFileName(input);
      writeFileSync(new URL(`${notation}/${name}`, root), input.code);
      sources.push(`- \`${notation}/${name}\` ← \`${input.source}\``);
    }
    sources.push('');
  }
}
writeFileSync(
  new URL('SOURCES.md', root),
  [
    '# Conformance sample: sources and licences',
    '',
    'Copied unchanged from the public repositories below at the commits named, under their licences (MIT, Apache-2.0,',
    'EPL-1.0, MPL-2.0, BSD-2-Clause, PostgreSQL, CC0-1.0), which allow copies with this attribution; each file keeps its',
    "own licence. Inputs cut out of a larger file (a Markdown code block, a Go test's script) name the line or test case.",
    'Written by `npm run conformance:sample`; see scripts/conformance/collections.ts.',
    '',
    ...sources,
  ].join('\n'),
);
console.log(`${sources.filter((line) => line.startsWith('- ')).length} files → test/fixtures/conformance/`);
