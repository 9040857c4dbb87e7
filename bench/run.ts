/** `npm run bench`: every speed goal of the issues, each measured against a baseline in the same run where the goal is relative. */
import { benchEditor, printEditor } from './editor.js';
import { benchEngines, printEngines } from './engines.js';
import { benchFromCode, printFromCode } from './from-code.js';
import { benchGenerate, printGenerate } from './generate.js';
import { benchHistory, printHistory } from './history.js';
import { benchIconSearch, printIconSearch } from './icons.js';
import { benchIsolation, printIsolation } from './isolation.js';
import { benchMemory, printMemory } from './memory.js';
import { benchOperations, printOperations } from './operations.js';
import { benchLayoutScale, LAYOUT_SCALE_HEADING, printLayoutScale } from './layout-scale.js';
import { benchRender, printRender } from './render.js';
import { benchRestRead } from './rest.js';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const rest = await benchRestRead();
console.log('REST GET /api-v1/documents/:id (50 elements, SQLite) vs bare Fastify route, same JSON');
console.log(`  drawbridge: ${fmt(rest.real.requestsPerSecond)} req/s (p99 ${rest.real.p99Ms} ms, non-2xx ${rest.real.non2xx})`);
console.log(`  bare:       ${fmt(rest.bare.requestsPerSecond)} req/s (p99 ${rest.bare.p99Ms} ms)`);
console.log(`  ratio:      ${rest.ratio.toFixed(2)} (goal ≥ 0.70) ${rest.ratio >= 0.7 ? 'OK' : 'BELOW GOAL'}`);
console.log('MCP tools/call get_diagram vs REST GET /api-v1/documents/:id, same document');
console.log(`  mcp:        ${fmt(rest.mcp.requestsPerSecond)} req/s (p99 ${rest.mcp.p99Ms} ms, non-2xx ${rest.mcp.non2xx})`);
console.log(`  ratio:      ${rest.mcpRatio.toFixed(2)} of REST (goal ≥ 0.50) ${rest.mcpRatio >= 0.5 ? 'OK' : 'BELOW GOAL'}`);
console.log(`  mcp ping:   ${fmt(rest.mcpPing.requestsPerSecond)} req/s = ${rest.mcpPingRatio.toFixed(2)} of REST: the SDK's per-request floor, no payload`);

printIconSearch(benchIconSearch());
printHistory(benchHistory());
printOperations(await benchOperations());
printFromCode(await benchFromCode());
console.log(LAYOUT_SCALE_HEADING);
await benchLayoutScale((row) => printLayoutScale([row]));
printEngines(await benchEngines());
printRender(await benchRender());
printGenerate(await benchGenerate());
printIsolation(await benchIsolation());
printEditor(await benchEditor());
// `--memory-after SECONDS` shortens the wait before the "after" figure (the README's is the full minute).
const after = process.argv.indexOf('--memory-after');
printMemory(await benchMemory({ afterSeconds: after > 0 ? Number(process.argv[after + 1]) : 60 }));
