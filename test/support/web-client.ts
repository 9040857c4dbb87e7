import type { FastifyInstance } from 'fastify';

/**
 * A browser's part in inject() tests: keeps the cookies the server sets, sends forms urlencoded with the page's
 * CSRF token (read from the last page, as a browser's form would carry it), and does not follow redirects.
 */
export class WebClient {
  private readonly cookies = new Map<string, string>();
  /** The `_csrf` of the last HTML page fetched. */
  csrf = '';

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '203.0.113.7',
  ) {}

  async get(url: string) {
    const response = await this.app.inject({ method: 'GET', url, headers: this.headers(), remoteAddress: this.ip });
    this.remember(response);
    return response;
  }

  /** Posts a form; `_csrf` is the page's unless the caller passes its own (or `null` for none). */
  async post(url: string, form: Record<string, string | string[]> = {}, csrf: string | null = this.csrf) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
    if (csrf !== null) body.append('_csrf', csrf);
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
      remoteAddress: this.ip,
    });
    this.remember(response);
    return response;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  forget(name: string): void {
    this.cookies.delete(name);
  }

  private headers() {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private remember(response: { headers: Record<string, unknown>; body: string }) {
    for (const line of [response.headers['set-cookie'] ?? []].flat() as string[]) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const csrf = /name="_csrf" value="([^"]+)"/.exec(response.body);
    if (csrf) this.csrf = csrf[1]!;
  }
}

/** Text of an HTML element by id, entities decoded (enough for what our templates escape). */
export function textById(html: string, id: string): string | undefined {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return match ? decodeEntities(match[1]!) : undefined;
}

export const decodeEntities = (text: string) =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A client signed in with email and password through the sign-in form. */
export async function signedIn(app: FastifyInstance, email: string, password: string, ip?: string): Promise<WebClient> {
  const client = new WebClient(app, ip);
  await client.get('/sign-in');
  const response = await client.post('/sign-in', { email, password });
  if (response.statusCode !== 303) throw new Error(`sign-in as ${email} failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return client;
}
