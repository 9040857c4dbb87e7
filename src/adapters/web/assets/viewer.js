// Zoom, pan and fit for the diagram viewer: a CSS transform on the drawing; the server's SVG is left as it is.
(() => {
  const stage = document.getElementById('stage');
  const drawing = document.getElementById('drawing');
  const level = document.getElementById('zoom-level');
  if (!stage || !drawing) return;
  let scale = 1;
  let x = 0;
  let y = 0;
  const MIN = 0.05;
  const MAX = 8;
  const apply = () => {
    drawing.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    if (level) level.textContent = `${Math.round(scale * 100)}%`;
  };
  const size = () => ({ w: drawing.naturalWidth || drawing.width || 1, h: drawing.naturalHeight || drawing.height || 1 });
  const fit = () => {
    const { w, h } = size();
    const box = stage.getBoundingClientRect();
    scale = Math.min(MAX, Math.max(MIN, Math.min((box.width - 32) / w, (box.height - 32) / h, 2)));
    x = (box.width - w * scale) / 2;
    y = (box.height - h * scale) / 2;
    apply();
  };
  // Zoom about a point of the stage (the pointer, or the centre), so what is under it stays there.
  const zoomAt = (factor, px, py) => {
    const next = Math.min(MAX, Math.max(MIN, scale * factor));
    x = px - ((px - x) * next) / scale;
    y = py - ((py - y) * next) / scale;
    scale = next;
    apply();
  };
  const centre = () => {
    const box = stage.getBoundingClientRect();
    return [box.width / 2, box.height / 2];
  };
  const actions = {
    in: () => zoomAt(1.25, ...centre()),
    out: () => zoomAt(0.8, ...centre()),
    fit,
    actual: () => {
      const [cx, cy] = centre();
      zoomAt(1 / scale, cx, cy);
    },
  };
  document.querySelectorAll('[data-zoom]').forEach((button) => button.addEventListener('click', () => actions[button.getAttribute('data-zoom')]?.()));
  stage.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const box = stage.getBoundingClientRect();
      zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
    },
    { passive: false },
  );
  // One pointer pans; two (a pinch on a phone) zoom about their midpoint and pan with it.
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  const pinchState = () => {
    const [a, b] = [...pointers.values()];
    const box = stage.getBoundingClientRect();
    return { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, mx: (a.x + b.x) / 2 - box.left, my: (a.y + b.y) / 2 - box.top };
  };
  stage.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    stage.setPointerCapture(event.pointerId);
    if (pointers.size === 2) {
      drag = null;
      pinch = pinchState();
    } else if (pointers.size === 1) {
      drag = { px: event.clientX, py: event.clientY, x, y };
      stage.classList.add('dragging');
    }
  });
  stage.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && pointers.size === 2) {
      const now = pinchState();
      x += now.mx - pinch.mx;
      y += now.my - pinch.my;
      zoomAt(now.distance / pinch.distance, now.mx, now.my);
      pinch = now;
      return;
    }
    if (!drag) return;
    x = drag.x + event.clientX - drag.px;
    y = drag.y + event.clientY - drag.py;
    apply();
  });
  const end = (event) => {
    pointers.delete(event.pointerId);
    pinch = null;
    drag = null;
    stage.classList.remove('dragging');
    // The finger left on the screen after a pinch goes on panning from where it is.
    const [rest] = [...pointers.values()];
    if (rest) drag = { px: rest.x, py: rest.y, x, y };
  };
  stage.addEventListener('pointerup', end);
  stage.addEventListener('pointercancel', end);
  stage.addEventListener('keydown', (event) => {
    const step = 40;
    const keys = { ArrowLeft: () => (x += step), ArrowRight: () => (x -= step), ArrowUp: () => (y += step), ArrowDown: () => (y -= step), '+': actions.in, '=': actions.in, '-': actions.out, '0': fit };
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    act();
    apply();
  });
  if (drawing.complete && drawing.naturalWidth) fit();
  else drawing.addEventListener('load', fit, { once: true });
  window.addEventListener('resize', fit);
})();
