import { dictionary } from '../core/dictionary.js';
/**
 * What each operation costs from a token's per-minute budget (RATE_LIMIT_PER_MINUTE units). Plain calls cost one
 * unit; work that occupies a CPU for longer costs more, so a client cannot multiply its load by choosing the
 * heaviest operations. README's "Rate limit" section is written from this table.
 */
export const OPERATION_COSTS = dictionary({
  call: 1,
  export: 2,
  render: 5,
  fromCode: 5,
  generate: 10,
} as const);

export type Operation = keyof typeof OPERATION_COSTS;

/** What one MCP tool call costs: the tool's operation, or `render` for a `get_diagram` that asks for a preview. */
export function toolCallCost(name: unknown, args: unknown): number {
  const operation = typeof name === 'string' ? TOOL_OPERATIONS[name] : undefined;
  if (operation) return OPERATION_COSTS[operation];
  const preview = name === 'get_diagram' && typeof args === 'object' && args !== null && (args as { preview?: unknown }).preview;
  return preview ? OPERATION_COSTS.render : OPERATION_COSTS.call;
}

/** MCP tools that are heavier than a call; every other tool costs one unit. */
const TOOL_OPERATIONS: Record<string, Operation> = dictionary({
  diagram_from_code: 'fromCode',
  export_to_code: 'export',
  generate_from_prompt: 'generate',
});

/**
 * What one POST to /mcp costs: every JSON-RPC message in it at least one unit (a batch of 100 calls is 100 calls),
 * tool calls at their operation's cost.
 */
export function mcpMessagesCost(messages: readonly unknown[]): number {
  let units = 0;
  for (const message of messages) {
    const { method, params } = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    units += method === 'tools/call' ? toolCallCost(params?.name, params?.arguments) : OPERATION_COSTS.call;
  }
  return units;
}
