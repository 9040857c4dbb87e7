// The History panel: the document's kept versions (who, when, through which door, what changed), a picture of the
// one chosen, and — for people who may write — Restore, which writes that version back as a new one.
import { useCallback, useEffect, useState } from 'react';
import './history-panel.css';
import { PanelHead } from './panel-head.jsx';

/** The doors a version can come through, as a person reads them. */
const DOORS = { rest: 'API', mcp: 'MCP', web: 'web app', cli: 'CLI', ai: 'AI' };

const authorOf = (author) => author.name ?? author.email ?? 'a removed account';
const when = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * `currentVersion` is the version the canvas shows: the list is read again whenever it moves (a save, a restore,
 * another writer), and the current version cannot be restored onto itself.
 */
export function HistoryPanel({ service, writable, currentVersion, onRestore, onClose }) {
  const [versions, setVersions] = useState({ items: [], nextCursor: null, loading: true });
  const [chosen, setChosen] = useState(null);
  const [restoring, setRestoring] = useState(false);

  const load = useCallback(
    async (cursor) => {
      setVersions((previous) => ({ ...previous, loading: true, error: undefined }));
      try {
        const page = await service.listVersions(cursor);
        setVersions((previous) => ({ items: cursor ? [...previous.items, ...page.items] : page.items, nextCursor: page.nextCursor, loading: false }));
      } catch (error) {
        setVersions((previous) => ({ ...previous, loading: false, error: error.message }));
      }
    },
    [service],
  );
  useEffect(() => {
    load();
  }, [load, currentVersion]);

  const restore = async () => {
    setRestoring(true);
    try {
      await onRestore(chosen.version);
      setChosen(null);
    } finally {
      setRestoring(false);
    }
  };

  return (
    <aside className="editor-panel history-panel" id="panel-history" aria-labelledby="panel-history-title">
      <PanelHead id="panel-history-title" onClose={onClose}>
        History
      </PanelHead>
      {chosen && (
        <section className="history-preview" aria-label={`Version ${chosen.version}`}>
          <img src={service.versionImageUrl(chosen.version)} alt={`Version ${chosen.version} as it was drawn`} />
          <p className="help">
            Version {chosen.version}: {chosen.summary}
          </p>
          <div className="history-preview-actions">
            {writable && chosen.version !== currentVersion && (
              <button type="button" className="button small primary" onClick={restore} disabled={restoring}>
                {restoring ? 'Restoring…' : `Restore version ${chosen.version}`}
              </button>
            )}
            <button type="button" className="button small" onClick={() => setChosen(null)}>
              Close preview
            </button>
          </div>
        </section>
      )}
      <ol className="history-list">
        {versions.items.map((v) => (
          <li key={v.version}>
            <button type="button" className="history-item" onClick={() => setChosen(v)} aria-pressed={v.version === chosen?.version} aria-current={v.version === currentVersion ? 'true' : undefined}>
              <span className="history-line">
                <strong>Version {v.version}</strong>
                {v.version === currentVersion && <span className="history-badge">on the canvas</span>}
              </span>
              <span className="history-summary">{v.summary}</span>
              <span className="history-meta">
                {authorOf(v.author)} · <time dateTime={v.createdAt}>{when(v.createdAt)}</time>
                {v.door && ` · ${DOORS[v.door] ?? v.door}`}
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div role="status" aria-live="polite">
        {versions.loading && <p className="help">Loading versions…</p>}
        {versions.error && <p className="alert error">{versions.error}</p>}
      </div>
      {versions.nextCursor && !versions.loading && (
        <button type="button" className="button small" onClick={() => load(versions.nextCursor)}>
          Older versions
        </button>
      )}
    </aside>
  );
}
