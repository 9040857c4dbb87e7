/**
 * Draws Mermaid files with Mermaid itself, to put beside ours (scripts/render-file.ts) when judging a drawing:
 * `node --import tsx scripts/render-mermaid-original.ts <in.mmd> <out.png> [<in.mmd> <out.png> …]`. Mermaid's
 * renderer needs a browser: the installed `mermaid` bundle runs in Chromium (CHROMIUM, default /usr/bin/chromium)
 * through playwright-core, and the SVG is shown at its own size, not shrunk to the page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) throw new Error('usage: render-mermaid-original.ts <in.mmd> <out.png> [<in.mmd> <out.png> …]');
const bundle = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 3000, height: 2000 } });
  await page.setContent('<body style="margin:0;background:#fff"><div id="out" style="display:inline-block;padding:8px"></div></body>');
  await page.addScriptTag({ path: bundle });
  for (let i = 0; i < pairs.length; i += 2) {
    const [file, out] = [pairs[i]!, pairs[i + 1]!];
    try {
      await page.evaluate(async (code) => {
        const { mermaid } = window as unknown as { mermaid: { initialize(c: object): void; render(id: string, code: string): Promise<{ svg: string }> } };
        mermaid.initialize({ startOnLoad: false });
        const { svg } = await mermaid.render(`d${Math.random().toString(36).slice(2)}`, code);
        const holder = document.getElementById('out')!;
        holder.innerHTML = svg;
        // Mermaid sets max-width: 100% on its SVG; at its viewBox size the text is as Mermaid meant it.
        const drawn = holder.querySelector('svg')!;
        drawn.style.maxWidth = 'none';
        drawn.setAttribute('width', String(drawn.viewBox.baseVal.width));
        drawn.setAttribute('height', String(drawn.viewBox.baseVal.height));
      }, readFileSync(file, 'utf8'));
      await page.locator('#out').screenshot({ path: out });
      console.log(`${file} → ${out}`);
    } catch (error) {
      console.log(`${file}: Mermaid refused it: ${String(error).split('\n').slice(0, 3).join(' ')}`);
    }
  }
} finally {
  await browser.close();
}
