/** PlantUML `@startmindmap` and `@startwbs`, read into the tree model Mermaid's mind maps share (issue 27). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { detectNotation } from '../index.js';
import { plantumlNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/plantuml/${name}`, import.meta.url), 'utf8');
const labels = (code: string) => {
  const graph = plantumlNotation.toGraph(code);
  const label = new Map(graph.nodes.map((node) => [node.id, node.label]));
  return { graph, edges: graph.edges.map((edge) => [label.get(edge.from), label.get(edge.to), edge.toward]) };
};

describe('PlantUML mind maps', () => {
  it('reads the IRS quality tree: 80 topics in the author\'s order, every branch on the right of the root', () => {
    const code = fixture('irs-quality-tree-mindmap.puml');
    expect(detectNotation(code)).toBe('plantuml');
    const { graph, edges } = labels(code);
    expect(graph.nodes).toHaveLength(80);
    expect(graph.nodes[0]!.label).toBe('Quality');
    expect(edges.slice(0, 3)).toEqual([
      ['Quality', 'Compatibility', 'RIGHT'],
      ['Compatibility', 'Interoperability', 'RIGHT'],
      ['Compatibility', 'Backward compatibility', 'RIGHT'],
    ]);
    expect(edges).toContainEqual(['Extensibility', 'Database and Persistence', 'RIGHT']);
    expect(graph.edges.every((edge) => edge.endArrowhead === 'none')).toBe(true);
    expect(graph.warnings).toEqual([]);
  });

  it('puts `-` branches and those after `left side` on the left, reads colours, boxless and multi-line topics', () => {
    const { graph, edges } = labels(
      ['@startmindmap', '+[#Orange] Root', '++_ boxless', '-- left', '--- deeper', 'left side', '**:two', 'lines;', '@endmindmap'].join('\n'),
    );
    expect(edges).toEqual([
      ['Root', 'boxless', 'RIGHT'],
      ['Root', 'left', 'LEFT'],
      ['left', 'deeper', 'LEFT'],
      ['Root', 'two\nlines', 'LEFT'],
    ]);
    expect(graph.nodes[0]!.style?.fillColor).toBe('#ffa500');
    expect(graph.nodes[1]!.style).toMatchObject({ fillColor: 'transparent', strokeColor: '#00000000' });
  });

  it('reads the Markdown style, depth from indentation', () => {
    const { edges } = labels(['@startmindmap', '* root', '  * a', '    * a1', '  * b', '@endmindmap'].join('\n'));
    expect(edges.map(([from, to]) => [from, to])).toEqual([
      ['root', 'a'],
      ['a', 'a1'],
      ['root', 'b'],
    ]);
  });

  it('refuses a topic deeper than any above it, with its line', () => {
    const error = (() => {
      try {
        plantumlNotation.toGraph(['@startmindmap', '* root', '* second', '*** lost', '@endmindmap'].join('\n'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 4 } });
  });

  it('refuses an empty mind map, saying how a root is written', () => {
    expect(() => plantumlNotation.toGraph('@startmindmap\n@endmindmap')).toThrow(/has no topics: write the root as "\* Root"/);
  });
});

describe('PlantUML work breakdown structures', () => {
  it('draws the tree downwards, the root on top', () => {
    const { graph, edges } = labels(['@startwbs', '* Top', '** A', '*** A1', '** B', '@endwbs'].join('\n'));
    expect(graph.direction).toBe('DOWN');
    expect(edges).toEqual([
      ['Top', 'A', 'DOWN'],
      ['A', 'A1', 'DOWN'],
      ['Top', 'B', 'DOWN'],
    ]);
  });
});
