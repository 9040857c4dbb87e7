// Express ships no typings, and only the MCP SDK's OAuth handlers run on it here (routes/oauth.ts): the little of it
// this service and those handlers' signatures touch.
declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export interface Request extends IncomingMessage {
    [key: string]: unknown;
  }
  export interface Response extends ServerResponse {
    redirect(status: number, url: string): void;
    [key: string]: unknown;
  }
  export type RequestHandler = (req: Request, res: Response, next?: (error?: unknown) => void) => void;
  export interface Application extends RequestHandler {
    use(path: string, handler: RequestHandler): Application;
    set(setting: string, value: unknown): Application;
    disable(setting: string): Application;
  }
  function express(): Application;
  export default express;
}
