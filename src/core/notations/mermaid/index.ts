/**
 * Mermaid → GraphIR through Mermaid's own parsers (parser.ts): flowcharts, sequence, class, ER and state diagrams,
 * mind maps, C4, architecture, requirement and block diagrams, and the charts (gitGraph, gantt, timeline, pie, journey, quadrantChart, xychart, kanban, sankey, packet, treemap, radar).
 * Mermaid's layout and renderer are not used: ours lay the graph out and draw it, with our shapes and arrowheads; a
 * chart is drawn in its family's fixed layout (scene/charts).
 */
import type { GraphIR, NotationConverter } from '../../graph/types.js';
import { architectureToGraph, type ArchitectureDb } from './architecture.js';
import { blockToGraph, type BlockDb } from './block.js';
import { c4ToGraph, type C4Db } from './c4.js';
import { classToGraph, type ClassDb } from './class.js';
import { erToGraph, type ErDb } from './er.js';
import { flowchartToGraph, type FlowDb } from './flowchart.js';
import { journeyToGraph, type JourneyDb } from './journey.js';
import { kanbanToGraph, type KanbanDb } from './kanban.js';
import { mindmapToGraph, type MindmapDb } from './mindmap.js';
import { ganttToGraph, type GanttDb } from './gantt.js';
import { gitGraphToGraph, type GitGraphDb } from './git-graph.js';
import { frontMatterTitle, readMermaid } from './parser.js';
import { packetToGraph, type PacketDb } from './packet.js';
import { pieToGraph, type PieDb } from './pie.js';
import { quadrantToGraph, type QuadrantDb } from './quadrant.js';
import { radarToGraph, type RadarDb } from './radar.js';
import { requirementToGraph, type RequirementDb } from './requirement.js';
import { sankeyToGraph, type SankeyDb } from './sankey.js';
import { sequenceToGraph, takeBoxes, type SequenceDb } from './sequence.js';
import { stateToGraph, type StateDb } from './state.js';
import { timelineToGraph, type TimelineDb } from './timeline.js';
import { treemapToGraph, type TreemapDb } from './treemap.js';
import { actorDeclarations, themeDeclarations } from './theme.js';
import { cssStyle } from './style.js';
import { xyToGraph, type XyDb } from './xychart.js';

/**
 * The first statement names the diagram: after the optional front matter, `%%` comments and `%%{init}%%` directives,
 * which Mermaid reads over several lines too (the KMS v2 KEP's theme runs over five).
 */
const HEADER = /^(?:\s*---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n)?(?:\s*(?:%%\{[\s\S]*?\}%%|%%)[^\n]*\n)*\s*([A-Za-z][\w-]*)/;
const READ = new Set([
  ...['graph', 'flowchart', 'flowchart-elk', 'sequenceDiagram', 'classDiagram', 'classDiagram-v2', 'erDiagram', 'stateDiagram', 'stateDiagram-v2', 'mindmap'],
  ...['C4Context', 'C4Container', 'C4Component', 'C4Dynamic', 'C4Deployment', 'architecture-beta', 'requirementDiagram', 'block-beta', 'block'],
  ...['gitGraph', 'gantt', 'timeline', 'pie', 'journey', 'quadrantChart', 'xychart-beta', 'xychart', 'kanban', 'sankey-beta', 'sankey', 'packet-beta', 'packet', 'treemap-beta', 'treemap', 'radar-beta'],
]);
/** A direction the author wrote: in the header (`flowchart LR`) or as a `direction` statement (class, state, ER). */
const WRITTEN_DIRECTION = /^\s*(?:graph|flowchart(?:-elk)?|direction)[ \t]+(?:TB|TD|BT|LR|RL)\b/m;
/** Mermaid diagram types we refuse with a reason rather than leave undetected. */
const OTHERS = new Set(['zenuml']);

/** The graph each Mermaid diagram type's database is read into, by Mermaid's type name; others are flowcharts. */
const READERS: Partial<Record<string, (db: unknown, code: string) => GraphIR>> = {
  class: (db) => classToGraph(db as ClassDb),
  er: (db) => erToGraph(db as ErDb),
  state: (db) => stateToGraph(db as StateDb),
  mindmap: (db) => mindmapToGraph(db as MindmapDb),
  c4: (db) => c4ToGraph(db as C4Db),
  architecture: (db) => architectureToGraph(db as ArchitectureDb),
  requirement: (db) => requirementToGraph(db as RequirementDb),
  block: (db, code) => blockToGraph(db as BlockDb, code),
  gitGraph: (db, code) => gitGraphToGraph(db as GitGraphDb, code),
  gantt: (db, code) => ganttToGraph(db as GanttDb, code),
  timeline: (db) => timelineToGraph(db as TimelineDb),
  pie: (db) => pieToGraph(db as PieDb),
  journey: (db) => journeyToGraph(db as JourneyDb),
  quadrant: (db) => quadrantToGraph(db as QuadrantDb),
  xy: (db) => xyToGraph(db as XyDb),
  kanban: (db) => kanbanToGraph(db as KanbanDb),
  sankey: (db) => sankeyToGraph(db as SankeyDb),
  packet: (db) => packetToGraph(db as PacketDb),
  treemap: (db) => treemapToGraph(db as TreemapDb),
  radar: (db) => radarToGraph(db as RadarDb),
};

/** A config that turns off the participants drawn again under a sequence's lifelines (`%%{init: {"sequence": {"mirrorActors": false}}}%%`, front matter). */
const MIRROR_OFF = /mirrorActors['"]?\s*:\s*false/;

export const mermaidNotation: NotationConverter<Promise<GraphIR>> = {
  id: 'mermaid',
  detect(code) {
    const word = HEADER.exec(code.slice(0, 20_000))?.[1];
    if (word === undefined) return 0;
    return READ.has(word) ? 0.95 : OTHERS.has(word) ? 0.9 : 0;
  },
  async toGraph(code) {
    const sequence = HEADER.exec(code.slice(0, 20_000))?.[1] === 'sequenceDiagram' ? takeBoxes(code) : undefined;
    const graph = await readMermaid(sequence?.code ?? code, ({ type, db }) => {
      if (type === 'sequence') return sequenceToGraph(db as SequenceDb, sequence?.boxes, cssStyle(actorDeclarations(code)), !MIRROR_OFF.test(code));
      const read = READERS[type];
      if (read !== undefined) return read(db, code);
      return flowchartToGraph(db as FlowDb, themeDeclarations(code));
    });
    const title = frontMatterTitle(code);
    // Mermaid (dagre) keeps siblings in the order written where no crossing is saved by swapping them; ELK's own
    // order reversed them (three states written first to last were drawn last to first).
    const ordered = graph.layout === 'layered' && { inSourceOrder: true };
    return { ...graph, ...ordered, ...(WRITTEN_DIRECTION.test(code) && { forcedDirection: true }), ...(title !== undefined && { title }) };
  },
};
