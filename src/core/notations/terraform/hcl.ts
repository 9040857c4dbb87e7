import { parse as parseWithDiagnostics } from '@cdktf/hcl2json';
import hcl from 'hcl2-parser';
import { AppError } from '../../errors.js';

/**
 * HCL through HashiCorp's own parser (hcl2-parser: hashicorp/hcl v2 and tmccombs/hcl2json compiled to JS with
 * GopherJS, synchronous, no binary). It yields hcl2json's JSON: blocks as nested objects, every expression as a
 * `${…}` string. Its error comes back empty (GopherJS drops the Go diagnostics), so the position is recovered here.
 */
export function parseHcl(code: string): Record<string, unknown> {
  const [result, error] = hcl.parseToObject(code) as [Record<string, unknown> | null, unknown];
  if (!error && result) return result;
  throw locateError(code);
}

interface TopBlock {
  text: string;
  line: number;
  header: string;
}

/**
 * The parser is run again on each top-level block alone; the first block that fails is where the error is. Only
 * its first line can be named, since the parser gives no finer position.
 */
function locateError(code: string): AppError {
  const { blocks, unbalancedAt } = topLevelBlocks(code);
  for (const block of blocks) {
    const [, error] = hcl.parseToObject(block.text) as [unknown, unknown];
    if (error) return parseError(block.line, 1, `invalid HCL in the block \`${block.header}\``);
  }
  if (unbalancedAt) return parseError(unbalancedAt.line, unbalancedAt.column, 'unclosed block or bracket');
  return parseError(1, 1, 'invalid HCL');
}

const parseError = (line: number, column: number, reason: string): AppError =>
  new AppError('parse_error', `line ${line}, column ${column}: ${reason}`, { line, column });

/** Splits at top-level closing braces, skipping strings, heredocs and comments. */
function topLevelBlocks(code: string): { blocks: TopBlock[]; unbalancedAt?: { line: number; column: number } } {
  const blocks: TopBlock[] = [];
  let depth = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let openLine = 0;
  let openColumn = 0;
  let lineStart = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (ch === '\n') {
      line++;
      lineStart = i + 1;
    } else if (ch === '#' || (ch === '/' && code[i + 1] === '/')) {
      const nl = code.indexOf('\n', i);
      i = (nl === -1 ? code.length : nl) - 1;
    } else if (ch === '/' && code[i + 1] === '*') {
      const close = code.indexOf('*/', i + 2);
      const end = close === -1 ? code.length : close + 2;
      line += countLines(code, i, end);
      i = end - 1;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== '"' && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
      i = j;
    } else if (ch === '<' && code[i + 1] === '<') {
      const heredoc = /^<<-?([A-Za-z_]\w*)\n/.exec(code.slice(i, i + 80));
      if (heredoc) {
        const end = new RegExp(`^\\s*${heredoc[1]}\\s*$`, 'm');
        const rest = code.slice(i + heredoc[0].length);
        const match = end.exec(rest);
        const stop = match ? i + heredoc[0].length + match.index + match[0].length : code.length;
        line += countLines(code, i, stop);
        i = stop - 1;
      }
    } else if (ch === '{' || ch === '[' || ch === '(') {
      if (depth === 0) {
        openLine = line;
        openColumn = i - lineStart + 1;
      }
      depth++;
    } else if (ch === '}' || ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) {
        const text = code.slice(start, i + 1);
        const headerStart = text.lastIndexOf('\n', text.indexOf('{')) + 1;
        const header = text.slice(headerStart, text.indexOf('{')).trim();
        blocks.push({ text, line: startLine + countLines(text, 0, headerStart), header });
        start = i + 1;
        startLine = line;
      }
    }
  }
  return depth > 0 ? { blocks, unbalancedAt: { line: openLine, column: openColumn } } : { blocks };
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** HCL's diagnostic, as hcl2json prints it: `<file>:<line>,<column>-<end>: <summary>; <detail>`. */
const DIAGNOSTIC = /:(\d+),(\d+)-[\d,]+: ([^;]+); (.*?)(?= [^\s:]+:\d+,\d+-|\]?$)/s;

/**
 * The error at HCL's own position and in its words, from @cdktf/hcl2json: HashiCorp's HCL built to WebAssembly, whose
 * errors keep the diagnostics hcl2-parser loses. It only runs asynchronously, so parsing stays with hcl2-parser and
 * this runs after that failed (NotationConverter.locateError). Columns count characters, as HCL does.
 */
export async function locateHclError(code: string): Promise<AppError | undefined> {
  try {
    await parseWithDiagnostics('main.tf', code);
    return undefined;
  } catch (error) {
    const found = DIAGNOSTIC.exec(String(error));
    if (found === null) return undefined;
    const [, line, column, summary, detail] = found;
    return parseError(Number(line), Number(column), `${summary!.toLowerCase()}: ${detail!.trim()}`);
  }
}
