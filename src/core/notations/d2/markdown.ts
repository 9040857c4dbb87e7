/**
 * D2's Markdown labels (`a: |md ## Title … |`) as the text D2 shows: D2 renders the Markdown, so its syntax (`##`,
 * `**`, `[text](url)`, list dashes, code fences) is never what a reader sees. Headings, emphasis and code keep their
 * words; a list item keeps a bullet; paragraphs stay apart by one blank line.
 */
export function markdownText(markdown: string): string {
  const lines: string[] = [];
  for (const raw of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw) || /^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) continue;
    const line = raw
      .replace(/^\s*#{1,6}\s+(.*?)\s*#*\s*$/, '$1')
      .replace(/^\s*>\s?/, '')
      .replace(/^(\s*)[-*+]\s+/, '$1• ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      // One `*` or `_` around words; an `_` inside an identifier (`snake_case`) is no emphasis.
      .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, '$1$2')
      .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])/g, '$1$2')
      .replace(/`([^`]+)`/g, '$1')
      .replace(/<\/?[a-z][^>]*>/gi, '')
      // A `\` ending a line is Markdown's hard line break: the line ends there.
      .replace(/\\\s*$/, '')
      // Up to 3 spaces before a paragraph's line are not shown (4 would be code); a nested list keeps its indent.
      .replace(/^ {1,3}(?=[^\s•])/, '')
      .trimEnd();
    if (line === '' && (lines.length === 0 || lines.at(-1) === '')) continue;
    lines.push(line);
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
