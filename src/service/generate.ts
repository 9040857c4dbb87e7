import { answerProblems, answerToGraph, type DiagramAnswer, type DiagramKind } from '../core/ai/answer.js';
import { editOperations, editProblems, showDiagram } from '../core/ai/edit.js';
import { editDiagramMessage, newDiagramMessage, retryMessage, SYSTEM_PROMPT } from '../core/ai/prompt.js';
import { AppError } from '../core/errors.js';
import type { IconVendor } from '../core/icons/index.js';
import type { Element } from '../core/scene/intake.js';
import { type AiCredentials, AiSettingsService } from './ai-settings.js';
import { type DiagramService, type StoredDocument, versionMismatch } from './diagrams.js';
import { type Principal, requireScope } from './principal.js';

export type { AiCredentials } from './ai-settings.js';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One message of the conversation with the model. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What the model answered: a schema-valid answer, or the text it gave and why it does not fit. */
export type ModelAnswer = { ok: true; answer: DiagramAnswer; text: string; usage: TokenUsage } | { ok: false; text: string; problems: string[]; usage: TokenUsage };

/** The port to the account's model (infra/ai/models.ts speaks each provider's wire format). */
export interface DiagramModel {
  answer(credentials: AiCredentials, system: string, messages: ChatMessage[]): Promise<ModelAnswer>;
}

export interface GenerateInput {
  workspaceId?: string | undefined;
  prompt: string;
  folderId?: string | undefined;
  name?: string | undefined;
  vendor?: IconVendor | undefined;
  kind?: DiagramKind | undefined;
  /** Edit this document instead of creating one. */
  documentId?: string | undefined;
  expectedVersion?: number | undefined;
}

export interface GenerateResult {
  document: StoredDocument;
  warnings: string[];
  model: string;
  provider: string;
  usage: TokenUsage;
}

/**
 * Natural language to diagram with the account's own model: the model answers with structure (diagramAnswer), which
 * is checked, laid out and stamped like a graph read from code. An answer that does not fit is sent back once with
 * what is wrong; then the request fails and nothing is stored.
 */
export class GenerationService {
  constructor(
    private readonly settings: AiSettingsService,
    private readonly model: DiagramModel,
    private readonly diagrams: DiagramService,
  ) {}

  /**
   * One small request to the caller's own model (the settings page's "test"), so a wrong key, model or URL shows
   * now rather than at the first drawing. Provider errors come back as the same AppErrors a generation gets.
   */
  async testSettings(p: Principal): Promise<{ provider: string; model: string; fits: boolean; usage: TokenUsage }> {
    const credentials = await this.settings.ownCredentials(p);
    const answer = await this.model.answer(credentials, SYSTEM_PROMPT, [{ role: 'user', content: 'Draw two boxes, "client" and "server", and an arrow from client to server.' }]);
    return { provider: credentials.provider, model: credentials.model, fits: answer.ok, usage: answer.usage };
  }

  async generate(p: Principal, input: GenerateInput): Promise<GenerateResult> {
    requireScope(p, 'ai:generate');
    requireScope(p, 'diagrams:write');
    const current = input.documentId ? await this.diagrams.getDocument(p, input.documentId) : undefined;
    // A stale edit is refused before the model is paid to answer it.
    if (current && input.expectedVersion !== undefined && current.summary.version !== input.expectedVersion) throw versionMismatch(current.summary.version, input.expectedVersion);
    const currentElements = current ? (JSON.parse(current.elementsJson) as Element[]) : [];
    const shown = current ? showDiagram(currentElements) : undefined;
    const workspaceId = current?.summary.workspaceId ?? input.workspaceId;
    if (!workspaceId) throw new AppError('validation_failed', 'workspaceId is required to create a diagram (or give documentId to edit one)');
    if (current && input.workspaceId && input.workspaceId !== workspaceId) {
      throw new AppError('validation_failed', `document ${input.documentId} is in workspace ${workspaceId}, not ${input.workspaceId}`);
    }
    // Authorisation before the key: a caller who may not write here learns nothing of its keys and spends nothing.
    await this.diagrams.checkWritable(p, workspaceId, current ? undefined : input.folderId);
    const credentials = await this.settings.credentialsFor(p, workspaceId);

    const vendor = input.vendor ?? current?.summary.vendor ?? undefined;
    const first = shown ? editDiagramMessage(input.prompt, shown.shown, vendor) : newDiagramMessage(input.prompt, input.kind);
    const messages: ChatMessage[] = [{ role: 'user', content: first }];
    const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    let answer: DiagramAnswer | undefined;
    for (let attempt = 0; attempt < 2 && answer === undefined; attempt++) {
      const reply = await this.model.answer(credentials, SYSTEM_PROMPT, messages);
      usage.inputTokens += reply.usage.inputTokens;
      usage.outputTokens += reply.usage.outputTokens;
      const problems = !reply.ok ? reply.problems : answerProblems(reply.answer);
      if (reply.ok && problems.length === 0 && shown) problems.push(...editProblems(reply.answer, currentElements, shown));
      if (reply.ok && problems.length === 0) answer = reply.answer;
      else if (attempt === 0) messages.push({ role: 'assistant', content: reply.text || '(no answer)' }, { role: 'user', content: retryMessage(problems) });
      else throw new AppError('ai_invalid_output', `the model's answer was not a usable diagram, twice: ${problems.slice(0, 5).join('; ')}`, { problems });
    }

    const graph = answerToGraph(answer!);
    const name = input.name ?? current?.summary.name ?? answer!.title ?? 'Generated diagram';
    // The history names the model as the door of what it drew, whichever door asked for it.
    const written = await this.diagrams.createFromGraph(
      { ...p, door: 'ai' },
      {
        workspaceId,
        name,
        folderId: input.folderId,
        vendor,
        replace:
          current && shown
            ? {
                id: current.summary.id,
                expectedVersion: input.expectedVersion,
                note: 'AI edit',
                // A sequence is its order of messages: redrawn whole, not merged into the old rows.
                merge: (drawn) => (answer!.kind === 'sequence' ? { elements: drawn.elements, warnings: [] } : editOperations(currentElements, shown, answer!, drawn)),
              }
            : undefined,
      },
      graph,
    );
    // The caller sent a prompt, not operations: an operation's warning is said without its index.
    const warnings = written.warnings.map((w) => w.replace(/^operations\[\d+\]: /, ''));
    return { document: written.document, warnings, model: credentials.model, provider: credentials.provider, usage };
  }
}
