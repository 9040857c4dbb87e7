// The editor's only contact with the server: small functions over the session routes of pages/editor.ts, which call
// the same DiagramService as REST and MCP. New endpoints (history, code) slot in here.

/** The server refused a save because someone else saved first (412): `currentVersion` is theirs. */
export class SaveConflict extends Error {
  constructor(currentVersion, message) {
    super(message);
    this.currentVersion = currentVersion;
  }
}

/** A refusal the person should read (403 for a viewer, 400 for a scene the import cannot take); `details` as sent (a parse error's line and column). */
export class Refused extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function createService({ id, csrf }) {
  async function call(method, url, { body, headers = {} } = {}) {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(method === 'GET' ? {} : { 'X-CSRF-Token': csrf }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // A session that ended is redirected to the sign-in page, which is HTML.
    if (response.redirected || !(response.headers.get('content-type') ?? '').includes('json')) throw new Refused(401, 'signed_out', 'You are signed out: sign in again in another tab, then save.');
    const json = await response.json();
    if (response.status === 412) throw new SaveConflict(json.error?.details?.currentVersion, json.error?.message);
    if (!response.ok) throw new Refused(response.status, json.error?.code, json.error?.message ?? `the server answered ${response.status}`, json.error?.details);
    return json;
  }
  const base = `/diagrams/${encodeURIComponent(id)}`;
  return {
    /** `{ items: [{ library, label, ref }], hint? }` from our icon catalog; each icon's picture is /icons/<library>/<label>.svg. */
    searchIcons: (query, vendor) => call('GET', `/editor/icons?${new URLSearchParams({ query, limit: '24', ...(vendor ? { vendor } : {}) })}`),
    /** `{ name, version, writable, scene, source }`: the diagram through our `.excalidraw` export, and the code it was drawn from (or null). */
    loadScene: () => call('GET', `${base}/scene`),
    /** Its version only, polled to notice another writer's save. */
    readState: () => call('GET', `${base}/state`),
    /** A versioned write: `version` goes as If-Match; a stale one throws SaveConflict. */
    saveScene: (version, scene) => call('PUT', `${base}/scene`, { body: { scene }, headers: { 'If-Match': `"${version}"` } }),
    /** The same write for a few edited elements: `changed` names them, and the server writes them by element. */
    saveChanges: (version, scene, changed) => call('PATCH', `${base}/scene`, { body: { scene, changed }, headers: { 'If-Match': `"${version}"` } }),
    /** The diagram changed by the AI as `prompt` says, on `version`: `{ version, warnings, model }`. */
    ask: (version, prompt) => call('POST', `${base}/ask`, { body: { prompt }, headers: { 'If-Match': `"${version}"` } }),
    /** Redraws the diagram from new code on `version` (If-Match): `{ version, warnings }`; a parse error throws Refused with details {line, column}. */
    redraw: (version, code, notation) => call('PUT', `${base}/code`, { body: { code, notation }, headers: { 'If-Match': `"${version}"` } }),
    /** A page of the kept versions, newest first: `{ items: [{ version, createdAt, author, door, summary }], nextCursor }`. */
    listVersions: (cursor) => call('GET', `${base}/versions?${new URLSearchParams({ limit: '20', ...(cursor ? { cursor } : {}) })}`),
    /** Where a kept version's picture is (our SVG of it), for the preview. */
    versionImageUrl: (n) => `${base}/versions/${n}/image.svg`,
    /** Version `n` written back as a new version on `version` (If-Match): `{ version, restored }`; stale throws SaveConflict. */
    restoreVersion: (version, n) => call('POST', `${base}/versions/${n}/restore`, { body: {}, headers: { 'If-Match': `"${version}"` } }),
    /** The scene as a new diagram beside this one: `{ id, url }`. */
    saveCopy: (scene, name) => call('POST', `${base}/copy`, { body: { scene, name } }),
  };
}
