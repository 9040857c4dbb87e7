import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { AI_PROVIDERS, type AiProvider } from '../../../service/ai-settings.js';
import type { Services } from '../../../service/index.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { field, type Form, noticeOf } from './forms.js';
import { seeOther } from '../redirect.js';

const PROVIDER_TITLES: Record<AiProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google (Gemini)',
  'openai-compatible': 'OpenAI-compatible (Ollama, vLLM, a proxy…)',
};

/** Settings → AI: the person's own provider, model and key (shown only as its last 4 characters), and a test. */
export const aiPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { ai, generation } = services;
  const who = (request: FastifyRequest) => principalOf(request.web.user!);

  const view = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const settings = await ai.get(who(request));
    return page(request, 'AI', {
      settings,
      providers: AI_PROVIDERS.map((id) => ({ id, title: PROVIDER_TITLES[id] })),
      values: settings ? { provider: settings.provider, model: settings.model, baseUrl: settings.baseUrl ?? '' } : { provider: 'openai', model: '', baseUrl: '' },
      ...extra,
    });
  };

  app.get('/settings/ai', async (request, reply) => {
    return reply.view('ai.eta', await view(request, noticeOf(request.query)));
  });

  app.post('/settings/ai', async (request, reply) => {
    const body = request.body as Form;
    const values = { provider: field(body, 'provider'), model: field(body, 'model').trim(), baseUrl: field(body, 'baseUrl').trim() };
    const key = field(body, 'key').trim();
    try {
      const current = await ai.get(who(request));
      if (!(AI_PROVIDERS as readonly string[]).includes(values.provider)) throw new AppError('validation_failed', `provider must be one of ${AI_PROVIDERS.join(', ')}`);
      if (!values.model) throw new AppError('validation_failed', 'name the model, e.g. gpt-4.1-mini, claude-sonnet-4-5 or gemini-2.5-flash');
      // An empty key field keeps the saved key (the page never holds it); a first save needs one.
      const keyToSave = key || (current ? (await ai.ownCredentials(who(request))).key : '');
      if (!keyToSave) throw new AppError('validation_failed', 'paste the API key of your provider account');
      await ai.set(who(request), { provider: values.provider as AiProvider, model: values.model, key: keyToSave, baseUrl: values.baseUrl || undefined });
      return seeOther(reply, '/settings/ai?notice=Saved.');
    } catch (error) {
      return formError(request, reply, error, 'ai.eta', 'AI', await view(request, { values }));
    }
  });

  app.post('/settings/ai/test', async (request, reply) => {
    try {
      const result = await generation.testSettings(who(request));
      const notice = result.fits
        ? `${result.model} answered a small drawing request (${result.usage.inputTokens} tokens in, ${result.usage.outputTokens} out): ready.`
        : `${result.model} answered, but not in the shape a drawing needs; generation retries once with the problems, which may still work.`;
      return reply.view('ai.eta', await view(request, { notice }));
    } catch (error) {
      return formError(request, reply, error, 'ai.eta', 'AI', await view(request));
    }
  });

  app.post('/settings/ai/remove', async (request, reply) => {
    await ai.remove(who(request));
    return seeOther(reply, '/settings/ai?notice=Removed.');
  });
};
