/** A side panel's heading (its `id` labels the panel) and its Close button. */
export function PanelHead({ id, onClose, children }) {
  return (
    <div className="editor-panel-head">
      <h2 id={id}>{children}</h2>
      <button type="button" className="button small ghost" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
