// Small behaviours for server-rendered pages; every page works without them.

// Copy buttons: <button data-copy="element-id"> copies that element's text.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const text = source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement ? source.value : (source.textContent ?? '');
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Plain-HTTP installs have no async clipboard: select the text and use the older command.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    document.execCommand('copy');
  }
  const label = button.textContent;
  button.textContent = 'Copied';
  button.classList.add('done');
  setTimeout(() => {
    button.textContent = label;
    button.classList.remove('done');
  }, 1500);
});

// Forms that ask before they act: <form data-confirm="Delete this diagram?">.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// A file input that fills a textarea (import of a .excalidraw file without a multipart upload).
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== 'file' || !input.dataset.fill) return;
  const target = document.getElementById(input.dataset.fill);
  const file = input.files?.[0];
  if (!target || !file) return;
  file.text().then((text) => {
    target.value = text;
    const name = document.getElementById(input.dataset.name ?? '');
    if (name instanceof HTMLInputElement && !name.value) name.value = file.name.replace(/\.excalidraw(\.json)?$|\.json$/i, '');
  });
});

// Files dropped on the workspace page become diagrams: an .excalidraw file is imported, anything else is drawn
// from code. The page's hidden form carries it, so the server's answer is the usual redirect to the new diagram.
document.querySelectorAll('[data-drop-into]').forEach((zone) => {
  const form = document.getElementById(zone.getAttribute('data-drop-into'));
  if (!(form instanceof HTMLFormElement)) return;
  const hasFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  zone.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    zone.classList.add('dropping');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
  zone.addEventListener('drop', async (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    zone.classList.remove('dropping');
    const file = event.dataTransfer.files[0];
    if (!file) return;
    const text = await file.text();
    const excalidraw = /\.excalidraw(\.json)?$/i.test(file.name) || /^\s*\{[\s\S]*"type"\s*:\s*"excalidraw"/.test(text.slice(0, 200));
    form.elements.kind.value = excalidraw ? 'excalidraw' : 'code';
    form.elements[excalidraw ? 'scene' : 'code'].value = text;
    form.elements.fileName.value = file.name;
    form.submit();
  });
});
