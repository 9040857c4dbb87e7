import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A stand-in for the AI providers on 127.0.0.1, speaking their real wire formats: OpenAI chat completions (and any
 * OpenAI-compatible server), Anthropic messages, Google generateContent. It checks that a request carries the key
 * and our answer schema, records it, and answers with whatever the test queued: a JSON answer, raw text, an HTTP
 * error, a redirect elsewhere, or nothing at all (a hang).
 */
export type Scripted = { answer: unknown } | { text: string } | { status: number; message: string; retryAfter?: number } | { hang: true } | { redirectTo: string };

export interface ReceivedRequest {
  family: 'openai' | 'anthropic' | 'google';
  path: string;
  key: string | undefined;
  body: any;
}

export interface FakeProvider {
  url: string;
  queue: Scripted[];
  received: ReceivedRequest[];
  close(): Promise<void>;
}

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });

export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: Scripted[] = [];
  const received: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];

  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse((await read(request)) || '{}');
    const path = request.url ?? '';
    const family = path.startsWith('/anthropic/') ? 'anthropic' : path.startsWith('/google/') ? 'google' : 'openai';
    const key =
      family === 'anthropic'
        ? (request.headers['x-api-key'] as string | undefined)
        : family === 'google'
          ? (request.headers['x-goog-api-key'] as string | undefined)
          : request.headers.authorization?.replace(/^Bearer /, '');
    received.push({ family, path, key, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(payload));
    };
    // What every provider checks first: a key, and (for our requests) a JSON schema to answer in.
    // Anthropic takes the schema as structured output on the newest models, as a forced tool on the others.
    const anthropicTool = family === 'anthropic' && Array.isArray(body.tools) && body.tools.length === 1 ? body.tools[0] : undefined;
    const schema =
      family === 'anthropic'
        ? (body.output_config?.format?.schema ?? anthropicTool?.input_schema)
        : family === 'google'
          ? body.generationConfig?.responseSchema
          : body.response_format?.json_schema?.schema;
    if (!key) return send(401, { error: { message: 'missing API key' } });
    if (!schema) return send(400, { error: { message: 'expected a JSON schema for structured output' } });

    const next = queue.shift() ?? { status: 500, message: 'the fake provider has nothing queued' };
    if ('hang' in next) return void hanging.push(response);
    if ('redirectTo' in next) return send(307, {}, { location: next.redirectTo });
    if ('status' in next) return send(next.status, { error: { message: next.message, type: 'error' } }, next.retryAfter ? { 'retry-after': String(next.retryAfter) } : {});
    const text = 'answer' in next ? JSON.stringify(next.answer) : next.text;
    const usage = { input: 1200, output: 350 };
    if (family === 'anthropic') {
      return send(200, {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: anthropicTool && 'answer' in next ? [{ type: 'tool_use', id: 'toolu_fake', name: anthropicTool.name, input: next.answer }] : [{ type: 'text', text }],
        stop_reason: anthropicTool && 'answer' in next ? 'tool_use' : 'end_turn',
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      });
    }
    if (family === 'google') {
      return send(200, {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
      });
    }
    return send(200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    queue,
    received,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
