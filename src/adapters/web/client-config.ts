/**
 * The ready-made configuration blocks the developer page hands out with a new token, filled with that token and
 * this server's PUBLIC_URL. The shapes follow the README's MCP section (the same JSON, so one is checked by the other).
 */
export interface ConfigBlock {
  id: string;
  title: string;
  /** Where the block goes, in a sentence. */
  hint: string;
  text: string;
}

/** Inside single quotes for a POSIX shell: a quote becomes '\''. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function clientConfigBlocks(publicUrl: string, token: string): ConfigBlock[] {
  const mcpUrl = `${publicUrl}/mcp`;
  const authorization = `Bearer ${token}`;
  return [
    {
      id: 'remote-http',
      title: 'MCP client with remote HTTP servers',
      hint: 'mcp.json, claude_desktop_config.json or any client that takes a URL and headers.',
      text: JSON.stringify({ mcpServers: { drawbridge: { type: 'http', url: mcpUrl, headers: { Authorization: authorization } } } }, null, 2),
    },
    {
      id: 'mcp-remote',
      title: 'MCP client with local servers only (mcp-remote bridge)',
      hint: 'For clients that only start commands. No space after "Authorization:": some clients split arguments on spaces.',
      text: JSON.stringify(
        {
          mcpServers: {
            drawbridge: {
              command: 'npx',
              args: ['-y', 'mcp-remote', mcpUrl, '--transport', 'http-only', '--header', 'Authorization:Bearer ${DRAWBRIDGE_TOKEN}'],
              env: { DRAWBRIDGE_TOKEN: token },
            },
          },
        },
        null,
        2,
      ),
    },
    {
      id: 'claude-code',
      title: 'Claude Code',
      hint: 'Run once in a terminal.',
      text: `claude mcp add --transport http drawbridge ${mcpUrl} --header "Authorization: ${authorization}"`,
    },
    {
      id: 'vscode',
      title: 'VS Code',
      hint: 'Run once in a terminal; VS Code adds the server to your user settings.',
      text: `code --add-mcp ${shellQuote(JSON.stringify({ name: 'drawbridge', type: 'http', url: mcpUrl, headers: { Authorization: authorization } }))}`,
    },
    {
      id: 'curl',
      title: 'curl (REST API)',
      hint: 'Lists the workspaces the token sees.',
      text: `curl -s ${publicUrl}/api-v1/workspaces -H "Authorization: ${authorization}"`,
    },
  ];
}
