/**
 * PlantUML "description" diagrams: component, deployment and use case diagrams share one syntax of element
 * keywords, shorthands (`[Comp]`, `(Use case)`, `:Actor:`, `() Interface`), brace nesting and links. The
 * C4-PlantUML macros (`Container(...)`, `Deployment_Node(...){`, `Rel(...)`) are read here too: they are the most
 * common way such diagrams are written in the wild, and the library they come from is never included offline.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, GraphStyle, NodeKind } from '../../graph/types.js';
import { wholeEmphasis } from '../emphasis.js';
import { C4_ELEMENTS, c4Legend, c4NodeParts } from './c4.js';
import { beside, linkEdge, parseLink, placedHint, TOWARD, type EndForm } from './links.js';
import { noteElements, noteOnLink, readNote } from './notes.js';
import { closeAtEnd, parseError, plainText, plantumlColor, splitArguments, unquote, type DiagramSource, type SourceLine } from './source.js';
import { applyVisibility } from './visibility.js';
import { dictionary } from '../../dictionary.js';

interface ElementKind {
  kind: NodeKind;
  shape?: string;
}

/** Element keyword → role and outline. Keywords followed by `{` become containers instead. */
export const DESCRIPTION_KEYWORDS: Readonly<Record<string, ElementKind>> = dictionary({
  component: { kind: 'component', shape: 'component' },
  node: { kind: 'workload', shape: 'box-3d' },
  database: { kind: 'database' },
  cloud: { kind: 'external', shape: 'cloud' },
  package: { kind: 'generic', shape: 'folder' },
  rectangle: { kind: 'generic' },
  frame: { kind: 'generic' },
  folder: { kind: 'generic', shape: 'folder' },
  card: { kind: 'generic' },
  agent: { kind: 'generic' },
  // A page with its corner folded, as PlantUML draws a file (an artifact is that page's icon in a box: the page is nearer).
  artifact: { kind: 'generic', shape: 'page' },
  file: { kind: 'generic', shape: 'page' },
  // PlantUML draws storage as a stadium.
  storage: { kind: 'storage', shape: 'terminator' },
  queue: { kind: 'queue', shape: 'horizontal-cylinder' },
  stack: { kind: 'generic' },
  collections: { kind: 'generic', shape: 'stacked' },
  hexagon: { kind: 'generic', shape: 'hexagon' },
  // Text alone, without a box, as PlantUML writes a label.
  label: { kind: 'generic', shape: 'text' },
  actor: { kind: 'actor' },
  person: { kind: 'actor' },
  // Jacobson's robustness glyphs and an interface's small circle, each with its name under it, as PlantUML draws them.
  boundary: { kind: 'gateway', shape: 'boundary' },
  control: { kind: 'service', shape: 'control' },
  entity: { kind: 'entity', shape: 'entity' },
  interface: { kind: 'interface', shape: 'lollipop' },
  usecase: { kind: 'usecase' },
  port: { kind: 'generic' },
  portin: { kind: 'generic' },
  portout: { kind: 'generic' },
  // The rest of PlantUML's deployment elements.
  action: { kind: 'action' },
  process: { kind: 'action' },
  circle: { kind: 'generic', shape: 'lollipop' },
  // `archimate #Business "Label" as alias <<business-process>>`: an ArchiMate element, its colour written first.
  archimate: { kind: 'generic' },
});

const UNSEEN = '#00000000';

const FORM_KIND: Record<EndForm, ElementKind | undefined> = dictionary({
  component: DESCRIPTION_KEYWORDS.component,
  usecase: DESCRIPTION_KEYWORDS.usecase,
  actor: DESCRIPTION_KEYWORDS.actor,
  interface: DESCRIPTION_KEYWORDS.interface,
  pseudo: undefined,
  name: undefined,
});

/** The key of an element named by a shorthand (`[Comp]`, `(Use case)`, `:Actor:`, `() Iface`) when a container has its name. */
const SHORTHAND_KEY: Partial<Record<EndForm, (name: string) => string>> = {
  component: (name) => `[${name}]`,
  usecase: (name) => `(${name})`,
  actor: (name) => `:${name}:`,
  interface: (name) => `() ${name}`,
};

const KEYWORD = new RegExp(`^(${Object.keys(DESCRIPTION_KEYWORDS).join('|')})\\s+(.+)$`, 'i');
/** A name as written: quoted, bracketed, parenthesised, between colons, or a bare word. */
const NAME = String.raw`""[^"]+""|"[^"]*"|\[[^\]]*\]|\([^)]*\)|:[^:]+:|[^\s{}<#"\[(]+`;
/** The ` as ` before an alias; PlantUML needs no space after a closing quote or bracket (`usecase "Request GP Registration"as req`). */
const AS = String.raw`(?:\s+|(?<=["\])]))as\s+`;
const DECLARATION = new RegExp(
  String.raw`^(${NAME})(?:${AS}(${NAME}))?\s*((?:<<[^>]*>>\s*)*)(#[\w#/|\\-]+)?\s*(?:\[\[[^\]]*\]\])?\s*(\{|\[)?\s*(\})?$`,
);
/** Stereotypes written before the alias (`package [OEM] <<Company>> as consumer {`, `[**IRS**] <<System>> as IRS`), which PlantUML reads as after it. */
const STEREOTYPES_BEFORE_ALIAS = new RegExp(String.raw`^(${NAME})\s*((?:<<[^>]*>>\s*)+)as\s+(${NAME})`);
const SHORTHAND = new RegExp(String.raw`^(\[[^\]]+\]|\([^)]+\)|:[^:]+:|\(\)\s*(?:"[^"]+"|\S+))(?:${AS}(${NAME}))?\s*((?:<<[^>]*>>\s*)*)(#\S+)?\s*$`);

const C4_NODES = /^(Deployment_Node|Node)(_L|_R)?$/;
const C4_BOUNDARIES = /^(Boundary|Enterprise_Boundary|System_Boundary|Container_Boundary)$/;
/** PlantUML draws a package, node, folder, frame or rectangle holding others with a solid, square outline. */
const CONTAINER_OUTLINE: GraphStyle = { strokeStyle: 'solid', corner: 'sharp' };
const ARCHIMATE_ELEMENT = /^(Motivation|Strategy|Business|Application|Technology|Physical|Implementation|Other|Grouping|Group)(_\w+)?$/;
const ARCHIMATE_RELATION = /^Rel_(Access|Aggregation|Assignment|Association|Composition|Flow|Influence|Realization|Realisation|Serving|Specialization|Triggering)(_Up|_Down|_Left|_Right|_U|_D|_L|_R)?$/;
const C4_RELATIONS = /^(Bi)?Rel(_Back)?(_Neighbor)?(_U|_Up|_D|_Down|_L|_Left|_R|_Right)?$/;
const C4_LAYOUT_HINTS = /^Lay_(U|Up|D|Down|L|Left|R|Right|Distance)$/;
const MACRO = /^([A-Za-z]\w*)\s*\((.*)\)\s*(\{)?\s*(\})?$/;

/** Splits C4 macro arguments at top-level commas; `$name=value` arguments are returned by name. */
export function macroArguments(text: string): { positional: string[]; named: Record<string, string> } {
  const parts = splitArguments(text).map((part) => part.trim());
  const positional: string[] = [];
  const named: Record<string, string> = dictionary({});
  for (const part of parts) {
    const byName = /^\$(\w+)\s*=\s*(.*)$/s.exec(part);
    if (byName) named[byName[1]!] = plainText(unquote(byName[2]!));
    else positional.push(plainText(unquote(part)));
  }
  return { positional, named };
}

/** `[Name]`, `(Name)`, `:Name:`, `"Name"` → Name. */
const bare = (token: string): string => unquote(token.replace(/^\((.*)\)$|^\[(.*)\]$|^:(.*):$/s, '$1$2$3').trim());

export function descriptionToGraph(source: DiagramSource): GraphIR {
  const nodes = new Map<string, GraphNode>();
  const groups = new Map<string, GraphGroup>();
  const edges: GraphEdge[] = [];
  const warnings = [...source.warnings];
  /** Display name and alias → id, so links may use either. */
  const names = new Map<string, string>();
  const stack: { id?: string; line: SourceLine }[] = [];
  const skippedMacros = new Map<string, number>();
  /** The C4 macro each element was declared with, for C4-PlantUML's legend of them. */
  const c4Macros = new Map<string, string>();
  let lastElement: string | undefined;
  const parent = () => [...stack].reverse().find((s) => s.id !== undefined)?.id;

  const uniqueId = (wanted: string) => {
    let id = wanted;
    for (let n = 2; nodes.has(id) || groups.has(id); n++) id = `${wanted}-${n}`;
    return id;
  };
  const addNode = (name: string, alias: string | undefined, spec: ElementKind, extra: Partial<GraphNode> = {}): string => {
    const key = alias ?? name;
    const known = names.get(key);
    if (known !== undefined && nodes.has(known)) return known;
    const id = uniqueId(key);
    const node: GraphNode = { id, label: plainText(name), kind: spec.kind, ...extra };
    if (spec.shape) node.shape = spec.shape;
    // A label is its words alone: no fill, no border.
    if (spec.shape === 'text') node.style = { fillColor: UNSEEN, strokeColor: UNSEEN };
    // Creole or HTML-like emphasis round the whole name (`component "**Gateway**"`) is drawn so.
    const emphasis = wholeEmphasis(unquote(name), ['creole', 'html']);
    if (Object.keys(emphasis).length > 0) node.style = { ...node.style, ...emphasis };
    const up = parent();
    if (up) node.parent = up;
    nodes.set(id, node);
    names.set(key, id);
    names.set(name, names.get(name) ?? id);
    lastElement = id;
    return id;
  };
  const addGroup = (name: string, alias: string | undefined, kind: string, line: SourceLine, style?: GraphStyle): void => {
    const key = alias ?? name;
    const id = uniqueId(key);
    const group: GraphGroup = { id, label: plainText(name), kind };
    const up = parent();
    if (up) group.parent = up;
    if (style) group.style = style;
    groups.set(id, group);
    names.set(key, id);
    names.set(name, names.get(name) ?? id);
    stack.push({ id, line });
  };
  /** Nodes a link named without a keyword or shorthand: actors in a diagram of use cases. */
  const undeclared = new Set<string>();
  const resolve = (name: string, form: EndForm): string => {
    const known = names.get(name);
    // `(checkout)` inside `rectangle checkout`: a shorthand names an element, never the container of that name.
    const written = SHORTHAND_KEY[form]?.(name);
    if (known !== undefined && (written === undefined || !groups.has(known))) return known;
    const id = addNode(name, known === undefined ? undefined : written, FORM_KIND[form] ?? { kind: 'component' });
    if (form === 'name') undeclared.add(id);
    return id;
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let { text } = line;
    // `usecase UC1 as "You can use` … `several lines."`: a quoted name may run over lines.
    if (/^\w+\s/.test(text) && (text.match(/"/g)?.length ?? 0) % 2 === 1) {
      let j = i + 1;
      for (; j < lines.length && !lines[j]!.text.includes('"'); j++) text += `\\n${lines[j]!.text}`;
      if (j >= lines.length) throw parseError(line, 'quoted name is never closed with "');
      text += `\\n${lines[j]!.text}`;
      i = j;
    }
    if (text === '}') {
      if (stack.length === 0) throw parseError(line, 'unexpected "}": no open container');
      stack.pop();
      continue;
    }
    const onLink = noteOnLink(lines, i, edges, warnings);
    if (onLink > 0) {
      i += onLink - 1;
      continue;
    }
    const note = readNote(lines, i);
    if (note) {
      i += note.consumed - 1;
      const target = note.target !== undefined ? names.get(note.target) : note.attachedToLast ? lastElement : undefined;
      if (note.target !== undefined && target === undefined) warnings.push(`line ${line.line}: note of unknown element "${note.target}" drawn unattached`);
      const id = uniqueId(note.alias ?? `note-${line.line}`);
      const { node, edge } = noteElements(id, note, target, parent());
      nodes.set(id, node);
      if (note.alias) names.set(note.alias, id);
      if (edge) edges.push(edge);
      continue;
    }

    const written = parseLink(text);
    if (written) {
      // A short link (`A -> B`, `A - B`) sets its target beside its source, as PlantUML does, seen or hidden.
      const link = { ...placedHint(written.long ? written : { ...written, hidden: true }, source.direction), hidden: written.hidden };
      const from = resolve(link.from.name, link.from.form);
      const to = resolve(link.to.name, link.to.form);
      edges.push(linkEdge(`e${edges.length + 1}`, from, to, link));
      // A note with no `of` after links is the last link's target's, as PlantUML attaches it (a note under the
      // logs every namespace sends to Loki: Loki's, not the last component declared, a drawing away).
      lastElement = to;
      continue;
    }

    const macro = MACRO.exec(text);
    // A capitalised name is a library's procedure (C4's `Person(…)`); a lower-case one only when `(` follows at once
    // (`increment()`), since `usecase (Login)` is a keyword and a use case.
    if (macro && (/^[A-Z]/.test(macro[1]!) || (/^[a-z]\w*\(/.test(text) && !(macro[1]!.toLowerCase() in DESCRIPTION_KEYWORDS)))) {
      const [, name, args, opens, closes] = macro as unknown as [string, string, string, string | undefined, string | undefined];
      const { positional, named } = macroArguments(args);
      const [alias, label = alias] = positional;
      const element = C4_ELEMENTS[name];
      if (element && alias) {
        const values: Record<string, string | undefined> = { ...Object.fromEntries(element.params.map((p, k) => [p, positional[k + 2]])), ...named };
        const extra = c4NodeParts(name, element, values);
        // `System_Ext(a, "A") {` … `}`: the macro expands to a rectangle, whose body PlantUML draws inside it; an
        // empty body (`{` then `}`) leaves the element as it is.
        if (opens && !closes && lines[i + 1]?.text !== '}') {
          addGroup(label ?? alias, alias, 'boundary', line, extra.style);
          continue;
        }
        if (opens && !closes) i++;
        c4Macros.set(addNode(label ?? alias, alias, element, extra), name);
        continue;
      }
      if ((C4_NODES.test(name) || C4_BOUNDARIES.test(name)) && alias) {
        const type = named.type ?? (C4_NODES.test(name) ? positional[2] : undefined);
        if (opens) {
          // The type on a line of its own under the name, as C4-PlantUML draws it.
          const title = type ? `${label}\n[${type}]` : label!;
          addGroup(title, alias, C4_NODES.test(name) ? 'node' : 'boundary', line, C4_BOUNDARIES.test(name) ? { strokeStyle: 'dashed' } : CONTAINER_OUTLINE);
          if (closes) stack.pop();
        } else addNode(label!, alias, { kind: 'workload' }, type ? { rows: [`[${type}]`] } : {});
        continue;
      }
      // PlantUML's ArchiMate library (`!include <archimate/Archimate>`): `Business_Actor(alias, "Label")` is an element
      // of its layer, `Rel_Serving(a, b, "label")` a relation of its kind, `Grouping(alias, "Label") {` a group.
      const archimate = ARCHIMATE_ELEMENT.exec(name);
      if (archimate && alias) {
        if (opens) {
          addGroup(label!, alias, 'group', line, { strokeStyle: 'dashed' });
          if (closes) stack.pop();
        } else addNode(label!, alias, { kind: 'generic' }, { rows: [`[${name.replace(/_/g, ' ')}]`] });
        continue;
      }
      const archimateRelation = ARCHIMATE_RELATION.exec(name);
      if (archimateRelation && positional.length >= 2) {
        const [fromName, toName, relLabel] = positional as [string, string, string?];
        const edge: GraphEdge = { id: `e${edges.length + 1}`, from: resolve(fromName, 'name'), to: resolve(toName, 'name'), startArrowhead: 'none', endArrowhead: 'arrow', label: [relLabel, `«${archimateRelation[1]!.toLowerCase()}»`].filter(Boolean).join('\n') };
        if (/^(Access|Influence|Realization|Realisation)$/.test(archimateRelation[1]!)) edge.style = { strokeStyle: 'dashed' };
        const toward = archimateRelation[2] && TOWARD[archimateRelation[2].slice(1).toLowerCase()];
        if (toward) edge.toward = toward;
        edges.push(edge);
        continue;
      }
      const relation = C4_RELATIONS.exec(name);
      if (relation && positional.length >= 2) {
        const [fromName, toName, relLabel, techn] = positional as [string, string, string?, string?];
        const back = relation[2] !== undefined;
        const from = resolve(back ? toName : fromName, 'name');
        const to = resolve(back ? fromName : toName, 'name');
        const edge: GraphEdge = { id: `e${edges.length + 1}`, from, to, startArrowhead: relation[1] ? 'arrow' : 'none', endArrowhead: 'arrow' };
        const relText = [relLabel, (named.techn ?? techn) ? `[${named.techn ?? techn}]` : undefined].filter(Boolean).join('\n');
        if (relText !== '') edge.label = relText;
        // `Rel_Back_U(a, b)` draws b → a; the hint still puts b on that side of a.
        const toward = relation[4] && TOWARD[relation[4].slice(1).toLowerCase()];
        if (toward && !back) edge.toward = toward;
        // `Rel_Neighbor(a, b)` is PlantUML's short link `a ->> b`: b beside a, in a's rank (the web app delivering the
        // single-page app set beside it); `Rel_Back_Neighbor(a, b)`, `a <<- b`, still has a first, b → a drawn back.
        else if (relation[3] && !relation[4]) edge.toward = beside(source.direction, back);
        edges.push(edge);
        continue;
      }
      const layoutHint = C4_LAYOUT_HINTS.exec(name);
      if (layoutHint && positional.length >= 2) {
        // `Lay_R(a, b)`: b to the right of a, an edge laid out and not drawn. `Lay_Distance` only spaces them apart.
        const toward = TOWARD[layoutHint[1]!.toLowerCase()];
        if (toward) edges.push({ id: `e${edges.length + 1}`, from: resolve(positional[0]!, 'name'), to: resolve(positional[1]!, 'name'), toward, hidden: true });
        continue;
      }
      // Procedures of included libraries (tags, sprites, legends) change the look only.
      skippedMacros.set(name, (skippedMacros.get(name) ?? 0) + 1);
      if (opens && !closes) stack.push({ line });
      continue;
    }

    if (/^together\s*\{$/i.test(text)) {
      warnings.push(`line ${line.line}: together (keep these elements close) is left to the automatic layout`);
      stack.push({ line });
      continue;
    }
    const keyword = KEYWORD.exec(text);
    // `cloud {`: a container without a name.
    if (keyword && keyword[2]!.trim() === '{') {
      addGroup('', `${keyword[1]!.toLowerCase()}-${line.line}`, keyword[1]!.toLowerCase(), line, CONTAINER_OUTLINE);
      continue;
    }
    const declared = keyword ? DECLARATION.exec(archimateColorLast(keyword[1]!, keyword[2]!.trim()).replace(STEREOTYPES_BEFORE_ALIAS, '$1 as $3 $2')) : SHORTHAND.exec(text.replace(STEREOTYPES_BEFORE_ALIAS, '$1 as $3 $2'));
    if (declared) {
      const spec: ElementKind = keyword ? DESCRIPTION_KEYWORDS[keyword[1]!.toLowerCase()]! : (FORM_KIND[formOf(declared[1]!)] ?? { kind: 'component' });
      let [, first, second, stereotypes, color, opens, closes] = declared as unknown as (string | undefined)[];
      // `"Long name" as alias` and `alias as "Long name"` are both allowed; an interface's `()` mark is no quote
      // (`() mad_interface as "MAD Interface"` is PURIS's alias first). Between two bare words the name comes
      // first, as PlantUML shows `actor GoogleMaps as gm` as "GoogleMaps".
      const written = first!.replace(/^\(\)\s*/, '');
      const aliasFirst = second !== undefined && !/^["[(:]/.test(written) && /^["[(:]/.test(second);
      const name = bare(aliasFirst ? second : written);
      const alias = second === undefined ? undefined : bare(aliasFirst ? written : second);
      const fill = color ? plantumlColor(color) : undefined;
      if (opens === '{') {
        addGroup(name, alias, keyword?.[1]?.toLowerCase() ?? 'package', line, { ...CONTAINER_OUTLINE, ...(fill && { fillColor: fill }) });
        if (closes) stack.pop();
        continue;
      }
      const extra: Partial<GraphNode> = {};
      const stereotype = stereotypes?.trim();
      if (stereotype) extra.rows = [keyword?.[1]!.toLowerCase() === 'archimate' ? archimateType(stereotype) : stereotype.replace(/\s+/g, ' ').replace(/<<|>>/g, (m) => (m === '<<' ? '«' : '»'))];
      if (fill) extra.style = { fillColor: fill };
      if (opens === '[') {
        // `component C [` … `]`: a multi-line description box.
        const body: string[] = [];
        for (i++; i < lines.length && lines[i]!.text !== ']'; i++) body.push(lines[i]!.text);
        if (i >= lines.length) throw parseError(line, 'description "[" is never closed with "]"');
        extra.rows = [...(extra.rows ?? []), ...body.map(plainText)];
      }
      addNode(name, alias, spec, extra);
      continue;
    }
    throw parseError(line, `expected an element (component, node, database, …), a link (A --> B) or "}", got "${text.slice(0, 60)}"`);
  }
  closeAtEnd(stack, warnings);
  if (nodes.size === 0 && groups.size === 0) {
    const included = source.preprocessorLines > 0 ? ` (its ${source.preprocessorLines} preprocessor lines, !include, !theme and the procedures of included files, are not expanded: included files are not fetched)` : '';
    throw parseError({ line: 1, column: 1 }, `the diagram has no elements${included}`);
  }
  // PlantUML draws a name no keyword declared as an actor once the diagram has use cases (`User1 --> (Story1)`).
  if ([...nodes.values()].some((node) => node.kind === 'usecase')) for (const id of undeclared) nodes.get(id)!.kind = 'actor';
  // And as an interface, a small circle, once it has components (`HTTPS - [Frontend]`, `DataAccess - [First Component]`).
  else if ([...nodes.values()].some((node) => node.kind === 'component' && !undeclared.has(node.id))) {
    for (const id of undeclared) {
      const node = nodes.get(id)!;
      if (node.kind === 'component' && node.shape === undefined) Object.assign(node, DESCRIPTION_KEYWORDS.interface);
    }
  }
  for (const [name, count] of skippedMacros) warnings.push(`skipped ${count} ${name}(…) call${count === 1 ? '' : 's'} (not drawn)`);
  applyVisibility({ nodes, edges, names }, source.visibility, warnings);
  const legend = source.c4Legend ? c4Legend([...c4Macros].filter(([id]) => nodes.has(id)).map(([, macro]) => macro)) : undefined;
  return {
    layout: 'layered',
    direction: source.direction,
    ...(source.forcedDirection && { forcedDirection: true }),
    nodes: [...nodes.values(), ...(legend?.nodes ?? [])],
    edges,
    groups: [...groups.values(), ...(legend ? [legend.group] : [])],
    warnings,
  };
}

/** `archimate #Business "Label" as a`: PlantUML takes the colour before the name; the declaration reads it after. */
function archimateColorLast(keyword: string, rest: string): string {
  const colored = keyword.toLowerCase() === 'archimate' ? /^(#[\w#]+)\s+(.+)$/.exec(rest) : null;
  return colored ? `${colored[2]} ${colored[1]}` : rest;
}

/** `<<business-process>>` → `[Business Process]`, the element type as the ArchiMate library's elements show theirs (PlantUML draws it as the layer's icon). */
function archimateType(stereotype: string): string {
  const type = stereotype.replace(/<<|>>/g, '').trim().split(/[-_\s]+/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  return `[${type}]`;
}

function formOf(token: string): EndForm {
  if (token.startsWith('[')) return 'component';
  if (token.startsWith('()')) return 'interface';
  if (token.startsWith('(')) return 'usecase';
  if (token.startsWith(':')) return 'actor';
  return 'name';
}
