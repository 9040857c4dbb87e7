/**
 * A state with several self-transitions (an editor engine's Idle state handling TextChanged, CursorMoved, InsertEnter
 * and FileSaved without leaving it) draws them as one loop listing its triggers (graph/parallel-edges.ts), its label
 * clear of the transitions in and out.
 */
import { describe, expect, it } from 'vitest';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { segmentCrossesBox } from '../quality/check.js';
import { layoutGraph } from './elk.js';

// From cursortab.nvim's engine state machine (docs/state-machine.puml, MIT), the Idle and HasCompletion transitions.
const ENGINE = `@startuml
state "Idle" as Idle
state "PendingCompletion" as Pending
state "HasCompletion" as HasCompl
[*] --> Idle
Idle --> Pending           : TextChangeTimeout /\\nTrigger / IdleTimeout\\n[requestCompletion]
Idle --> Idle              : TextChanged\\n[startTextChangeTimer]
Idle --> Idle              : CursorMoved\\n[resetIdleTimer]
Idle --> Idle              : InsertEnter / InsertLeave\\n[start/stopIdleTimer]
Idle --> Idle              : FileSaved\\n[clearDiffHistory]
Pending --> HasCompl       : CompletionReady\\n(non-streaming, has lines)
Pending --> Idle           : CompletionError
HasCompl --> Idle          : Accept\\n[applyEdits]
HasCompl --> HasCompl      : PartialAccept\\n[advance stage]
HasCompl --> HasCompl      : TextChanged\\n(typing matches)
@enduml`;

describe('self-loops', () => {
  it('draws a state\'s self-transitions as one loop listing their triggers in the order written', async () => {
    // Four loops on Idle, each on its own side, were four labels around one state; one loop reads as its list.
    const graph = await plantumlNotation.toGraph(ENGINE);
    const laid = await layoutGraph(graph);
    const loops = laid.edges.filter((edge) => graph.edges[edge.index]!.from === graph.edges[edge.index]!.to);
    expect(loops.map((loop) => graph.edges[loop.index]!.from)).toEqual(['Idle', 'HasCompl']);
    const idle = graph.edges[loops[0]!.index]!.label!;
    const at = ['TextChanged', 'CursorMoved', 'InsertEnter / InsertLeave', 'FileSaved'].map((trigger) => idle.indexOf(trigger));
    expect(at.every((index, i) => index >= 0 && (i === 0 || index > at[i - 1]!))).toBe(true);
  });

  it('keeps the self-loops on the sides the transitions in and out leave free', async () => {
    const graph = await plantumlNotation.toGraph(ENGINE);
    const laid = await layoutGraph(graph);
    const isLoop = (index: number) => graph.edges[index]!.from === graph.edges[index]!.to;
    const labels = laid.edges.filter((edge) => isLoop(edge.index)).flatMap((edge) => edge.labels);
    const crossed = laid.edges
      .filter((edge) => !isLoop(edge.index))
      .flatMap((edge) => labels.filter((label) => edge.points.slice(1).some((to, i) => segmentCrossesBox(edge.points[i]!, to, label))).map((label) => `${graph.edges[edge.index]!.from} → ${graph.edges[edge.index]!.to} × ${label.text}`));
    expect(crossed).toEqual([]);
  });

  it('draws an unlabelled self-loop as a loop standing clear of its state, not a hook the size of its arrowhead (EDC data plane FAILED)', async () => {
    const graph = await plantumlNotation.toGraph('@startuml\nstate "STARTED" as started\nstate "FAILED" as failed\nstarted --> failed\nfailed -[dashed]-> failed\nfailed --> [*]\n@enduml');
    const laid = await layoutGraph(graph);
    const loop = laid.edges.find((edge) => graph.edges[edge.index]!.from === 'failed' && graph.edges[edge.index]!.to === 'failed')!;
    const node = laid.nodes.find((n) => n.id === 'failed')!;
    // How far the loop reaches beyond the state's outline on its side.
    const reach = Math.max(...loop.points.map((p) => Math.max(node.x - p.x, p.x - (node.x + node.width), node.y - p.y, p.y - (node.y + node.height))));
    expect(reach).toBeGreaterThanOrEqual(20);
  });
});
