/**
 * Names every plain JavaScript object already answers to. Typed as a label, a service, a shape or an icon query,
 * they once reached a lookup table's built-ins (`constructor` is a function, `__proto__` an object) and gave 500s.
 */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'prototype'] as const;

/** One input per notation (and per kind of diagram within it) with `N` wherever a user's name goes: node, kind, shape, colour, arrow, keyword. */
export const NOTATION_SAMPLES: Record<string, string[]> = {
  compose: [`services:\n  N:\n    image: N\n    depends_on: [db]\n    networks: [N]\n    volumes: ["N:/data"]\n    labels: {N: N}\n  db:\n    image: N\n    depends_on:\n      N:\n        condition: N\nnetworks:\n  N: {}\nvolumes:\n  N: {}\n`],
  kubernetes: [
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: N\n  namespace: N\n  labels: {app: N}\nspec:\n  selector: {matchLabels: {app: N}}\n  template:\n    metadata: {labels: {app: N, N: N}}\n    spec:\n      containers: [{name: N, image: N}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: N}\nspec:\n  type: N\n  selector: {app: N, N: N}\n  ports: [{port: 80}]\n---\napiVersion: v1\nkind: N\nmetadata: {name: N}\n`,
  ],
  dot: [`digraph N { N [label="N" shape=N color=N style=N]; N -> b [color=N, arrowhead=N, style=N]; subgraph cluster_N { label="N"; b } }`],
  plantuml: [
    `@startuml\nactor N\ncomponent N as N2 <<N>>\nN --> N2 : N\nnode N3 [\nN\n]\n@enduml`,
    `@startuml\nparticipant N\nN -> N : N\n@enduml`,
    `@startuml\nclass N {\n  +N : N\n}\nN <|-- B\n@enduml`,
    `@startuml\nstate N <<N>>\n[*] --> N\n@enduml`,
    `@startuml\n:N;\nif (N) then (N)\n:N;\nendif\n@enduml`,
    `@startuml\nN N\n@enduml`,
    `@startuml\n!theme N\nskinparam N N\nrectangle N #N\nSystem(N, "N", $techn="N")\n@enduml`,
  ],
  terraform: [`resource "N" "N" {\n  name = "N"\n}\nresource "aws_instance" "web" {\n  depends_on = [N.N]\n}\nmodule "N" {\n  source = "N"\n}\ndata "N" "N" {}\n`],
  helm: [`N:\n  enabled: true\n  image: {repository: N, tag: N}\n  service: {type: N, port: 80}\n  ingress: {enabled: true, hosts: [N]}\n`],
  sql: ['CREATE TABLE N (N int primary key, b int references N(N));', 'CREATE TABLE "N" ("N" N primary key);'],
  mermaid: [
    `flowchart LR\n  N[N] --> B\n  N -->|N| B\n  classDef N fill:#f00\n  class B N\n  style N fill:N\n  subgraph N\n  end`,
    `sequenceDiagram\n  participant N\n  N->>N: N`,
    `classDiagram\n  class N {\n    +N N\n  }\n  N <|-- B`,
    `erDiagram\n  N ||--o{ B : N\n  N {\n    N N PK\n  }`,
    `stateDiagram-v2\n  [*] --> N\n  N --> [*]`,
    `graph N\n  a-->b`,
  ],
  d2: [`N: N {shape: N}\nN -> b: N {style.stroke: N}\nb.icon: N\nN.style.fill: N\nc: {shape: N}`, `direction: N\nN.N -> N`],
};

export const withName = (sample: string, name: string) => sample.replaceAll('N', name);
