import { describe, expect, it } from 'vitest';
import { markdownText } from './markdown.js';

describe('markdownText', () => {
  it('shows a Markdown label as D2 renders it: headings, emphasis, links and code as their words, list items with bullets', () => {
    expect(markdownText('## ATM Banking System\n[Software System]\n\nAllows **customers** to use a [terminal](https://x.y/t).\n- one `cmd`\n* two')).toBe(
      'ATM Banking System\n[Software System]\n\nAllows customers to use a terminal.\n• one cmd\n• two',
    );
  });

  it('keeps underscores inside identifiers and stars in arithmetic, and one blank line between paragraphs', () => {
    expect(markdownText('user_id is _the_ key\n\n\n2 * 3 * 4\n\n```\ncode_block\n```')).toBe('user_id is the key\n\n2 * 3 * 4\n\ncode_block');
  });

  it('reads a backslash at the end of a line as Markdown\'s line break, not as text (the docs\' near-explanation)', () => {
    expect(markdownText('# LLMs\nThe Large Language Model (LLM) is a powerful AI\\\n  system that learns from vast amounts of text data.\\\nBy analyzing')).toBe(
      'LLMs\nThe Large Language Model (LLM) is a powerful AI\nsystem that learns from vast amounts of text data.\nBy analyzing',
    );
  });
});
