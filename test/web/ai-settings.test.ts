import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERS } from '../fixtures/ai/answers.js';
import { type FakeProvider, startFakeProvider } from '../support/fake-ai.js';
import { signedIn } from '../support/web-client.js';
import { useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

describe('Settings → AI', () => {
  const service = useTestService({ config: { aiAllowPrivateUrls: true, aiTimeoutSeconds: 2 } });
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => fake?.close());

  it('saves provider, model and key, shows only the last 4 characters, keeps the key when left empty, and tests it', async () => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    expect((await ann.get('/settings/ai')).body).toContain('Set up');
    const missingUrl = await ann.post('/settings/ai', { provider: 'openai-compatible', model: 'llama3.1', key: 'ollama', baseUrl: '' });
    expect(missingUrl.statusCode).toBe(400);
    expect(missingUrl.body).toContain('baseUrl is required for provider openai-compatible');

    const saved = await ann.post('/settings/ai', { provider: 'openai', model: 'gpt-4.1-mini', key: 'sk-test-secret-abcdef', baseUrl: `${fake.url}/openai/v1` });
    expect(saved.statusCode).toBe(303);
    const page = await ann.get('/settings/ai');
    expect(page.body).toContain('…cdef');
    expect(page.body).not.toContain('sk-test-secret');

    // A new model without a new key keeps the saved key.
    await ann.post('/settings/ai', { provider: 'openai', model: 'gpt-4.1', key: '', baseUrl: `${fake.url}/openai/v1` });
    fake.queue.push({ answer: ANSWERS.checkoutFlow });
    await ann.get('/settings/ai');
    const tested = await ann.post('/settings/ai/test');
    expect(tested.statusCode).toBe(200);
    expect(tested.body).toContain('gpt-4.1 answered a small drawing request');
    expect(fake.received.at(-1)!.key).toBe('sk-test-secret-abcdef');

    fake.queue.push({ status: 401, message: 'Incorrect API key provided' });
    const failed = await ann.post('/settings/ai/test');
    expect(failed.statusCode).toBe(502);
    expect(failed.body).toContain('Incorrect API key provided');
    expect(failed.body).not.toContain('sk-test-secret');

    await ann.post('/settings/ai/remove');
    expect((await ann.get('/settings/ai')).body).not.toContain('…cdef');
  });
});
