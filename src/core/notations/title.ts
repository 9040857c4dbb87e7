/**
 * A diagram's default name from its code: the title the code gives itself (Mermaid front matter `title:`, a
 * `title …` line in Mermaid or PlantUML, a named DOT graph, D2's `title` label), else a heading comment on its first
 * line (`# Shop stack`, `// …`, `-- …`, `%% …`). Only the head of the code is read: a title is said up front.
 */
const HEAD_LINES = 40;
const MAX_LENGTH = 120;
/** Graph names tools write by default say nothing about the diagram. */
const GENERIC_GRAPH_NAMES = new Set(['g', 'graph', 'digraph', 'main', 'untitled']);

export function titleFromCode(code: string): string | undefined {
  const lines = code.split(/\r?\n/, HEAD_LINES);
  const clean = (text: string | undefined) => {
    const value = text?.trim().replace(/^["']|["']$/g, '').trim();
    return value && /\p{L}/u.test(value) ? value.slice(0, MAX_LENGTH) : undefined;
  };
  for (const line of lines) {
    const said =
      /^\s*title\s*:\s*\{\s*label\s*:\s*(.+?)\s*\}?\s*$/i.exec(line)?.[1] ?? // D2 `title: {label: …}`
      /^\s*title\s*:\s*(.+)$/i.exec(line)?.[1] ?? // front matter
      /^\s*title\s+(?!:)(.+)$/i.exec(line)?.[1]; // Mermaid sequence and gantt, PlantUML
    const title = clean(said);
    if (title) return title;
    const graph = /^\s*(?:strict\s+)?(?:di)?graph\s+("[^"]+"|[\p{L}_][\p{L}\p{N}_]*)\s*\{/iu.exec(line)?.[1];
    if (graph && !GENERIC_GRAPH_NAMES.has(graph.replace(/"/g, '').toLowerCase())) return clean(graph);
  }
  const first = lines.find((line) => line.trim() !== '');
  // A heading comment, not a directive: no `=`, `:` or `$` (`# syntax=docker/…`, `# yaml-language-server: $schema=…`).
  const heading = first && /^\s*(?:#+|\/\/|--|%%)\s*([^=:$]+)$/.exec(first)?.[1];
  return clean(heading);
}
