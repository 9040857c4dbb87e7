// The canvas editor: Excalidraw as a client-side island on /diagrams/:id/edit. The scene arrives through our
// `.excalidraw` export and every save goes back through our import as one versioned write (If-Match), so what
// Excalidraw cannot draw natively rides unchanged in customData.
import { CaptureUpdateAction, Excalidraw, getSceneVersion, MainMenu, restoreElements } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createService, SaveConflict } from './service.js';
import './editor.css';

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
  const elements = api.getSceneElements();
  const files = api.getFiles();
  const used = Object.fromEntries(elements.filter((e) => e.fileId && files[e.fileId]).map((e) => [e.fileId, files[e.fileId]]));
  return { type: 'excalidraw', version: 2, source: 'drawbridge-editor', elements, appState: { viewBackgroundColor: api.getAppState().viewBackgroundColor, gridSize: null }, files: used };
}

/** A wide diagram opens whole (zoomed out to fit); a small one at 100 %, centred, not blown up. */
const fitOnOpen = (api) => api.scrollToContent(api.getSceneElements(), { fitToViewport: true, viewportZoomFactor: 0.9, maxZoom: 1 });

const signatureOf = (api) => getSceneVersion(api.getSceneElementsIncludingDeleted());

function EditorApp({ initial }) {
  const apiRef = useRef(null);
  // Mutable save state: the version our scene is based on, the scene signature last saved, one save at a time.
  // `blocked` while the conflict choice is open: nothing saves until the person chooses.
  const doc = useRef({ version: initial.version, savedSignature: null, saving: false, blocked: false, timer: 0 });
  const [status, setStatus] = useState(writable ? `Version ${initial.version} · changes save themselves` : `Read-only: your role here is ${root.dataset.role}`);
  const [conflict, setConflict] = useState(null);
  const [newer, setNewer] = useState(null);
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
    doc.current.savedSignature = signatureOf(api);
    doc.current.blocked = false;
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
      const result = await service.saveScene(state.version, sceneOf(api));
      state.version = result.version;
      state.savedSignature = signature;
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
    if (state.savedSignature === null) state.savedSignature = signatureOf(api);
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
  const [asking, setAsking] = useState(null);
  const ask = async (prompt) => {
    // What is on the canvas is saved first: the model changes the version everyone can see.
    await save();
    if (doc.current.blocked || signatureOf(apiRef.current) !== doc.current.savedSignature) return setAsking({ error: 'Save your changes first (see the status line).' });
    setAsking({ busy: true });
    try {
      const result = await service.ask(doc.current.version, prompt);
      await loadTheirs();
      setAsking({ warnings: result.warnings, done: `Changed by ${result.model}: version ${result.version}` });
      setStatus(`Version ${result.version}, changed by AI`);
    } catch (error) {
      if (error instanceof SaveConflict) {
        doc.current.blocked = true;
        setConflict({ theirs: error.currentVersion });
      }
      setAsking({ error: error.message });
    }
  };

  const reloadTheirs = async () => setStatus(`Loaded version ${await loadTheirs()}; your unsaved changes were dropped`);
  const keepMine = () => {
    // Saved on top of theirs: their version stays in the document's history.
    doc.current.version = conflict.theirs;
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
      {panel === 'ai' && <AskPanel asking={asking} onAsk={ask} onClose={() => setPanel(null)} />}
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

/** Ask AI: a prompt that changes the open diagram, or the way to set a provider up. */
function AskPanel({ asking, onAsk, onClose }) {
  const [prompt, setPrompt] = useState('');
  return (
    <aside className="editor-panel" id="panel-ai" aria-labelledby="panel-ai-title">
      <div className="editor-panel-head">
        <h2 id="panel-ai-title">Ask AI</h2>
        <button type="button" className="button small ghost" onClick={onClose}>
          Close
        </button>
      </div>
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
          <div role="status" aria-live="polite">
            {asking?.done && <p className="help">{asking.done}</p>}
            {asking?.error && <p className="alert error">{asking.error}</p>}
            {asking?.warnings?.length > 0 && (
              <ul className="editor-warnings">
                {asking.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
          </div>
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
