/** A plausible architecture scene of `n` elements: boxes in a grid, every other one linked to its neighbour. */
export function benchScene(n: number): Record<string, unknown>[] {
  const elements: Record<string, unknown>[] = [];
  const boxes = Math.ceil(n * 0.6);
  for (let i = 0; i < boxes; i++) {
    elements.push({ id: `n${i}`, type: i % 5 === 0 ? 'cylinder' : 'rectangle', x: (i % 10) * 200, y: Math.floor(i / 10) * 140, width: 140, height: 70, text: `Service ${i}` });
  }
  for (let i = 0; elements.length < n; i++) {
    const from = i % boxes;
    const to = (i + 1) % boxes;
    const a = elements[from]!;
    const b = elements[to]!;
    elements.push({
      id: `e${i}`,
      type: 'arrow',
      points: [
        { x: (a.x as number) + 140, y: (a.y as number) + 35 },
        { x: b.x as number, y: (b.y as number) + 35 },
      ],
      startBinding: { elementId: a.id, focus: { x: 1, y: 0.5 } },
      endBinding: { elementId: b.id, focus: { x: 0, y: 0.5 } },
    });
  }
  return elements;
}
