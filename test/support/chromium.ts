import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core (CHROMIUM_PATH if it is elsewhere). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is, as "rule: targets" lines. evaluate() runs through the DevTools
 * protocol, so axe needs no exception in the page's CSP.
 */
export async function axeViolations(page: Page, tags: string[]): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return axe.run(document, { runOnly });
  }, tags);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
