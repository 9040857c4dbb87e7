/**
 * `hide`, `show`, `remove` and `restore` in class, component/use case and state diagrams, applied in order as PlantUML does: whole classes
 * (`hide Foo`, `hide <<Serializable>>`, `remove @unlinked`, `hide interface`) or parts of them (`hide members`,
 * `show Foo methods`, `hide <<Entity>> stereotype`). What PlantUML hides is not drawn and not counted.
 */
import type { GraphEdge, GraphNode } from '../../graph/types.js';
import type { SourceLine } from './source.js';
import { dictionary } from '../../dictionary.js';

type Part = 'fields' | 'methods' | 'stereotype';

/** The last word of a command when it names parts of classes rather than classes. */
const PARTS: Readonly<Record<string, readonly Part[]>> = dictionary({
  members: ['fields', 'methods'],
  fields: ['fields'],
  attributes: ['fields'],
  methods: ['methods'],
  stereotype: ['stereotype'],
  stereotypes: ['stereotype'],
});
/** Parts we never draw (the class's letter circle) or draw only when there is something in them. */
const NOTHING_TO_DO = /^(?:.*\s)?(circle|circled|spot|empty\s+(members|fields|attributes|methods|description)|footbox)$/i;
/** `hide class`, `hide interface`, … select by keyword. */
const KEYWORDS = ['class', 'interface', 'enum', 'abstract', 'annotation', 'entity', 'struct', 'record', 'exception', 'protocol', 'metaclass'];

const isStereotypeRow = (row: string) => row.startsWith('«');
const isMethodRow = (row: string) => row.includes('(');

export interface DiagramParts {
  nodes: Map<string, GraphNode>;
  edges: GraphEdge[];
  /** Display name or alias → node id. */
  names: ReadonlyMap<string, string>;
}

/** Applies the commands to the diagram in place; a command naming nothing known is said with its line. */
export function applyVisibility(diagram: DiagramParts, commands: readonly SourceLine[], warnings: string[]): void {
  if (commands.length === 0) return;
  const hiddenNodes = new Set<string>();
  const hiddenParts = new Map<string, Set<Part>>();
  const linked = new Set(diagram.edges.flatMap((e) => [e.from, e.to]));

  for (const command of commands) {
    const [, verb, rest] = /^(\w+)\s+(.*)$/.exec(command.text)!;
    const hide = /^(hide|remove)$/i.test(verb!);
    if (NOTHING_TO_DO.test(rest!)) continue;
    const words = rest!.trim().split(/\s+/);
    const parts = PARTS[words[words.length - 1]!.toLowerCase()];
    const scope = (parts ? words.slice(0, -1) : words).join(' ');
    const selected = select(diagram, scope, linked);
    if (selected === undefined) {
      warnings.push(`line ${command.line}: ${command.text} names nothing of the diagram: not applied`);
      continue;
    }
    for (const id of selected) {
      if (parts) {
        const set = hiddenParts.get(id) ?? new Set<Part>();
        for (const part of parts) (hide ? set.add(part) : set.delete(part));
        hiddenParts.set(id, set);
      } else if (hide) hiddenNodes.add(id);
      else hiddenNodes.delete(id);
    }
  }

  for (const [id, parts] of hiddenParts) {
    const node = diagram.nodes.get(id);
    if (!node?.rows || parts.size === 0) continue;
    const rows = node.rows.filter((row) =>
      isStereotypeRow(row) ? !parts.has('stereotype') : row.startsWith('— ') ? !(parts.has('fields') && parts.has('methods')) : !parts.has(isMethodRow(row) ? 'methods' : 'fields'),
    );
    if (rows.length > 0) node.rows = rows;
    else delete node.rows;
  }
  for (const id of hiddenNodes) diagram.nodes.delete(id);
  // Only the links of what was hidden go: a link may end at a container (a composite state, a package), not a node.
  const kept = diagram.edges.filter((e) => !hiddenNodes.has(e.from) && !hiddenNodes.has(e.to));
  diagram.edges.splice(0, diagram.edges.length, ...kept);
}

/** Node ids a command's scope selects: all, a class by name, a stereotype, a keyword or the unlinked ones. */
function select(diagram: DiagramParts, scope: string, linked: ReadonlySet<string>): string[] | undefined {
  const all = [...diagram.nodes.values()].filter((n) => n.kind !== 'note');
  if (scope === '' || scope === '*') return all.map((n) => n.id);
  if (/^@?unlinked$/i.test(scope)) return all.filter((n) => !linked.has(n.id)).map((n) => n.id);
  const stereotype = /^<<\s*(.*?)\s*>>$/.exec(scope);
  if (stereotype) {
    const mark = `«${stereotype[1]}»`;
    return all.filter((n) => n.rows?.[0] !== undefined && isStereotypeRow(n.rows[0]) && n.rows[0].split(' ').includes(mark)).map((n) => n.id);
  }
  const id = diagram.names.get(scope.replace(/^"|"$/g, ''));
  if (id !== undefined && diagram.nodes.has(id)) return [id];
  const keyword = scope.toLowerCase();
  if (KEYWORDS.includes(keyword)) {
    return all
      .filter((n) => {
        const mark = n.rows?.[0] && isStereotypeRow(n.rows[0]) ? n.rows[0] : '';
        return keyword === 'class' ? n.kind === 'class' && !/«(abstract|annotation|struct|record|exception|metaclass)/.test(mark) : mark.includes(`«${keyword}`) || (mark === '' && n.kind === keyword);
      })
      .map((n) => n.id);
  }
  return undefined;
}
