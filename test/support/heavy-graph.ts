/**
 * A DOT graph whose layout with Graphviz's defaults takes minutes and hundreds of MB at 300 nodes: each node's two edges
 * point to pseudo-random others, so cycles abound and edges span hundreds of ranks. What an attacker would send, within
 * the graph limits.
 */
export const heavyGraph = (nodes: number) =>
  `digraph { ${Array.from({ length: nodes }, (_, i) => `n${i} -> n${(i * 7 + 1) % nodes}; n${i} -> n${(i * 13 + 5) % nodes};`).join(' ')} }`;
