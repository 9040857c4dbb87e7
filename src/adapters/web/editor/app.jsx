// The canvas editor: Excalidraw as a client-side island on /diagrams/:id/edit. The scene arrives through our
// `.excalidraw` export and every save goes back through our import as one versioned write (If-Match), so what
// Excalidraw cannot draw natively rides unchanged in customData.
import {
  CaptureUpdateAction,
  convertToExcalidrawElements,
  Excalidraw,
  getSceneVersion,
  MainMenu,
  newElementWith,
  restoreElements,
  viewportCoordsToSceneCoords,
} from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { HistoryPanel } from './history-panel.jsx';
import { createService, SaveConflict } from './service.js';
import './editor.css';
import { PanelHead } from './panel-head.jsx';

/** Autosave after this long without a change. */
const AUTOSAVE_MS = 1500;
/** How often the open page asks for the document's version, to notice another writer's save. */
const POLL_MS = 4000;

const root = document.getElementById('editor-root');
const statusLine = document.getElementById('editor-status');
const actionsSlot = document.getElementById('editor-actions');
const writable = root.dataset.writable === 'true';
const aiReady = root.dataset.ai === 'true';
const service = createService({ id: root.dataset.id, csrf: root.dataset.csrf });

/** What is sent back: an `.excalidraw` file object of the live elements and the images they use. */
function sceneOf(api) {
  // Icon pictures are the server's drawing of each iconRef, not data: they are left out and stamped again.
  const elements = api.getSceneElements().filter((e) => !isIconPicture(e));
  const files = api.getFiles();
  const used = Object.fromEntries(elements.filter((e) => e.fileId && files[e.fileId]).map((e) => [e.fileId, files[e.fileId]]));
  return { type: 'excalidraw', version: 2, source: 'drawbridge-editor', elements, appState: { viewBackgroundColor: api.getAppState().viewBackgroundColor, gridSize: null }, files: used };
}

/** A wide diagram opens whole (zoomed out to fit); a small one at 100 %, centred, not blown up. */
const fitOnOpen = (api) => api.scrollToContent(api.getSceneElements(), { fitToViewport: true, viewportZoomFactor: 0.9, maxZoom: 1 });

/** Icon pictures are drawn by the server from each shape's iconRef and box (customData.drawbridge.iconOf). */
const isIconPicture = (element) => typeof element.customData?.drawbridge?.iconOf === 'string';

/**
 * After a save, the icons as the server stamped them: new ones appear, moved shapes' icons follow. Only the icon
 * pictures are replaced, and only while the canvas still holds exactly what was saved.
 */
async function refreshIcons(api, state) {
  const fresh = await service.loadScene();
  if (fresh.version !== state.version || signatureOf(api) !== state.savedSignature) return;
  api.addFiles(Object.values(fresh.scene.files ?? {}));
  const kept = api.getSceneElementsIncludingDeleted().filter((e) => !isIconPicture(e));
  const icons = restoreElements(fresh.scene.elements.filter(isIconPicture), null);
  api.updateScene({ elements: [...kept, ...icons], captureUpdate: CaptureUpdateAction.NEVER });
  state.savedSignature = signatureOf(api);
}

const signatureOf = (api) => getSceneVersion(api.getSceneElementsIncludingDeleted());

/** Up to this many changed elements, a save names them (edits by element); past it, the whole scene is written. */
const FEW_CHANGES = 20;

/** Each live element's Excalidraw version, to tell what changed since: the snapshot taken when a scene is saved or loaded. */
const versionsOf = (api) => new Map(api.getSceneElements().filter((e) => !isIconPicture(e)).map((e) => [e.id, e.version]));

/**
 * The ids of what changed since `saved` (a versionsOf snapshot): added, edited or deleted elements, and for a label
 * (a text bound to a shape or arrow) its holder too, since our scene keeps a label as its holder's text.
 */
function changedSince(api, saved) {
  const changed = new Set();
  const live = new Set();
  for (const e of api.getSceneElementsIncludingDeleted()) {
    if (isIconPicture(e) || (e.isDeleted && !saved.has(e.id))) continue;
    if (!e.isDeleted) live.add(e.id);
    if (!e.isDeleted && saved.get(e.id) === e.version) continue;
    changed.add(e.id);
    if (e.containerId) changed.add(e.containerId);
  }
  for (const id of saved.keys()) if (!live.has(id)) changed.add(id);
  return [...changed];
}

function EditorApp({ initial }) {
  const apiRef = useRef(null);
  // Mutable save state: the version our scene is based on, the scene signature last saved, one save at a time.
  // `blocked` while the conflict choice is open: nothing saves until the person chooses.
  // `savedVersions`: each element's version as last saved or loaded, to send only what changed since (see changedSince).
  const doc = useRef({ version: initial.version, savedSignature: null, savedVersions: null, saving: false, blocked: false, timer: 0 });
  const [status, setStatus] = useState(writable ? `Version ${initial.version} · changes save themselves` : `Read-only: your role here is ${root.dataset.role}`);
  const [conflict, setConflict] = useState(null);
  const [newer, setNewer] = useState(null);
  // The code a diagram drawn from code was drawn from, as of the version on the canvas (null: drawn otherwise).
  const [source, setSource] = useState(initial.source ?? null);
  // The version the canvas shows, for the History panel (doc.current.version is the save state's copy of it).
  const [shownVersion, setShownVersion] = useState(initial.version);
  const dialogRef = useRef(null);

  useEffect(() => {
    statusLine.textContent = status;
  }, [status]);

  // Excalidraw's menu buttons carry only an icon and no name (axe: button-name); they are named as they appear.
  useEffect(() => {
    const name = () => root.querySelectorAll('.dropdown-menu-button:not([aria-label])').forEach((button) => button.setAttribute('aria-label', 'Menu'));
    const observer = new MutationObserver(name);
    observer.observe(root, { childList: true, subtree: true });
    name();
    return () => observer.disconnect();
  }, []);

  const loadTheirs = useCallback(async () => {
    const api = apiRef.current;
    const fresh = await service.loadScene();
    api.addFiles(Object.values(fresh.scene.files ?? {}));
    api.updateScene({ elements: restoreElements(fresh.scene.elements, null), captureUpdate: CaptureUpdateAction.NEVER });
    doc.current.version = fresh.version;
    setShownVersion(fresh.version);
    doc.current.savedSignature = signatureOf(api);
    doc.current.savedVersions = versionsOf(api);
    doc.current.blocked = false;
    setSource(fresh.source ?? null);
    setNewer(null);
    setConflict(null);
    return fresh.version;
  }, []);

  const save = useCallback(async () => {
    const api = apiRef.current;
    const state = doc.current;
    clearTimeout(state.timer);
    if (!api || !writable || state.saving || state.blocked) return;
    const signature = signatureOf(api);
    if (signature === state.savedSignature) return;
    state.saving = true;
    setStatus('Saving…');
    try {
      const sent = versionsOf(api);
      const changed = state.savedVersions ? changedSince(api, state.savedVersions) : [];
      const scene = sceneOf(api);
      const result =
        changed.length > 0 && changed.length <= FEW_CHANGES ? await service.saveChanges(state.version, scene, changed) : await service.saveScene(state.version, scene);
      state.savedVersions = sent;
      state.version = result.version;
      setShownVersion(result.version);
      state.savedSignature = signature;
      await refreshIcons(api, state);
      setNewer(null);
      setStatus(`Saved version ${result.version}${result.warnings.length ? ` · notes: ${result.warnings.slice(0, 3).join(' · ')}` : ''}`);
    } catch (error) {
      if (error instanceof SaveConflict) {
        state.blocked = true;
        setConflict({ theirs: error.currentVersion });
        setStatus(`Not saved: someone else saved version ${error.currentVersion} first`);
      } else setStatus(`Not saved: ${error.message}`);
    } finally {
      state.saving = false;
    }
    // Edits made while the request was out are saved next.
    if (!state.blocked && signatureOf(api) !== state.savedSignature) state.timer = setTimeout(() => save(), AUTOSAVE_MS);
  }, []);

  // Fitted once, when the stored scene first shows; a blank canvas is left where the person starts drawing.
  const opened = useRef(initial.scene.elements.length === 0);
  const onChange = useCallback(() => {
    const api = apiRef.current;
    const state = doc.current;
    if (api && !opened.current && api.getSceneElements().length > 0) {
      opened.current = true;
      fitOnOpen(api);
    }
    if (!api || !writable) return;
    if (state.savedSignature === null) {
      state.savedSignature = signatureOf(api);
      state.savedVersions = versionsOf(api);
    }
    if (signatureOf(api) === state.savedSignature) return;
    if (state.blocked) return;
    if (!state.saving) setStatus('Unsaved changes…');
    clearTimeout(state.timer);
    state.timer = setTimeout(() => save(), AUTOSAVE_MS);
  }, [save]);

  // Another writer's save: the version moves on without us. With nothing unsaved, take theirs; otherwise say so.
  useEffect(() => {
    const poll = setInterval(async () => {
      const state = doc.current;
      if (document.hidden || state.saving || state.blocked) return;
      try {
        const { version } = await service.readState();
        if (version <= state.version) return;
        const api = apiRef.current;
        const clean = state.savedSignature === null || signatureOf(api) === state.savedSignature;
        if (!clean) return setNewer(version);
        setStatus(`Someone else saved version ${await loadTheirs()}: it is what you see now`);
      } catch {
        // A missed poll is retried at the next tick.
      }
    }, POLL_MS);
    return () => clearInterval(poll);
  }, [loadTheirs]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (conflict && dialog && !dialog.open) dialog.showModal();
    if (!conflict && dialog?.open) dialog.close();
  }, [conflict]);

  const [panel, setPanel] = useState(null);
  /**
   * Ask AI and Redraw write a new version on the server: what is on the canvas is saved first (a redraw then keeps
   * the changes made by hand), the new version is loaded, and a conflict opens the same choice as a save.
   * `report` receives `{busy}`, then `{done, warnings}` or `{error, details}`; `how` says what made the version.
   */
  const writeOnServer = async (report, request, done, how) => {
    await save();
    if (doc.current.blocked || signatureOf(apiRef.current) !== doc.current.savedSignature) return report({ error: 'Save your changes first (see the status line).' });
    report({ busy: true });
    try {
      const result = await request(doc.current.version);
      await loadTheirs();
      report({ warnings: result.warnings, done: done(result) });
      setStatus(`Version ${result.version}, ${how}`);
    } catch (error) {
      if (error instanceof SaveConflict) {
        doc.current.blocked = true;
        setConflict({ theirs: error.currentVersion });
      }
      report({ error: error.message, details: error.details });
    }
  };
  const [asking, setAsking] = useState(null);
  const ask = (prompt) => writeOnServer(setAsking, (version) => service.ask(version, prompt), (result) => `Changed by ${result.model}: version ${result.version}`, 'changed by AI');
  // A parse error belongs to the code it was found in (`sent`): editing that code clears its mark.
  const [redrawing, setRedrawing] = useState(null);
  const redraw = async (code) => {
    await writeOnServer((state) => setRedrawing({ ...state, sent: code }), (version) => service.redraw(version, code, source.notation), (result) => `Redrawn: version ${result.version}`, 'redrawn from the code');
    fitOnOpen(apiRef.current);
  };

  // Restore: what is on the canvas is saved first, then the kept version is written back on top (If-Match) and shown.
  const restore = async (n) => {
    await save();
    if (doc.current.blocked) return;
    if (signatureOf(apiRef.current) !== doc.current.savedSignature) return setStatus('Not restored: save your changes first (see the status line)');
    try {
      const result = await service.restoreVersion(doc.current.version, n);
      await loadTheirs();
      setStatus(`Restored version ${n} as version ${result.version}`);
    } catch (error) {
      if (error instanceof SaveConflict) {
        doc.current.blocked = true;
        setConflict({ theirs: error.currentVersion });
        setStatus(`Not restored: someone else saved version ${error.currentVersion} first`);
      } else setStatus(`Not restored: ${error.message}`);
    }
  };

  const reloadTheirs = async () => setStatus(`Loaded version ${await loadTheirs()}; your unsaved changes were dropped`);
  const keepMine = () => {
    // Saved on top of theirs: their version stays in the document's history.
    doc.current.version = conflict.theirs;
    // Mine as a whole: not my edits merged into theirs.
    doc.current.savedVersions = null;
    doc.current.blocked = false;
    setConflict(null);
    save();
  };
  const saveCopy = async () => {
    try {
      const copy = await service.saveCopy(sceneOf(apiRef.current), `${root.dataset.name} (my copy)`.slice(0, 200));
      window.location.assign(copy.url);
    } catch (error) {
      setStatus(`Copy not saved: ${error.message}`);
    }
  };

  useEffect(() => {
    const warn = (event) => {
      if (apiRef.current && doc.current.savedSignature !== null && signatureOf(apiRef.current) !== doc.current.savedSignature) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return (
    <>
      {actionsSlot &&
        createPortal(
          <>
            {newer && (
              <span className="editor-newer" role="alert">
                Someone else saved version {newer}.{' '}
                <button type="button" className="button small" onClick={reloadTheirs}>
                  Load their version
                </button>
              </span>
            )}
            {source && (
              <button type="button" className="button small" aria-expanded={panel === 'code'} aria-controls="panel-code" onClick={() => setPanel(panel === 'code' ? null : 'code')}>
                Code
              </button>
            )}
            <button type="button" className="button small" aria-expanded={panel === 'history'} aria-controls="panel-history" onClick={() => setPanel(panel === 'history' ? null : 'history')}>
              History
            </button>
            {writable && (
              <button type="button" className="button small" aria-expanded={panel === 'icons'} aria-controls="panel-icons" onClick={() => setPanel(panel === 'icons' ? null : 'icons')}>
                Icons
              </button>
            )}
            {writable && (
              <button type="button" className="button small" aria-expanded={panel === 'ai'} aria-controls="panel-ai" onClick={() => setPanel(panel === 'ai' ? null : 'ai')}>
                Ask AI
              </button>
            )}
            {writable && (
              <button type="button" id="editor-save" className="button small primary" onClick={save}>
                Save now
              </button>
            )}
          </>,
          actionsSlot,
        )}
      <Excalidraw
        excalidrawAPI={(api) => {
          apiRef.current = api;
          // Scripts that drive the page (the browser tests) read where shapes are on screen, as Excalidraw's own
          // tests do with window.h; edits still go through the canvas like a person's.
          window.drawbridgeEditor = api;
        }}
        initialData={{ elements: initial.scene.elements, files: initial.scene.files, appState: { viewBackgroundColor: initial.scene.appState?.viewBackgroundColor ?? '#ffffff' }, scrollToContent: true }}
        onChange={onChange}
        viewModeEnabled={!writable}
        name={initial.name}
        UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false, export: false } }}
      >
        <MainMenu>
          <MainMenu.DefaultItems.SaveAsImage />
          <MainMenu.DefaultItems.ClearCanvas />
          <MainMenu.DefaultItems.ChangeCanvasBackground />
          <MainMenu.DefaultItems.ToggleTheme />
          <MainMenu.DefaultItems.Help />
        </MainMenu>
      </Excalidraw>
      {panel === 'icons' && <IconPanel onPlace={(icon, point) => setStatus(placeIcon(apiRef.current, icon, point))} onClose={() => setPanel(null)} />}
      {panel === 'history' && <HistoryPanel service={service} writable={writable} currentVersion={shownVersion} onRestore={restore} onClose={() => setPanel(null)} />}
      {panel === 'ai' && <AskPanel asking={asking} onAsk={ask} onClose={() => setPanel(null)} />}
      {panel === 'code' && source && <CodePanel key={source.code} source={source} redrawing={redrawing} onRedraw={redraw} onClose={() => setPanel(null)} />}
      <dialog ref={dialogRef} className="editor-conflict" aria-labelledby="conflict-title" onCancel={(event) => event.preventDefault()}>
        <h2 id="conflict-title">Someone else saved first</h2>
        <p>
          While you were editing, version {conflict?.theirs} was saved by someone else. Your changes are still on the canvas. What should
          happen?
        </p>
        <div className="actions">
          <button type="button" className="button" onClick={reloadTheirs}>
            Reload theirs
          </button>
          <button type="button" className="button primary" onClick={keepMine}>
            Keep mine as a new version
          </button>
          <button type="button" className="button" onClick={saveCopy}>
            Save mine as a copy
          </button>
        </div>
      </dialog>
    </>
  );
}

/** Where icons are dragged from: a custom type, so Excalidraw's own drop handling (files, text) leaves it alone. */
const ICON_DRAG_TYPE = 'application/x-drawbridge-icon';
/** Shapes an icon can sit on: Excalidraw's boxes; our other shapes arrive as these or as lines and keep their own. */
const ICON_HOLDERS = new Set(['rectangle', 'ellipse', 'diamond']);

/**
 * An icon dropped on a shape sets that shape's iconRef; dropped on empty canvas (or clicked with nothing selected) it
 * becomes a node-sized box named after the icon. The iconRef rides in customData.drawbridge like any native field,
 * and the server stamps the icon on save exactly as for the API (node-sized boxes only, label below the icon).
 */
function placeIcon(api, icon, clientPoint) {
  const appState = api.getAppState();
  const point = clientPoint ? viewportCoordsToSceneCoords(clientPoint, appState) : undefined;
  const shapes = api.getSceneElements().filter((e) => ICON_HOLDERS.has(e.type));
  const target = point
    ? [...shapes].reverse().find((e) => point.x >= e.x && point.x <= e.x + e.width && point.y >= e.y && point.y <= e.y + e.height)
    : shapes.find((e) => appState.selectedElementIds[e.id]);
  const elements = api.getSceneElementsIncludingDeleted();
  if (target) {
    const customData = { ...target.customData, drawbridge: { ...target.customData?.drawbridge, iconRef: icon.ref } };
    api.updateScene({ elements: elements.map((e) => (e.id === target.id ? newElementWith(e, { customData }) : e)), captureUpdate: CaptureUpdateAction.IMMEDIATELY });
    return `Icon “${icon.label}” set on the shape; it is drawn when saved`;
  }
  const at = point ?? viewportCoordsToSceneCoords({ clientX: appState.offsetLeft + appState.width / 2, clientY: appState.offsetTop + appState.height / 2 }, appState);
  const added = convertToExcalidrawElements([
    { type: 'rectangle', x: at.x - 70, y: at.y - 55, width: 140, height: 110, label: { text: icon.label }, customData: { drawbridge: { iconRef: icon.ref } } },
  ]);
  api.updateScene({ elements: [...elements, ...added], captureUpdate: CaptureUpdateAction.IMMEDIATELY });
  return `“${icon.label}” added; its icon is drawn when saved`;
}

const VENDORS = [
  ['', 'Every library'],
  ['aws', 'AWS'],
  ['azure', 'Azure'],
  ['gcp', 'Google Cloud'],
  ['kubernetes', 'Kubernetes'],
];

/** Icons: search our libraries, then drag a result onto a shape or the canvas (or press it: onto the selection). */
function IconPanel({ onPlace, onClose }) {
  const [query, setQuery] = useState('');
  const [vendor, setVendor] = useState('');
  const [found, setFound] = useState({ items: [] });
  useEffect(() => {
    if (!query.trim()) return setFound({ items: [] });
    const timer = setTimeout(() => service.searchIcons(query, vendor).then(setFound, (error) => setFound({ items: [], hint: error.message })), 250);
    return () => clearTimeout(timer);
  }, [query, vendor]);
  // Drops land on the canvas: caught before Excalidraw's own handler, which would read them as files.
  useEffect(() => {
    const drop = (event) => {
      const data = event.dataTransfer?.getData(ICON_DRAG_TYPE);
      if (!data) return;
      event.preventDefault();
      event.stopPropagation();
      onPlace(JSON.parse(data), { clientX: event.clientX, clientY: event.clientY });
    };
    const over = (event) => {
      if (event.dataTransfer?.types.includes(ICON_DRAG_TYPE)) event.preventDefault();
    };
    root.addEventListener('drop', drop, true);
    root.addEventListener('dragover', over, true);
    return () => {
      root.removeEventListener('drop', drop, true);
      root.removeEventListener('dragover', over, true);
    };
  }, [onPlace]);
  return (
    <aside className="editor-panel" id="panel-icons" aria-labelledby="panel-icons-title">
      <PanelHead id="panel-icons-title" onClose={onClose}>
        Icons
      </PanelHead>
      <div className="form">
        <label htmlFor="icon-query">Search icons</label>
        <input id="icon-query" type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="database, lambda, ingress…" autoComplete="off" />
        <label htmlFor="icon-vendor">Icon library</label>
        <select id="icon-vendor" value={vendor} onChange={(event) => setVendor(event.target.value)}>
          {VENDORS.map(([id, title]) => (
            <option key={id} value={id}>
              {title}
            </option>
          ))}
        </select>
      </div>
      <p className="help">Drag an icon onto a shape or the canvas, or press it to put it on the selected shape.</p>
      {found.hint && <p className="help">{found.hint}</p>}
      <ul className="icon-results">
        {found.items.map((icon) => (
          <li key={icon.ref}>
            <button
              type="button"
              className="icon-result"
              draggable
              onDragStart={(event) => {
                event.dataTransfer.setData(ICON_DRAG_TYPE, JSON.stringify(icon));
                event.dataTransfer.effectAllowed = 'copy';
              }}
              onClick={() => onPlace(icon)}
              title={icon.ref}
            >
              <img src={`/icons/${encodeURIComponent(icon.library)}/${encodeURIComponent(icon.label)}.svg`} alt="" width="32" height="32" />
              <span>{icon.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/**
 * The code a diagram was drawn from, in a textarea with a line-number gutter (lines do not wrap, so each gutter
 * number stands beside its line); a parse error marks its line. Redraw keeps what was changed by hand on the canvas.
 */
function CodePanel({ source, redrawing, onRedraw, onClose }) {
  const [code, setCode] = useState(source.code);
  const gutterRef = useRef(null);
  const textRef = useRef(null);
  const lines = code.split('\n').length;
  // The error belongs to the code it was found in: editing clears the mark.
  const at = redrawing?.details;
  const errorLine = at?.line !== undefined && redrawing.sent === code ? at.line : undefined;
  // A new error puts the caret at its line and column, so the person can fix it at once (typing does not move it).
  useEffect(() => {
    const text = textRef.current;
    if (at?.line === undefined || !text) return;
    const start = text.value.split('\n').slice(0, at.line - 1).reduce((offset, line) => offset + line.length + 1, 0) + Math.max(0, (at.column ?? 1) - 1);
    text.focus();
    text.setSelectionRange(start, start);
    text.scrollTop = Math.max(0, (at.line - 3) * parseFloat(getComputedStyle(text).lineHeight));
  }, [at]);
  return (
    <aside className="editor-panel code-panel" id="panel-code" aria-labelledby="panel-code-title">
      <PanelHead id="panel-code-title" onClose={onClose}>
        Code · {source.notation}
      </PanelHead>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          onRedraw(code);
        }}
      >
        <label htmlFor="code-text">The code this diagram is drawn from</label>
        <div className="code-editor">
          <div className="code-gutter" ref={gutterRef} aria-hidden="true">
            {Array.from({ length: lines }, (_, index) => (
              <span key={index} className={index + 1 === errorLine ? 'code-error-line' : undefined}>
                {index + 1}
              </span>
            ))}
          </div>
          <textarea
            id="code-text"
            ref={textRef}
            value={code}
            wrap="off"
            spellCheck={false}
            readOnly={!writable}
            aria-invalid={errorLine !== undefined}
            aria-describedby={redrawing?.error ? 'code-error' : undefined}
            onChange={(event) => setCode(event.target.value)}
            onScroll={(event) => {
              if (gutterRef.current) gutterRef.current.scrollTop = event.target.scrollTop;
            }}
          />
        </div>
        <Outcome of={redrawing} errorId="code-error" />
        {writable && (
          <button type="submit" id="code-redraw" className="button primary" disabled={redrawing?.busy || code.trim() === ''}>
            {redrawing?.busy ? 'Redrawing…' : 'Redraw'}
          </button>
        )}
        <p className="help">Redraw keeps what you moved, recoloured or added by hand where its element is still in the code.</p>
      </form>
    </aside>
  );
}

/** What a panel's request came to, announced: `{done}`, `{error}` and the server's `warnings`. */
function Outcome({ of, errorId }) {
  return (
    <div role="status" aria-live="polite">
      {of?.done && <p className="help">{of.done}</p>}
      {of?.error && (
        <p className="alert error" id={errorId}>
          {of.error}
        </p>
      )}
      {of?.warnings?.length > 0 && (
        <ul className="editor-warnings">
          {of.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Ask AI: a prompt that changes the open diagram, or the way to set a provider up. */
function AskPanel({ asking, onAsk, onClose }) {
  const [prompt, setPrompt] = useState('');
  return (
    <aside className="editor-panel" id="panel-ai" aria-labelledby="panel-ai-title">
      <PanelHead id="panel-ai-title" onClose={onClose}>
        Ask AI
      </PanelHead>
      {aiReady ? (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (prompt.trim()) onAsk(prompt);
          }}
        >
          <label htmlFor="ai-prompt">What should change?</label>
          <textarea id="ai-prompt" value={prompt} onChange={(event) => setPrompt(event.target.value)} placeholder="Add a Redis cache between the API and the database" rows={4} />
          <button type="submit" className="button primary" disabled={asking?.busy}>
            {asking?.busy ? 'Asking…' : 'Change the diagram'}
          </button>
          <Outcome of={asking} />
        </form>
      ) : (
        <p>
          No AI provider is set up for you or this workspace. <a href="/settings/ai">Set up AI</a> with your own key, then ask here.
        </p>
      )}
    </aside>
  );
}

service.loadScene().then(
  (initial) => createRoot(root).render(<EditorApp initial={initial} />),
  (error) => {
    statusLine.textContent = `The diagram could not be opened: ${error.message}`;
  },
);
