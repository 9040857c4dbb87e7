/**
 * Mermaid `requirementDiagram` → GraphIR: requirements and elements as boxes with their fields as rows (as Mermaid
 * draws them: «type» over the name, then id, text, risk, verification; an element's type and document), relations as
 * dashed arrows labelled «satisfies», «traces»…; `contains` drawn with its circle at the container's end.
 */
import type { GraphEdge, GraphIR, GraphNode } from '../../graph/types.js';
import { MERMAID_DIRECTIONS } from './flowchart.js';
import { decodeMermaid } from './parser.js';
import { cssStyle } from './style.js';

interface Requirement {
  name: string;
  type: string;
  requirementId?: string;
  text?: string;
  risk?: string;
  verifyMethod?: string;
  cssStyles?: string[];
  classes?: string[];
}
interface Element {
  name: string;
  type?: string;
  docRef?: string;
  cssStyles?: string[];
  classes?: string[];
}
export interface RequirementDb {
  getRequirements(): Map<string, Requirement>;
  getElements(): Map<string, Element>;
  getRelationships(): { type: string; src: string; dst: string }[];
  getClasses?(): Map<string, { styles?: string[] }>;
  getDirection?(): string | undefined;
}

/** Rows of the fields the author gave, as Mermaid labels them. */
const fields = (pairs: [string, string | undefined][]): string[] => pairs.filter(([, value]) => value !== undefined && value !== '').map(([name, value]) => `${name}: ${decodeMermaid(value!)}`);

export function requirementToGraph(db: RequirementDb): GraphIR {
  const classes = db.getClasses?.();
  const styled = (node: GraphNode, item: { cssStyles?: string[]; classes?: string[] }): GraphNode => {
    const style = cssStyle([...(item.classes ?? []).flatMap((name) => classes?.get(name)?.styles ?? []), ...(item.cssStyles ?? [])]);
    return style === undefined ? node : { ...node, style };
  };
  const nodes: GraphNode[] = [
    ...[...db.getRequirements().values()].map((requirement) =>
      styled(
        {
          id: requirement.name,
          label: decodeMermaid(requirement.name),
          kind: 'class',
          rows: [`«${requirement.type}»`, ...fields([['ID', requirement.requirementId], ['Text', requirement.text], ['Risk', requirement.risk], ['Verification', requirement.verifyMethod]])],
        },
        requirement,
      ),
    ),
    ...[...db.getElements().values()].map((element) =>
      styled({ id: element.name, label: decodeMermaid(element.name), kind: 'class', rows: ['«Element»', ...fields([['Type', element.type], ['Doc Ref', element.docRef]])] }, element),
    ),
  ];
  const edges: GraphEdge[] = db.getRelationships().map((relation, index) => {
    const contains = relation.type === 'contains';
    return { id: `e${index + 1}`, from: relation.src, to: relation.dst, label: `«${relation.type}»`, startArrowhead: contains ? 'circle' : 'none', endArrowhead: contains ? 'none' : 'arrow', style: { strokeStyle: 'dashed' } };
  });
  return { layout: 'layered', direction: MERMAID_DIRECTIONS[db.getDirection?.() ?? 'TB'] ?? 'DOWN', nodes, edges, groups: [], warnings: [] };
}
