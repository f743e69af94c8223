// The chat messages sent to a model: instructions and memory, the retrieved knowledge with its
// sources, the conversation so far (when the avatar sends history) and the user's message.
import type { ChatMessage, RetrievedChunk } from '../types';

export interface PromptParts {
  instructions: string;
  memory?: string;
  context: RetrievedChunk[];
  knowledgeSearched?: boolean;
  history: ChatMessage[];
  sendHistory: boolean;
  text: string;
}

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export const NO_RELEVANT_KNOWLEDGE =
  'The knowledge base has no relevant information for this message. If the answer depends on facts about this business or its documents, say that you do not know rather than guessing.';

/** The knowledge block: numbered chunks, each with its source, most relevant first; when the
 *  knowledge base was searched and nothing cleared the relevance cut-off, that is said instead. */
export function knowledgeBlock(context: RetrievedChunk[], searched = false): string {
  if (!context.length) return searched ? NO_RELEVANT_KNOWLEDGE : '';
  const lines = context.map((c, i) => `[${i + 1}] (source: ${c.source})\n${c.text.trim()}`);
  return [
    'Answer using the following knowledge when it is relevant. If the knowledge does not contain the answer, say so briefly.',
    ...lines,
  ].join('\n\n');
}

export function buildMessages(p: PromptParts): OpenAiMessage[] {
  const system = [
    p.instructions.trim(),
    p.memory?.trim() ? `Memory:\n${p.memory.trim()}` : '',
    knowledgeBlock(p.context, p.knowledgeSearched),
  ]
    .filter(Boolean)
    .join('\n\n');
  const messages: OpenAiMessage[] = [];
  if (system) messages.push({ role: 'system', content: system });
  if (p.sendHistory) for (const m of p.history) messages.push({ role: m.role, content: m.content });
  messages.push({ role: 'user', content: p.text });
  return messages;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
