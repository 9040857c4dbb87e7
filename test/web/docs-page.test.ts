import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { PAGE_CSP } from '../../src/adapters/web/plugin.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { freePort } from '../support/ports.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the API reference at /docs in Chromium', () => {
  let backend: Backend;
  let runtime: Runtime;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicUrl: base, port }));
    await runtime.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    await backend?.dispose();
  });

  it('shows every operation and logs no Content-Security-Policy violation', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`));
    });
    const response = await page.goto(`${base}/docs`);
    expect(response!.headers()['content-security-policy']).toBe(PAGE_CSP); // the pages' own policy, no looser
    await page.waitForSelector('.opblock-summary', { timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.waitForTimeout(500);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/docs.png` });
    expect(violations).toEqual([]);
  }, 60_000);
});
