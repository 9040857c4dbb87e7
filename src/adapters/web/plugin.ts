import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../core/errors.js';
import type { Services } from '../../service/index.js';
import { HTTP_STATUS } from '../http/errors.js';
import { accountPages } from './pages/account.js';
import { aiPages } from './pages/ai.js';
import { consentPages } from './pages/consent.js';
import { developerPages } from './pages/developer.js';
import { diagramPages } from './pages/diagrams.js';
import { editorPages } from './pages/editor.js';
import { editorHistoryPages } from './pages/editor-history.js';
import { invitePages } from './pages/invites.js';
import { memberPages, workspacePages } from './pages/workspaces.js';
import { checkCsrf, loadSession, requireUser, type WebContext } from './session.js';
import { dictionary } from '../../core/dictionary.js';

declare module 'fastify' {
  interface FastifyRequest {
    web: WebContext;
  }
}

export interface WebOptions {
  services: Services;
}

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));
const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));
const HTMX = fileURLToPath(new URL('../../../node_modules/htmx.org/dist/', import.meta.url));
const INTER = fileURLToPath(new URL('../../../node_modules/@expo-google-fonts/inter/', import.meta.url));
/** The editor's bundle, built by `npm ci` (scripts/build-editor.mjs), and Excalidraw's own fonts: no CDN. */
const EDITOR_BUNDLE = fileURLToPath(new URL('../../../dist/editor/', import.meta.url));
const EXCALIDRAW_FONTS = fileURLToPath(new URL('../../../node_modules/@excalidraw/excalidraw/dist/prod/fonts/', import.meta.url));
const FONT_FILES: Record<string, string> = dictionary({ '/Inter_400Regular.ttf': '400Regular/Inter_400Regular.ttf', '/Inter_600SemiBold.ttf': '600SemiBold/Inter_600SemiBold.ttf' });

/**
 * No inline script or style anywhere: every script and stylesheet is a file we serve. Images may be data: URLs
 * (icons inside rendered SVGs are their own documents, not subject to this policy).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The web app: server-rendered pages (Eta templates) over the same services as REST and MCP, signed in with a
 * server-side session cookie instead of a bearer token. Every route here is `public` to the token check in app.ts
 * and hidden from the OpenAPI document; pages that need a person redirect to sign-in themselves.
 */
const eta = new Eta({ views: VIEWS, autoEscape: true, autoTrim: false });

export const webApp: FastifyPluginAsync<WebOptions> = async (app, { services }) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie);
  // Forms post urlencoded bodies; only here; the API keeps answering 415 to anything but JSON.
  await app.register(fastifyFormbody);
  await app.register(fastifyView, {
    engine: { eta },
    root: VIEWS,
    layout: 'layout.eta',
    production: true,
    defaultContext: { edition: services.edition },
  });
  await app.register(fastifyStatic, { root: ASSETS, prefix: '/assets/', decorateReply: false, maxAge: '1h', index: false });
  await app.register(fastifyStatic, { root: EDITOR_BUNDLE, prefix: '/assets/editor/', decorateReply: false, maxAge: '1h', index: false });
  await app.register(fastifyStatic, { root: EXCALIDRAW_FONTS, prefix: '/assets/editor/fonts/', decorateReply: false, maxAge: '7d', index: false });
  await app.register(fastifyStatic, { root: HTMX, prefix: '/assets/htmx/', decorateReply: false, maxAge: '1h', allowedPath: (path) => path === '/htmx.min.js', index: false });

  app.get('/assets/fonts/:file', async (request, reply) => {
    const file = FONT_FILES[`/${(request.params as { file: string }).file}`];
    if (!file) return reply.code(404).send({ error: { code: 'not_found', message: 'no such font' } });
    return reply.header('Cache-Control', 'public, max-age=86400').type('font/ttf').send(createReadStream(INTER + file));
  });

  app.decorateRequest('web', null as unknown as WebContext);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Content-Security-Policy', PAGE_CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
    if (request.url.startsWith('/assets/')) return;
    reply.header('Cache-Control', 'no-store');
    await loadSession(services, request, reply);
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await checkCsrf(request, reply);
  });
  app.setErrorHandler((error, request, reply) => showError(error, request, reply));

  await app.register(accountPages, { services });
  await app.register(invitePages, { services });
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);
    await signedIn.register(developerPages, { services });
    if (services.oauth) await signedIn.register(consentPages, { services, oauth: services.oauth });
    await signedIn.register(aiPages, { services });
    await signedIn.register(workspacePages, { services });
    await signedIn.register(memberPages, { services });
    await signedIn.register(diagramPages, { services });
    await signedIn.register(editorPages, { services });
    await signedIn.register(editorHistoryPages, { services });
  });
};

/** A tab title that tells a missing page from a refused one. */
const ERROR_TITLES: Record<number, string> = { 404: 'Page not found', 403: 'Not allowed', 429: 'Too many attempts', 500: 'Something went wrong' };

/** An error page in the app's own look; a 5xx says only that it happened, with the request id. */
export function showError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  let status = 500;
  let message = `Something went wrong on our side. Quote request id ${request.id} when reporting it.`;
  if (isAppError(error)) {
    status = HTTP_STATUS[error.code];
    message = error.message;
    if (error.code === 'rate_limited') reply.header('Retry-After', (error.details as { rate: { resetSeconds: number } }).rate.resetSeconds);
  } else {
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
      status = statusCode;
      message = (error as Error).message;
    } else request.log.error({ err: error }, 'unhandled error on a page');
  }
  return reply.code(status).view('error.eta', { ...page(request, ERROR_TITLES[status] ?? 'Something is in the way'), status, message });
}

/**
 * A browser that follows a wrong link gets a page in the app's look, not the API's JSON: the not-found handler is
 * the root's (one per prefix in Fastify), so it asks here. The session is not loaded for an unmatched path, so the
 * page shows the signed-out header.
 */
export function wantsPage(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]!;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (/^\/(api-v1|mcp|assets|docs|healthz|readyz|metrics)(\/|$)/.test(path)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

export function notFoundPage(request: FastifyRequest, reply: FastifyReply) {
  const data = { ...page(request, 'Page not found'), status: 404, message: `There is no page at ${request.url.split('?')[0]}.` };
  const html = eta.render('layout.eta', { ...data, body: eta.render('error.eta', data) });
  return reply.code(404).header('Content-Security-Policy', PAGE_CSP).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** What every page's layout reads: the person, the CSRF token for its forms, the title. */
export function page(request: FastifyRequest, title: string, extra: Record<string, unknown> = {}) {
  return { title, user: request.web?.user, csrf: request.web?.csrf ?? '', path: request.url.split('?')[0], ...extra };
}

export type WebApp = FastifyInstance;
