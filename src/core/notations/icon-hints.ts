import type { GraphIR } from '../graph/types.js';
import { guessIcon, type IconVendor, resolveIconRef } from '../icons/index.js';

/**
 * Parsers name what a node is (`iconHint`: an image name, a resource type); this turns each hint into an icon
 * reference when the catalog has a confident match, before layout, so that boxes are sized for the icon they get.
 * A parser's explicit `iconRef` wins when the catalog has it; one it lacks ("aws/NAT Gateway") is read as a hint
 * instead, so a generated scene never carries a reference of ours that does not resolve.
 */
export function resolveIconHints(graph: GraphIR, vendor?: IconVendor): GraphIR {
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      if (node.iconRef !== undefined && resolveIconRef(node.iconRef)) return node;
      const hint = node.iconRef?.slice(node.iconRef.indexOf('/') + 1) ?? node.iconHint;
      const item = hint === undefined ? undefined : guessIcon(hint, vendor);
      const { iconRef: _unresolved, iconFallback, ...rest } = node;
      if (item) return { ...rest, iconRef: `${item.library}/${item.label}` };
      return iconFallback !== undefined && resolveIconRef(iconFallback) ? { ...rest, iconRef: iconFallback } : rest;
    }),
  };
}
