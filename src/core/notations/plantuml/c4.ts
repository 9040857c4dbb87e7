/**
 * The C4 model's elements as we draw them, shared by C4-PlantUML's macros (description.ts) and Mermaid's C4 diagrams
 * (mermaid/c4.ts), which copy those macros: `Person`, `System`, `ContainerDb`, `Component_Ext`… with their role,
 * outline, the `[Container: techn]` row and the description under it.
 */
import type { GraphGrid, GraphGroup, GraphNode, NodeKind } from '../../graph/types.js';
import { KEY_GROUP_KIND } from '../../scene/key-beside.js';
import { dictionary } from '../../dictionary.js';

export interface C4Element {
  kind: NodeKind;
  shape?: string;
  /** Names of the parameters after alias and label. */
  params: string[];
  /** Drawn lighter (outside the system in focus). */
  external?: boolean;
}

export const C4_ELEMENTS: Record<string, C4Element> = dictionary({});
for (const [base, kind, shape] of [
  ['Person', 'actor', 'person'],
  ['System', 'service', undefined],
  ['SystemDb', 'database', 'cylinder'],
  ['SystemQueue', 'queue', 'horizontal-cylinder'],
  ['Container', 'service', undefined],
  ['ContainerDb', 'database', 'cylinder'],
  ['ContainerQueue', 'queue', 'horizontal-cylinder'],
  ['Component', 'component', undefined],
  ['ComponentDb', 'database', 'cylinder'],
  ['ComponentQueue', 'queue', 'horizontal-cylinder'],
] as const) {
  const params = base.startsWith('Person') || base.startsWith('System') ? ['descr', 'sprite', 'tags', 'link'] : ['techn', 'descr', 'sprite', 'tags', 'link'];
  C4_ELEMENTS[base] = { kind, ...(shape && { shape }), params };
  C4_ELEMENTS[`${base}_Ext`] = { kind: base === 'Person' ? 'actor' : 'external', ...(shape && { shape }), params, external: true };
}

/**
 * A long C4 description is cut after about this many characters, so the box stays node-sized. It stays one row, which
 * layout wraps: cut into lines here, a long description made more rows than a node with an icon folds under it, and
 * one ContainerDb of a diagram was a cylinder with its icon while the next was a plain table (C4-PlantUML's message bus).
 */
const DESCRIPTION_LENGTH = 160;

function shortDescription(text: string): string {
  const words = text.split(/\s+/);
  let kept = '';
  for (const word of words) {
    if (kept !== '' && kept.length + word.length + 1 > DESCRIPTION_LENGTH) return `${kept}…`;
    kept = kept === '' ? word : `${kept} ${word}`;
  }
  return kept;
}

/** What a C4 element macro adds to its node: the `[Kind: techn]` row, the description, the dashed outline of an external one, an icon keyword from its technology. */
export function c4NodeParts(macro: string, element: C4Element, values: { techn?: string | undefined; descr?: string | undefined }): Partial<GraphNode> {
  const rows = [
    ...(values.techn ? [`[${macro.replace(/_Ext$/, '')}: ${values.techn}]`] : [`[${macro.replace(/_Ext$/, '').replace(/(Db|Queue)$/, '')}]`]),
    ...(values.descr ? [shortDescription(values.descr)] : []),
  ];
  const extra: Partial<GraphNode> = { rows };
  if (element.external) extra.style = { strokeStyle: 'dashed' };
  if (values.techn) extra.iconHint = values.techn.split(/[ ,/]/)[0]!.toLowerCase();
  return extra;
}

/** The legend's box: an id no C4 alias can be (an alias has no space). */
const LEGEND_ID = 'c4 legend';
/** C4-PlantUML's legend order: people, systems, containers, components, each before its external kind. */
const LEGEND_ORDER = Object.keys(C4_ELEMENTS);

/**
 * `LAYOUT_WITH_LEGEND()` / `SHOW_LEGEND()`: C4-PlantUML's key, a box titled Legend listing each kind of element the
 * diagram uses, drawn as that kind is drawn, named as C4-PlantUML names it ("external system"). A database or queue
 * is its own entry: we draw it in a colour of its own, where C4-PlantUML colours it as its level. Undefined when the
 * diagram uses no C4 element.
 */
export function c4Legend(macros: Iterable<string>): { group: GraphGroup; nodes: GraphNode[] } | undefined {
  const used = [...new Set(macros)].filter((macro) => macro in C4_ELEMENTS).sort((a, b) => LEGEND_ORDER.indexOf(a) - LEGEND_ORDER.indexOf(b));
  if (used.length === 0) return undefined;
  const nodes = used.map((macro, k): GraphNode => {
    const element = C4_ELEMENTS[macro]!;
    const [, level, store] = /^(Person|System|Container|Component)(Db|Queue)?/.exec(macro)!;
    const label = [element.external ? 'external' : '', store === 'Db' ? 'database' : (store?.toLowerCase() ?? ''), level!.toLowerCase()].filter(Boolean).join(' ');
    return { id: `${LEGEND_ID}.${k}`, label, kind: element.kind, parent: LEGEND_ID, ...(element.shape && { shape: element.shape }), ...(element.external && { style: { strokeStyle: 'dashed' as const } }) };
  });
  const cells: GraphGrid['cells'] = {};
  nodes.forEach((node, row) => (cells[node.id] = { row, column: 0 }));
  return { group: { id: LEGEND_ID, label: 'Legend', kind: KEY_GROUP_KIND, grid: { cells, rowGap: 10, columnGap: 0 } }, nodes };
}
