import type { GraphIR } from '../graph/types.js';
import { guessIcon, type IconVendor } from '../icons/index.js';

/**
 * Parsers name what a node is (`iconHint`: an image name, a resource type); this turns each hint into an icon
 * reference when the catalog has a confident match, before layout, so that boxes are sized for the icon they get.
 * An explicit `iconRef` from the parser always wins.
 */
export function resolveIconHints(graph: GraphIR, vendor?: IconVendor): GraphIR {
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      if (node.iconRef !== undefined || node.iconHint === undefined) return node;
      const item = guessIcon(node.iconHint, vendor);
      return item ? { ...node, iconRef: `${item.library}/${item.label}` } : node;
    }),
  };
}
