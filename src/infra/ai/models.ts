/**
 * The account's model, through the Vercel AI SDK's structured output: one request, the answer schema as its JSON
 * schema, the provider's own wire format. Provider failures become our error codes, with the key never in a message.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateObject, type LanguageModel, type ModelMessage, NoObjectGeneratedError } from 'ai';
import { diagramAnswer } from '../../core/ai/answer.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { AiCredentials, DiagramModel } from '../../service/generate.js';
import { assertProviderUrl, providerFetch } from './address-guard.js';

function languageModel({ provider, model, key, baseUrl }: AiCredentials, fetch: typeof globalThis.fetch): LanguageModel {
  const baseURL = baseUrl ?? undefined;
  switch (provider) {
    case 'openai':
      // Chat Completions: the API every OpenAI-compatible server also speaks.
      return createOpenAI({ apiKey: key, baseURL, fetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ apiKey: key, baseURL, fetch })(model);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: key, baseURL, fetch })(model);
    case 'openai-compatible':
      return createOpenAICompatible({ name: 'openai-compatible', apiKey: key, baseURL: baseUrl!, supportsStructuredOutputs: true, fetch })(model);
  }
}

export interface ModelOptions {
  timeoutSeconds: number;
  allowPrivateUrls: boolean;
}

export function createDiagramModel(options: ModelOptions): DiagramModel {
  const fetch = providerFetch(options.allowPrivateUrls);
  return {
    async answer(credentials, system, messages) {
      if (credentials.baseUrl) await assertProviderUrl(credentials.baseUrl, options.allowPrivateUrls);
      const redact = (text: string) => (credentials.key.length >= 8 ? text.replaceAll(credentials.key, '[key]') : text);
      try {
        const result = await generateObject({
          model: languageModel(credentials, fetch),
          schema: diagramAnswer,
          system,
          messages: messages as ModelMessage[],
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(options.timeoutSeconds * 1000),
        });
        return { ok: true, answer: result.object, text: JSON.stringify(result.object), usage: usageOf(result.usage) };
      } catch (error) {
        if (NoObjectGeneratedError.isInstance(error)) {
          const reason = error.cause instanceof Error ? error.cause.message : error.message;
          return { ok: false, text: error.text ?? '', problems: [redact(reason).slice(0, 2000)], usage: usageOf(error.usage) };
        }
        throw providerError(error, credentials.provider, redact, options.timeoutSeconds);
      }
    },
  };
}

const usageOf = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined) => ({
  inputTokens: usage?.inputTokens ?? 0,
  outputTokens: usage?.outputTokens ?? 0,
});

function providerError(error: unknown, provider: string, redact: (text: string) => string, timeoutSeconds: number): AppError {
  if (isAppError(error)) return error; // providerFetch's refusals (a redirect, a private address) say what happened
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError' || (error instanceof Error && error.cause instanceof Error && error.cause.name === 'TimeoutError')) {
    return new AppError('ai_timeout', `the ${provider} model did not answer within ${timeoutSeconds} s (AI_TIMEOUT_SECONDS)`);
  }
  if (APICallError.isInstance(error)) {
    const message = redact(providerMessage(error));
    if (error.statusCode === 429) {
      const retryAfter = Number(error.responseHeaders?.['retry-after'] ?? 30) || 30;
      return new AppError('ai_rate_limited', `${provider} is rate-limiting this key: ${message}`, { retryAfterSeconds: retryAfter });
    }
    return new AppError('ai_provider_error', `${provider} refused the request${error.statusCode ? ` (${error.statusCode})` : ''}: ${message}`, {
      providerStatus: error.statusCode ?? null,
    });
  }
  return new AppError('ai_provider_error', `${provider} could not be reached: ${redact(error instanceof Error ? error.message : String(error))}`);
}

/** The provider's own words: `{error: {message}}` (OpenAI, Anthropic, Google alike), else the SDK's. */
function providerMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? '') as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // Not JSON: the SDK's message says what happened.
  }
  return error.message;
}
