/**
 * PlantUML links (`A "1" *-[#red]up-> "many" B : label`) shared by component, deployment, use case, class and state
 * diagrams: the two ends, the heads at each end, the line style and the labels.
 */
import type { Arrowhead, Direction, GraphEdge } from '../../graph/types.js';
import { plainText, plantumlColor, unquote } from './source.js';
import { dictionary } from '../../dictionary.js';

/** How an end was written: `[Comp]`, `(Use case)`, `:Actor:`, `() Interface`, `[*]` or a plain name. */
export type EndForm = 'component' | 'usecase' | 'actor' | 'interface' | 'pseudo' | 'name';

export interface LinkEnd {
  /** The name the end refers to (alias or display name, without the brackets). */
  name: string;
  form: EndForm;
}

export interface Link {
  from: LinkEnd;
  to: LinkEnd;
  startArrowhead: Arrowhead;
  endArrowhead: Arrowhead;
  dashed: boolean;
  /** `-[hidden]-` links only steer PlantUML's layout. */
  hidden: boolean;
  /** Two strokes or more (`-->`): PlantUML puts the target a rank further along the flow; one (`->`) may keep it beside. */
  long: boolean;
  /** A direction word in the arrow (`-up->`, `-l->`, `.right.>`): the side of the source the target goes on. */
  toward?: Direction;
  strokeColor?: string;
  label?: string;
  startLabel?: string;
  endLabel?: string;
}

/** Type parameters after a class name (`Promise<T>`, `Map<K, List<V>>`, `Observable‹T›`): identifier characters only, so
 * an arrow head (`<|--`) is never read as one. */
const GENERIC = String.raw`(?:<[\w\s,.?$]*(?:<[\w\s,.?$]*>[\w\s,.?$]*)*>|‹[\w\s,.?$<>]*[›>])`;
const END = String.raw`\[\*\]|\[[^\]]+\]|\(\)\s*"[^"]+"|\(\)\s*[\w.$]+|\([^)]+\)|:[^:]+:|"[^"]+"|[\w.$]+(?:::[\w$]+)?${GENERIC}?`;
const HEAD_LEFT = String.raw`(?:<\|?|<<|\^|\*|o\{|o\||\|o|\}o|\}\||\|\{|\|\||\}|\{|o|\+|#|x|0\)|0|\(\)|\(|\))?`;
const HEAD_RIGHT = String.raw`(?:\|?>|>>|\^|\*|\}o|\|o|o\||o\{|\|\{|\}\||\|\||\{|\}|o|\+|#|x|\(0|0|\(\)|\(|\))?`;
/** A ball-and-socket mark in the middle of a line (`IrsApiConsumer -r(0- IRS`): a required interface met by a provided one. */
const SOCKET = String.raw`\(0\)|\(0|0\)|\(\)`;
const BODY = String.raw`(?:[-.=~]|\[[^\]]*\]|left|right|up|down|le|ri|do|l|r|u|d|(?:${SOCKET})(?=[-.]))+`;
const LINK = new RegExp(
  String.raw`^(${END})\s*(?:"([^"]*)"\s*)?(${HEAD_LEFT})(${BODY})(${HEAD_RIGHT})\s*(?:"([^"]*)"\s*)?(${END})\s*(?::\s*(.*))?$`,
);

/** The direction words of a link's body, whole or cut short, and the side they put the target on. */
export const TOWARD: Record<string, Direction> = dictionary({ left: 'LEFT', le: 'LEFT', l: 'LEFT', right: 'RIGHT', ri: 'RIGHT', r: 'RIGHT', up: 'UP', u: 'UP', down: 'DOWN', do: 'DOWN', d: 'DOWN' });

const HEADS: Record<string, Arrowhead> = dictionary({
  '': 'none',
  '<': 'arrow',
  '>': 'arrow',
  '<<': 'arrow',
  '>>': 'arrow',
  '<|': 'triangle-outline',
  '|>': 'triangle-outline',
  '^': 'triangle-outline',
  '*': 'diamond',
  o: 'diamond-outline',
  // PlantUML's crossed circle (nested class) and socket/ball heads have no twin; the nearest marks.
  '+': 'circle',
  '0': 'circle',
  '0)': 'circle',
  '(0': 'circle',
  '()': 'circle',
  '(': 'circle',
  ')': 'circle',
  '#': 'bar',
  x: 'bar',
  // Information-engineering heads of class/ER links.
  '}': 'crows-foot',
  '{': 'crows-foot',
  '||': 'double-bar',
  '|o': 'circle-bar',
  'o|': 'circle-bar',
  '}o': 'circle-crows-foot',
  'o{': 'circle-crows-foot',
  '}|': 'crows-foot-bar',
  '|{': 'crows-foot-bar',
});

function linkEnd(token: string): LinkEnd {
  if (token === '[*]') return { name: '[*]', form: 'pseudo' };
  if (/^\[.*\]$/.test(token)) return { name: token.slice(1, -1).trim(), form: 'component' };
  if (/^\(\)/.test(token)) return { name: unquote(token.slice(2).trim()), form: 'interface' };
  if (/^\(.*\)$/.test(token)) return { name: token.slice(1, -1).trim(), form: 'usecase' };
  if (/^:.*:$/.test(token)) return { name: token.slice(1, -1).trim(), form: 'actor' };
  return { name: unquote(token), form: 'name' };
}

/** Reads one link line, or undefined when the line is no link. */
export function parseLink(text: string): Link | undefined {
  const match = LINK.exec(text);
  if (!match) return undefined;
  const [, left, startLabel, headLeft, body, headRight, endLabel, right, label] = match as unknown as string[];
  if (!/[-.=~]/.test(body!) || !(headLeft! in HEADS) || !(headRight! in HEADS)) return undefined;
  const options = [...body!.matchAll(/\[([^\]]*)\]/g)].flatMap((m) => m[1]!.split(/[,;]/).map((o) => o.trim()));
  const socket = new RegExp(SOCKET).test(body!.replace(/\[[^\]]*\]/g, ''));
  const plainBody = body!.replace(/\[[^\]]*\]/g, '').replace(new RegExp(SOCKET, 'g'), '');
  const color = options.map((o) => (o.startsWith('#') ? plantumlColor(o) : undefined)).find((c) => c !== undefined);
  const link: Link = {
    from: linkEnd(left!),
    to: linkEnd(right!),
    startArrowhead: HEADS[headLeft!]!,
    // The socket has no mark of its own in the middle of a line; it is drawn at the providing end.
    endArrowhead: socket && headRight === '' ? 'circle' : HEADS[headRight!]!,
    dashed: plainBody.includes('.') || options.includes('dashed') || options.includes('dotted'),
    hidden: options.includes('hidden'),
    long: plainBody.replace(/[^-.=~]/g, '').length > 1,
  };
  const toward = TOWARD[plainBody.replace(/[-.=~]/g, '').toLowerCase()];
  if (toward) link.toward = toward;
  if (color) link.strokeColor = color;
  // A label in quotes (`A --> B : "uses"`) shows without them, as PlantUML's own link labels do.
  if (label?.trim()) link.label = plainText(unquote(label.replace(/^[<>]\s+|\s+[<>]$/g, '').trim()));
  if (startLabel) link.startLabel = plainText(startLabel);
  if (endLabel) link.endLabel = plainText(endLabel);
  return link;
}

/**
 * A hidden link places its target even without a direction word (`A -[hidden]-> B`, EDC's state machines line up each
 * column so): PlantUML hands it to Graphviz as an invisible edge, a long one a rank further along the flow, a short one
 * beside its source. It gets that side, so it is laid out as PlantUML lays it out, by Graphviz, and not drawn.
 */
export function placedHint(link: Link, flow: Direction): Link {
  if (!link.hidden || link.toward) return link;
  return { ...link, toward: link.long ? flow : beside(flow) };
}

/**
 * Where a short link (one stroke) sets its target from its source: the next place in the same rank, or the one before
 * where the link is written from its target (`a <- b`).
 */
export const beside = (flow: Direction, before = false): Direction => {
  const sideways = flow === 'RIGHT' || flow === 'LEFT';
  return sideways ? (before ? 'UP' : 'DOWN') : before ? 'LEFT' : 'RIGHT';
};

/** The GraphIR edge of a link between two resolved node ids. */
export function linkEdge(id: string, from: string, to: string, link: Link): GraphEdge {
  const edge: GraphEdge = { id, from, to, startArrowhead: link.startArrowhead, endArrowhead: link.endArrowhead };
  if (link.label) edge.label = link.label;
  if (link.startLabel) edge.startLabel = link.startLabel;
  if (link.endLabel) edge.endLabel = link.endLabel;
  if (link.toward) edge.toward = link.toward;
  if (link.hidden) edge.hidden = true;
  if (link.dashed || link.strokeColor) {
    edge.style = {};
    if (link.dashed) edge.style.strokeStyle = 'dashed';
    if (link.strokeColor) edge.style.strokeColor = link.strokeColor;
  }
  return edge;
}
