// elkjs ships typings for its readable worker only: the minified one exports the same in-process worker.
declare module 'elkjs/lib/elk-worker.min.js' {
  /** What the worker answers: the laid-out graph, or the error thrown while laying it out. */
  export interface ElkAnswer {
    id: number;
    data?: unknown;
    error?: unknown;
  }
  /** elkjs's in-process stand-in for a web worker: `dispatcher` runs a command at once and answers via `onmessage`. */
  export class Worker {
    dispatcher: { saveDispatch(event: { data: Record<string, unknown> }): void };
    onmessage: (event: { data: ElkAnswer }) => void;
  }
}
