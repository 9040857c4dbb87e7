/**
 * PlantUML `@startmindmap` and `@startwbs` → the tree model (notations/mindmap.ts). A topic's depth is the count of
 * its marks (`*`, `+` right, `-` left; `#` in Org-mode style) or, in the Markdown style (`* a` then `  * b`), its
 * indentation. After the marks: `[#Orange]` its fill, `_` no box, `<`/`>` a WBS side, `(alias)`; `:text` runs over
 * lines up to one ending in `;`. `left side` / `right side` put the following branches on that side.
 *
 * Why by hand: no JavaScript library reads these (the one PlantUML parser on npm, plantuml-parser, reads @startuml
 * class and component diagrams only).
 */
import type { GraphIR } from '../../graph/types.js';
import { treeToGraph, type Topic } from '../mindmap.js';
import { parseError, plainText, plantumlColor, type DiagramSource, type SourceLine } from './source.js';

const TOPIC = /^([*+\-#]+)(?:\[(#?[\w#]+)\])?(_)?([<>])?\s*(?:\((\w+)\)\s*)?(.*)$/;
const SIDE = /^(left|right)\s+side$/i;

export function mindmapToGraph(source: DiagramSource): GraphIR {
  const warnings = [...source.warnings];
  const wbs = source.family === 'wbs';
  /** The open topics, one per depth. */
  const path: { topic: Topic; depth: number }[] = [];
  const roots: Topic[] = [];
  /** Markdown style: indentation (column) of each open depth. */
  const indents: number[] = [];
  let side: 'left' | 'right' | undefined;
  let skipped = 0;
  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const sideLine = SIDE.exec(line.text);
    if (sideLine) {
      side = sideLine[1]!.toLowerCase() as 'left' | 'right';
      continue;
    }
    const match = TOPIC.exec(line.text);
    if (!match || match[6] === undefined) {
      // WBS links between aliases (`a -> b`) and other statements are not drawn.
      skipped++;
      continue;
    }
    const [, marks, colour, boxless, , , written] = match as unknown as [string, string, string | undefined, string | undefined, string | undefined, string | undefined, string];
    let text = written;
    // `**:first line` … `last line;`: a topic over several lines.
    if (text.startsWith(':')) {
      const body = [text.slice(1)];
      while (!body[body.length - 1]!.trimEnd().endsWith(';')) {
        if (++i >= lines.length) throw parseError(line, 'multi-line topic ":" is never closed with ";"');
        body.push(lines[i]!.text);
      }
      text = body.join('\n').replace(/;\s*$/, '');
    }
    const depth = marks.length === 1 && !marks.startsWith('#') ? markdownDepth(line, indents) : marks.length;
    const topic: Topic = { label: plainText(text), shape: boxless ? 'none' : 'box', children: [] };
    const fill = colour === undefined ? undefined : plantumlColor(colour);
    if (fill !== undefined) topic.fillColor = fill;
    const mark = marks[0]!;
    // PlantUML puts a branch on the right unless it is marked `-` or follows `left side`.
    if (depth === 2 && !wbs) topic.side = mark === '-' ? 'left' : mark === '+' ? 'right' : (side ?? 'right');
    while (path.length > 0 && path[path.length - 1]!.depth >= depth) path.pop();
    const parent = path[path.length - 1];
    if (depth > (parent?.depth ?? 0) + 1) throw parseError(line, `a topic ${depth} levels deep under one ${parent?.depth ?? 0} deep: each level has one more mark than its parent`);
    if (parent === undefined) {
      roots.push(topic);
    } else parent.topic.children.push(topic);
    path.push({ topic, depth });
  }
  if (roots.length === 0) throw parseError({ line: lines[0]?.line ?? 1, column: 1 }, `the ${wbs ? 'work breakdown structure' : 'mind map'} has no topics: write the root as "* Root"`);
  if (roots.length > 1) warnings.push(`${roots.length} root topics: the first is drawn`);
  if (skipped > 0) warnings.push(`skipped ${skipped} line${skipped === 1 ? '' : 's'} that ${skipped === 1 ? 'is' : 'are'} not a topic (links between topics are not drawn)`);
  const root = roots[0]!;
  const direction = wbs || (source.forcedDirection && source.direction === 'DOWN') ? 'DOWN' : 'RIGHT';
  const graph = treeToGraph(root, { direction, branchColours: false }, warnings);
  return source.title ? { ...graph, title: source.title } : graph;
}

/** The depth of a Markdown-style topic (`* a`, `  * b`) from its indentation, deeper than every open one less indented. */
function markdownDepth(line: SourceLine, indents: number[]): number {
  while (indents.length > 0 && indents[indents.length - 1]! >= line.column) {
    if (indents[indents.length - 1] === line.column) return indents.length;
    indents.pop();
  }
  indents.push(line.column);
  return indents.length;
}
