/** The docker-compose notation converter for the registry. */
import type { NotationConverter } from '../../graph/types.js';
import { composeToGraph } from './to-graph.js';

export const composeNotation: NotationConverter = {
  id: 'compose',
  detect(code) {
    // A top-level `services:` key is what makes a Compose file (also on a `---` line); image/build under it makes it near certain.
    if (!/^(?:---[ \t]+)?services:[ \t]*(#.*)?$/m.test(code)) return 0;
    return /^[ \t]+(image|build):/m.test(code) ? 0.95 : 0.8;
  },
  toGraph: composeToGraph,
};
