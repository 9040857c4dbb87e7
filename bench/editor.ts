import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createRuntime } from '../src/adapters/http/server.js';
import { principalOf } from '../src/adapters/web/session.js';
import { createBackend, testConfig } from '../test/support/backends.js';
import { CHROMIUM } from '../test/support/chromium.js';

const BUNDLE = 'dist/editor';
const EVERY_TYPE = JSON.parse(readFileSync('test/fixtures/excalidraw/native-every-type.json', 'utf8')) as unknown[];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface EditorFigures {
  /** From navigation start until the canvas is drawn and takes input (the editor's API is up), median of the runs. */
  timeToInteractiveMs: number;
  runs: number[];
  /** The JavaScript the editor page loads, each file gzipped as a server would send it. */
  loadedJsGzipBytes: number;
  loadedJsFiles: number;
  /** Everything in the bundle, most of it chunks Excalidraw loads only on demand (locales, Mermaid import…). */
  bundleJsGzipBytes: number;
}

/**
 * Goal (editor issue): the editor page is interactive within 2 s on localhost. A fresh browser context per run (no
 * cache), a 41-element diagram of every type, the page opened by a signed-in person.
 */
export async function benchEditor(runs = 5): Promise<EditorFigures | string> {
  if (!existsSync(CHROMIUM)) return `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (!existsSync(BUNDLE)) return 'skipped: no editor bundle (npm ci builds it; or node scripts/build-editor.mjs)';
  const backend = await createBackend('sqlite');
  const runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000 }));
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const base = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const password = 'correct horse battery staple';
    const { userId, workspaceId } = await runtime.services.accounts.createUser({ email: 'bench@example.com', name: 'Bench', password, workspaceName: 'Bench' });
    const principal = principalOf({ id: userId, email: 'bench@example.com', name: 'Bench', plan: 'free' });
    const id = (await runtime.services.diagrams.createDocument(principal, { workspaceId, name: 'Every type', elements: EVERY_TYPE })).document.summary.id;
    const times: number[] = [];
    const loaded = new Set<string>();
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(`${base}/sign-in`);
      await page.getByLabel('Email').fill('bench@example.com');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/workspaces/);
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (path.startsWith('/assets/editor/') && path.endsWith('.js')) loaded.add(path.slice('/assets/editor/'.length));
      });
      await page.goto(`${base}/diagrams/${id}/edit`);
      await page.waitForFunction(() => Boolean((window as unknown as { drawbridgeEditor?: unknown }).drawbridgeEditor) && Boolean(document.querySelector('canvas.interactive')));
      times.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
    const gzip = (file: string) => gzipSync(readFileSync(join(BUNDLE, file))).length;
    const allJs = readdirSync(BUNDLE, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    return {
      timeToInteractiveMs: median(times),
      runs: times,
      loadedJsGzipBytes: [...loaded].reduce((sum, file) => sum + gzip(file), 0),
      loadedJsFiles: loaded.size,
      bundleJsGzipBytes: allJs.reduce((sum, file) => sum + gzip(file), 0),
    };
  } finally {
    await browser.close();
    await runtime.close();
    await backend.dispose();
  }
}

export function printEditor(figures: EditorFigures | string): void {
  console.log('Editor page /diagrams/:id/edit in Chromium on localhost (41 elements of every type, no cache)');
  if (typeof figures === 'string') return console.log(`  ${figures}`);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const ok = figures.timeToInteractiveMs < 2000;
  console.log(`  time to interactive: ${Math.round(figures.timeToInteractiveMs)} ms median of ${figures.runs.length} (goal < 2000 ms) ${ok ? 'OK' : 'BELOW GOAL'}`);
  console.log(`  JavaScript loaded:   ${kib(figures.loadedJsGzipBytes)} gzipped in ${figures.loadedJsFiles} files; whole bundle ${kib(figures.bundleJsGzipBytes)} gzipped (the rest loads on demand)`);
}
