// Excalidraw reads where its fonts live when its modules are first evaluated, and a bundle's shared chunks are
// evaluated before the entry's own code: so the path is set here, and the editor is loaded after it.
window.EXCALIDRAW_ASSET_PATH = '/assets/editor/';
import('./app.jsx');
