/**
 * The C4 model's elements as we draw them, shared by C4-PlantUML's macros (description.ts) and Mermaid's C4 diagrams
 * (mermaid/c4.ts), which copy those macros: `Person`, `System`, `ContainerDb`, `Component_Ext`… with their role,
 * outline, the `[Container: techn]` row and the description under it.
 */
import type { GraphNode, NodeKind } from '../../graph/types.js';
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
