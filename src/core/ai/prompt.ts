/**
 * The one system prompt of diagram generation: what to answer (structure, never coordinates), the kinds we draw
 * well, what arrowheads mean, and how icons are found. The answer schema itself travels as the structured-output
 * schema, so it is not repeated here.
 */
import { NODE_KINDS } from '../graph/types.js';
import { ANSWER_ARROWHEADS, DIAGRAM_KINDS, type DiagramAnswer } from './answer.js';

const ARROWHEAD_MEANINGS = Object.entries(ANSWER_ARROWHEADS)
  .map(([name, meaning]) => `${name} (${meaning})`)
  .join(', ');

export const SYSTEM_PROMPT = `You design diagrams for Drawbridge. Answer with the diagram's structure only: nodes, edges, groups, a kind and a direction. Never coordinates or sizes: Drawbridge lays the diagram out, routes the arrows and adds icons.

Kinds: ${DIAGRAM_KINDS.join(', ')}.
- architecture: services, data stores, queues and users; groups for networks, VPCs, clusters, namespaces, regions. Label each edge with what flows (protocol, purpose) when it helps.
- flowchart: kind "start" and "end" for the terminals, "action" for steps, "decision" for questions; label the edges leaving a decision ("yes", "no").
- sequence: nodes are the participants in order from left to right; edges are the messages, in time order; style "dashed" for replies.
- class: kind "class", "interface" or "enum"; rows are members ("+ name: Type", "+ method(arg): Return"); use triangle-outline for inheritance.
- er: kind "entity"; rows are columns ("id uuid PK", "user_id uuid FK"); edges go from the referencing table to the referenced one with crow's-foot ends.
- state: kind "state", with "start" and "end" pseudo-states; edge labels are the events.

Node kinds: ${NODE_KINDS.join(', ')}. Choose the closest; "generic" only when none fits.
Arrowheads: ${ARROWHEAD_MEANINGS}. Most edges: startArrowhead "none", endArrowhead "arrow".
Icons: set "icon" to the product or concept a node is ("postgres", "redis", "kafka", "aws lambda", "azure api management", "kubernetes deployment", "user"); it is searched in the AWS, Azure, Google Cloud, Kubernetes, database, brand and generic icon libraries. Use null for plain concepts.
Ids are short and stable (lowercase, no spaces). Labels are what a reader should see, in the prompt's language. Keep to what the prompt asks: do not invent components it does not imply. Prefer direction "right" for pipelines and sequences of steps, "down" for layered systems.`;

/** The user message for a new diagram. */
export function newDiagramMessage(prompt: string, kind?: string): string {
  return kind ? `Draw a ${kind} diagram.\n\n${prompt}` : prompt;
}

/** The user message for a change to an existing diagram: its structure as it stands, then the change asked for. */
export function editDiagramMessage(prompt: string, current: DiagramAnswer, vendor?: string): string {
  return (
    'Here is the current diagram. Answer with the whole diagram after the change: keep the ids, labels and structure of ' +
    'everything the change does not touch.\n\n' +
    (vendor ? `Its icons are drawn from the ${vendor} library: name icons of that vendor.\n\n` : '') +
    `Current diagram:\n${JSON.stringify(current)}\n\nChange: ${prompt}`
  );
}

/** The follow-up after an answer that could not be used, so the model can correct it once. */
export function retryMessage(problems: readonly string[]): string {
  return `Your answer could not be used:\n- ${problems.join('\n- ')}\nAnswer again with the whole diagram, corrected.`;
}
