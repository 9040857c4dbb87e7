/**
 * The conformance run's fixed sample (test/fixtures/conformance/, sources and licences in its SOURCES.md): real files
 * from each notation's own tool and its users, through the pipeline the service runs (parse → graph → layout →
 * scene; D2 through D2's compiler). None may crash, and at least 99 % of those the original tool accepts are drawn;
 * the few refused are listed below with their reason. The full run is `npm run conformance` (README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveIconHints } from '../src/core/notations/icon-hints.js';
import { codeToScene, drawGraph } from '../src/core/notations/index.js';
import { createD2Compiler } from '../src/infra/d2-compiler.js';
import type { ConformanceNotation } from '../scripts/conformance/collections.js';
import { convert, graphvizParser, type ConformanceEngines, type Outcome } from '../scripts/conformance/outcome.js';

const root = new URL('./fixtures/conformance/', import.meta.url);

/** Sample files still refused, each with why (also in the README's list of refusals). */
const KNOWN_REFUSALS: Record<string, string> = {
  'plantuml/percy--TestThemeC4_FirstTest.puml': 'the whole diagram is an !include of another file, which Drawbridge does not fetch',
  'plantuml/percy--TestThemeTemplate.puml': 'the whole diagram is an !include of another file, which Drawbridge does not fetch',
};

const graphviz = await Graphviz.load();
const d2 = createD2Compiler({ timeoutSeconds: 20, queue: 4, startAllowanceSeconds: 90 });
afterAll(() => d2.close());

const engines: ConformanceEngines = {
  fromCode: (code, notation) => codeToScene(code, { notation }),
  fromGraph: (graph) => drawGraph(resolveIconHints(graph, undefined)),
  compileD2: (code) => d2.compile(code),
  graphvizRefusal: graphvizParser(graphviz),
};

const notations = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name as ConformanceNotation);

describe('conformance sample', () => {
  const outcomes = new Map<string, Outcome>();

  it.each(notations)('draws the %s sample without a crash', async (notation) => {
    for (const name of readdirSync(new URL(`${notation}/`, root)).sort()) {
      const code = readFileSync(new URL(`${notation}/${name}`, root), 'utf8');
      outcomes.set(`${notation}/${name}`, await convert({ notation, repo: '', source: name, code }, engines));
    }
    const failed = [...outcomes].filter(([file, outcome]) => file.startsWith(`${notation}/`) && outcome.kind !== 'accepted' && outcome.kind !== 'excluded');
    const unexpected = failed.filter(([file, outcome]) => outcome.kind === 'crashed' || outcome.kind === 'timeout' || KNOWN_REFUSALS[file] === undefined);
    expect(unexpected.map(([file, outcome]) => `${file}: ${outcome.kind}: ${'message' in outcome ? outcome.message : ''}`)).toEqual([]);
  }, 240_000);

  it('accepts at least 99 % of the sample the original tools accept, and the known refusals are still refused', () => {
    const counted = [...outcomes.values()].filter((outcome) => outcome.kind !== 'excluded');
    const accepted = counted.filter((outcome) => outcome.kind === 'accepted').length;
    expect(counted.length).toBeGreaterThan(200);
    expect(accepted / counted.length).toBeGreaterThanOrEqual(0.99);
    // A listed refusal that now passes is stale: the list and the README are updated with the fix.
    const stale = Object.keys(KNOWN_REFUSALS).filter((file) => outcomes.get(file)?.kind === 'accepted');
    expect(stale).toEqual([]);
  });
});
