/**
 * PlantUML class diagrams: classes, interfaces, enums (and the other class-like keywords) with their members,
 * packages as containers, and relations with UML heads (inheritance, implementation, composition, aggregation,
 * association, dependency) and multiplicities.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import { linkEdge, parseLink, placedHint } from './links.js';
import { noteElements, noteOnLink, readNote } from './notes.js';
import { closeAtEnd, parseError, plainText, plantumlColor, unquote, type DiagramSource, type SourceLine } from './source.js';
import { applyVisibility } from './visibility.js';
import { dictionary } from '../../dictionary.js';

/** Class-like keyword → role; the keyword itself is shown as a stereotype row when it is not plain `class`. */
export const CLASS_KEYWORDS: Readonly<Record<string, NodeKind>> = dictionary({
  class: 'class',
  'abstract class': 'class',
  abstract: 'class',
  interface: 'interface',
  enum: 'enum',
  annotation: 'interface',
  entity: 'entity',
  struct: 'class',
  record: 'class',
  dataclass: 'class',
  exception: 'class',
  protocol: 'interface',
  metaclass: 'class',
  stereotype: 'class',
  circle: 'class',
  diamond: 'decision',
  // Object diagrams are class diagrams in PlantUML: an object is a box of `field = value` rows, a map of `key => value`.
  object: 'class',
  map: 'class',
});
/** Keywords PlantUML draws without a «keyword» row. */
const UNMARKED = new Set(['class', 'object', 'map']);

export const CLASS_DECLARATION = new RegExp(`^(?:[-+#~]\\s*)?(${Object.keys(CLASS_KEYWORDS).sort((a, b) => b.length - a.length).join('|')})\\s+(.+)$`, 'i');
/** Name (quoted, or with generics), alias, stereotypes, colour, extends/implements and an opening brace. */
const REST =
  /^("[^"]+"|[^\s{<#"]+(?:<[^>]*(?:<[^>]*>[^>]*)*>)?)(?:\s+as\s+("[^"]+"|[^\s{<#]+))?\s*((?:<<[^>]*>>\s*)*)(#\S+)?\s*(?:extends\s+([^{]+?))?\s*(?:implements\s+([^{]+?))?\s*(\{\s*\}?)?$/i;
const PACKAGE = /^(package|namespace|together)\b\s*("[^"]*"|[^\s{<#]*)?(?:\s+as\s+(\S+))?\s*(?:<<[^>]*>>\s*)?(#\S+)?\s*\{$/i;
/** Separators and section titles inside a class body. */
const SEPARATOR = /^(--+|==+|\.\.+|__+)(.*?)(--+|==+|\.\.+|__+)?$/;

/**
 * A member as a row. `{static}` and `{abstract}` (PlantUML underlines or italicises them) become a word after the
 * visibility, `- static COUNT : int`, wherever they were written; `{field}`/`{method}` only steer PlantUML's parser.
 */
function cleanMember(text: string): string {
  let marks = '';
  const rest = text.replace(/\s*\{(static|classifier|abstract|field|method)\}\s*/gi, (_, mark: string) => {
    const word = mark.toLowerCase() === 'abstract' ? 'abstract' : mark.toLowerCase() === 'field' || mark.toLowerCase() === 'method' ? '' : 'static';
    if (word && !marks.includes(word)) marks += `${word} `;
    return ' ';
  });
  const member = rest.replace(/\s+/g, ' ').trim();
  const visibility = /^[-+#~]\s*/.exec(member)?.[0] ?? '';
  return plainText(`${visibility.trim()}${visibility ? ' ' : ''}${marks}${member.slice(visibility.length)}`);
}

/** `<< (S,#FF7700) Singleton >>` → «Singleton»: the spot (letter in a coloured circle) is PlantUML's drawing, not a name. */
const spotless = (stereotype: string): string => {
  const name = stereotype.replace(/^\s*\([^)]*\)\s*/, '').trim();
  return name ? `«${name}»` : '';
};

/** `Observable<T>`, `Observable‹T›` and `Observable` are one class: its name without the type parameters. */
const genericBase = (name: string): string => name.replace(/\s*[<‹][\s\S]*$/, '');

export function classToGraph(source: DiagramSource): GraphIR {
  const nodes = new Map<string, GraphNode>();
  const groups: GraphGroup[] = [];
  const edges: GraphEdge[] = [];
  const warnings = [...source.warnings];
  const names = new Map<string, string>();
  /** Open braces; a namespace's dotted name qualifies the classes declared in it. */
  const stack: { id?: string; namespace?: string; line: SourceLine }[] = [];
  const separator = source.separator;
  let lastElement: string | undefined;
  const parent = () => [...stack].reverse().find((s) => s.id !== undefined)?.id;

  const namespace = () => [...stack].reverse().find((s) => s.namespace !== undefined)?.namespace;
  /** The package group of a dotted prefix (`net.dummy` of `net.dummy.Person`), made on first use as PlantUML does. */
  const packageOf = (prefix: string): string => {
    const id = `package:${prefix}`;
    if (!groups.some((g) => g.id === id)) groups.push({ id, label: prefix, kind: 'package' });
    return id;
  };

  const classNode = (written: string, kind: NodeKind = 'class'): GraphNode => {
    // `Foo::field` in a link is a member of Foo: the link is drawn to Foo.
    const name = separator === '::' ? written : written.replace(/::[\w$]+$/, '');
    // Links may name a class by its short name, with its package prefix, or with or without its type parameters.
    // Inside a namespace a bare name is the namespace's own; `.Name` is the root's.
    const base = genericBase(name);
    const space = namespace();
    const root = base.startsWith('.');
    const qualified = root ? base.slice(1) : space !== undefined && separator !== undefined && !base.includes(separator) ? `${space}${separator}${base}` : base;
    const up = parent();
    // In `package shop { class Item }` a bare name is also the one a link named `shop.Item` before: one class, not two.
    const inPackage = up?.startsWith('package:') && separator !== undefined && !root ? names.get(`${up.slice('package:'.length)}${separator}${base}`) : undefined;
    const id = names.get(qualified) ?? inPackage ?? names.get(name) ?? names.get(base) ?? (space === undefined ? names.get(base.split('.').pop()!) : undefined);
    if (id !== undefined) return nodes.get(id)!;
    const node: GraphNode = { id: qualified, label: name === base ? qualified : name, kind };
    const cut = separator === undefined ? -1 : qualified.lastIndexOf(separator);
    if (cut > 0 && (space === undefined || qualified !== `${space}${separator}${base}`)) {
      // `class net.dummy.Person` outside its package block: PlantUML makes the package and shows the short name.
      node.parent = packageOf(qualified.slice(0, cut));
      node.label = node.label.slice(cut + separator!.length);
    } else if (up && !root) node.parent = up;
    if (space !== undefined && !root && node.label === qualified) node.label = base;
    nodes.set(qualified, node);
    names.set(qualified, qualified);
    if (name !== base) names.set(name, qualified);
    return node;
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const { text } = line;
    if (text === '}') {
      if (stack.length === 0) throw parseError(line, 'unexpected "}": no open package or class');
      stack.pop();
      continue;
    }
    const pkg = PACKAGE.exec(text);
    if (pkg) {
      const keyword = pkg[1]!.toLowerCase();
      if (keyword === 'together') {
        warnings.push(`line ${line.line}: together (keep these classes close) is left to the automatic layout`);
        stack.push({ line });
        continue;
      }
      const label = unquote(pkg[2] ?? '');
      const id = `package:${pkg[3] ?? label}`;
      const group: GraphGroup = { id, label, kind: keyword };
      const up = parent();
      if (up) group.parent = up;
      const fill = pkg[4] ? plantumlColor(pkg[4]) : undefined;
      if (fill) group.style = { fillColor: fill };
      const known = groups.find((g) => g.id === id);
      if (known) Object.assign(known, group);
      else groups.push(group);
      stack.push({ id, line, ...(keyword === 'namespace' && { namespace: label }) });
      continue;
    }
    const onLink = noteOnLink(lines, i, edges, warnings);
    if (onLink > 0) {
      i += onLink - 1;
      continue;
    }
    // `(Student, Course) .. Enrollment`: an association class, hung from the middle of the link in PlantUML.
    const association = /^\(\s*("[^"]+"|[\w.$]+)\s*,\s*("[^"]+"|[\w.$]+)\s*\)\s*[-.]+\s*("[^"]+"|[\w.$]+)$/.exec(text) ?? /^("[^"]+"|[\w.$]+)\s*[-.]+\s*\(\s*("[^"]+"|[\w.$]+)\s*,\s*("[^"]+"|[\w.$]+)\s*\)$/.exec(text);
    if (association) {
      const [a, b, c] = text.startsWith('(') ? [association[1]!, association[2]!, association[3]!] : [association[2]!, association[3]!, association[1]!];
      const cls = classNode(unquote(c)).id;
      for (const end of [a, b]) edges.push({ id: `e${edges.length + 1}`, from: cls, to: classNode(unquote(end)).id, startArrowhead: 'none', endArrowhead: 'none', style: { strokeStyle: 'dashed' } });
      warnings.push(`line ${line.line}: association class ${unquote(c)} is linked to both ends of ${unquote(a)}–${unquote(b)}, not to the middle of their link`);
      continue;
    }
    // `<> name` is the diamond of an n-ary association.
    const diamond = /^<>\s+([\w.$]+)$/.exec(text);
    if (diamond) {
      const node = classNode(diamond[1]!, 'decision');
      node.label = '';
      lastElement = node.id;
      continue;
    }
    const note = readNote(lines, i);
    if (note) {
      i += note.consumed - 1;
      const target = note.target !== undefined ? names.get(note.target) : note.attachedToLast ? lastElement : undefined;
      const id = note.alias ?? `note-${line.line}`;
      const { node, edge } = noteElements(id, note, target, parent());
      nodes.set(id, node);
      if (note.alias) names.set(note.alias, id);
      if (edge) edges.push(edge);
      continue;
    }
    const declaration = CLASS_DECLARATION.exec(text);
    const rest = declaration ? REST.exec(declaration[2]!.trim()) : undefined;
    if (declaration && rest) {
      const keyword = declaration[1]!.toLowerCase().replace(/\s+/g, ' ');
      const [, rawName, alias, stereotypes, color, extendsList, implementsList, brace] = rest as unknown as (string | undefined)[];
      const name = unquote(rawName!).replace(/‹/g, '<').replace(/›/g, '>');
      const id = alias ? unquote(alias) : genericBase(name);
      const node = classNode(id, CLASS_KEYWORDS[keyword]);
      node.kind = CLASS_KEYWORDS[keyword]!;
      if (keyword === 'diamond') {
        node.label = '';
        lastElement = node.id;
        continue;
      }
      // `class net.dummy.Person` shows Person; its package is the group.
      const cut = !alias && separator !== undefined && !rawName!.startsWith('"') ? genericBase(name).lastIndexOf(separator) : -1;
      node.label = cut > 0 ? name.slice(cut + separator!.length) : name;
      const up = parent();
      if (up) node.parent = up;
      if (alias) names.set(name, id);
      if (name !== id) names.set(name, id);
      const rows: string[] = [];
      const marks = [UNMARKED.has(keyword) ? '' : `«${keyword}»`, ...[...(stereotypes ?? '').matchAll(/<<([^>]*)>>/g)].map((m) => spotless(m[1]!))].filter(Boolean);
      if (marks.length > 0) rows.push(marks.join(' '));
      const fill = color ? plantumlColor(color) : undefined;
      if (fill) node.style = { fillColor: fill };
      if (brace !== undefined && !brace.includes('}')) {
        let j = i + 1;
        for (; j < lines.length && lines[j]!.text !== '}'; j++) {
          const member = lines[j]!.text;
          const separator = SEPARATOR.exec(member);
          if (separator) {
            if (separator[2]!.trim()) rows.push(`— ${plainText(separator[2]!.trim())} —`);
            continue;
          }
          rows.push(cleanMember(member));
        }
        if (j >= lines.length) throw parseError(line, `class body of "${name}" is never closed with "}"`);
        i = j;
      }
      if (rows.length > 0) node.rows = [...(node.rows ?? []), ...rows];
      for (const parentName of splitNames(extendsList)) edges.push(relation(edges, node.id, classNode(parentName).id, 'solid'));
      for (const iface of splitNames(implementsList)) edges.push(relation(edges, node.id, classNode(iface, 'interface').id, 'dashed'));
      lastElement = node.id;
      continue;
    }
    const written = parseLink(text);
    if (written) {
      // A short link (`Order -> Customer`) sets its target beside its source, as PlantUML draws a class diagram too.
      const link = { ...placedHint(written.long ? written : { ...written, hidden: true }, source.direction), hidden: written.hidden };
      const from = classNode(link.from.name).id;
      const to = classNode(link.to.name).id;
      edges.push(linkEdge(`e${edges.length + 1}`, from, to, link));
      continue;
    }
    // `Name : member` adds a member outside the class body.
    const member = /^("[^"]+"|[\w.$]+)\s*:\s*(.+)$/.exec(text);
    if (member && names.has(unquote(member[1]!))) {
      const node = classNode(unquote(member[1]!));
      node.rows = [...(node.rows ?? []), cleanMember(member[2]!)];
      continue;
    }
    throw parseError(line, `expected a class, interface, enum, package, relation (A <|-- B) or "}", got "${text.slice(0, 60)}"`);
  }
  closeAtEnd(stack, warnings);
  applyVisibility({ nodes, edges, names }, source.visibility, warnings);
  // A hierarchy reads downwards, parents above children, as PlantUML always draws it: turning it sideways to fit a
  // column would lay its generalisations on their side, so a diagram that is mostly one keeps its direction. One
  // with a few among many associations (a data model) may still turn: top-down, IRS's 26-entity job response model
  // spread 3,158 px wide, its text 5 px high at 1,600.
  const generalisations = edges.filter((edge) => edge.startArrowhead === 'triangle-outline' || edge.endArrowhead === 'triangle-outline').length;
  const hierarchy = generalisations > 0 && generalisations * HIERARCHY_SHARE >= edges.length;
  return { layout: 'layered', direction: source.direction, ...((source.forcedDirection || hierarchy) && { forcedDirection: true }), nodes: [...nodes.values()], edges, groups, warnings };
}

const splitNames = (list: string | undefined): string[] => (list ? list.split(',').map((n) => n.trim().replace(/<.*>$/, '')).filter(Boolean) : []);

/** `extends` is inheritance (solid, hollow triangle at the parent); `implements` is realisation (dashed). */
/** A diagram whose generalisations are at least one in this many of its links is a hierarchy, drawn top-down. */
const HIERARCHY_SHARE = 3;

/**
 * The generalisation an `extends`/`implements` clause declares. It runs from the parent, as PlantUML ranks it: the parent
 * above its children, the hollow triangle at its foot (a link written `Child --|> Parent` keeps the child on top, as there).
 */
function relation(edges: GraphEdge[], child: string, parent: string, strokeStyle: 'solid' | 'dashed'): GraphEdge {
  const edge: GraphEdge = { id: `e${edges.length + 1}`, from: parent, to: child, startArrowhead: 'triangle-outline', endArrowhead: 'none' };
  if (strokeStyle === 'dashed') edge.style = { strokeStyle };
  return edge;
}
