/**
 * Every bound on input, defined once: validation, the from-code pipeline, the renderer, the OpenAPI document, the
 * capabilities guide and the README's "Limits" table read them. Each keeps one request from taking the service from
 * everyone else; each is far above what a real diagram needs.
 */
export const LIMITS = {
  requestBodyBytes: 10 * 1024 * 1024,
  elementsPerDocument: 20_000,
  /** Points of one line, arrow or freedraw stroke; a minute of freehand drawing in Excalidraw is about 2,000. */
  pointsPerElement: 10_000,
  pointsPerDocument: 200_000,
  /** x, y and every point coordinate lie within ±coordinateMax; widths and heights are at most sizeMax. */
  coordinateMax: 1_000_000,
  sizeMax: 1_000_000,
  nameLength: 200,
  /** A prompt for AI generation, in characters. */
  promptLength: 8_000,
  pageSizeDefault: 50,
  pageSizeMax: 100,
  /** Code for diagram-from-code, in UTF-8 bytes and lines. */
  codeBytes: 1024 * 1024,
  codeLines: 50_000,
  /** A graph read from code, before layout. */
  graphNodes: 1_000,
  graphEdges: 5_000,
  nestingDepth: 50,
  /** A PNG render: pixels on its longer side, and in all. */
  renderSidePx: 16_384,
  renderPixels: 32_000_000,
} as const;
