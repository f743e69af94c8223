// POST /api/third_party/agent_check: the ElevenLabs agent's status (spec 3 §4).
import type { AgentCheckRequest, AgentCheckResponse } from '@parla/shared/schemas/brain';
import { apiRequest } from '../../../lib/api-client';

export function checkAgent(body: AgentCheckRequest, signal?: AbortSignal): Promise<AgentCheckResponse> {
  return apiRequest<AgentCheckResponse>('/api/third_party/agent_check', { body, signal });
}
