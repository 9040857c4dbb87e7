import { describe, expect, it } from 'vitest';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { stackedRanks } from './stacked-ranks.js';

describe('stackedRanks', () => {
  it('breaks a cycle through containers where the author\'s flow starts, not at a node written after them (a CrewAI flowchart)', async () => {
    // The output node F, outside every subgraph, closes a cycle of units: User Interaction → Analysis Crew → F → User
    // Interaction. Taken in the order items were collected (nodes outside subgraphs first), F was stacked first, over
    // the subgraph whose first node starts the flow.
    const graph = await mermaidNotation.toGraph(
      [
        'graph TD',
        '  subgraph User Interaction',
        '    A[User runs main.py] --> B{Crew Kick-off}',
        '    G[User Approves] --> H{Booking Crew}',
        '  end',
        '  subgraph Analysis Crew',
        '    B --> C[Email Reader] --> D[Event Analyst] --> E[Scheduling Assistant]',
        '  end',
        '  subgraph Booking',
        '    H --> I[Event Booker]',
        '  end',
        '  E --> F[Proposed Slots]',
        '  F --> G',
        '  I --> J[Event Created]',
      ].join('\n'),
    );
    const { ranks } = stackedRanks(graph, 'DOWN')!;
    const rank = (id: string) => ranks.get(id)!;
    expect(rank('A')).toBe(0);
    expect(rank('F')).toBeGreaterThan(rank('E'));
    expect(rank('J')).toBeGreaterThan(rank('I'));
  });

  it('ranks a class nothing leads into right before what it leads to, not in the first row (an abstract factory)', async () => {
    // In the shape of java-design-patterns' abstract factory: the app holds the army, the elves' and orcs' armies
    // realise it. Ranked with the part's first, the two armies sat in the top row, their arrows running down past the
    // app to the interface; Graphviz and PlantUML set them in the row above it.
    const graph = await plantumlNotation.toGraph(
      [
        '@startuml',
        'package kingdom {',
        'class KingdomType', 'class FactoryMaker', 'class App', 'interface Army', 'class ElfArmy', 'class OrcArmy',
        'interface KingdomFactory', 'class ElfKingdomFactory',
        '}',
        'KingdomType ..+ FactoryMaker',
        'FactoryMaker ..+ App',
        'App -->  "-army" Army',
        'ElfArmy ..|> Army',
        'OrcArmy ..|> Army',
        'ElfKingdomFactory ..|> KingdomFactory',
        '@enduml',
      ].join('\n'),
    );
    const { ranks } = stackedRanks(graph, 'DOWN')!;
    const rank = (id: string) => ranks.get(id)!;
    expect(rank('Army')).toBeGreaterThan(rank('App'));
    expect(rank('ElfArmy')).toBe(rank('Army') - 1);
    expect(rank('OrcArmy')).toBe(rank('Army') - 1);
  });
});
