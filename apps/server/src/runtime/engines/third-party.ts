// Third-party conversational frameworks: the player connects to the provider itself; the server
// issues what it needs. ElevenLabs Conversational AI: a signed WebSocket URL or a WebRTC
// conversation token (private agents, with the stored API key); public agents need only their id.
// Agora TEN: an RTC token for a fresh channel. Text typed in the player still reaches the agent
// through the provider's own connection, so turn() has nothing to say.
import { randomBytes, randomInt } from 'node:crypto';
import type { AgoraTenConfig, ElevenLabsAgentConfig, Engine, EngineDeps, EngineEvent, OpenInfo } from '../types';
import { buildRtcToken } from './agora-token';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';

export class ElevenLabsAgentEngine implements Engine {
  readonly kind = 'elevenlabs' as const;
  constructor(
    private readonly config: ElevenLabsAgentConfig,
    private readonly deps: EngineDeps,
  ) {}

  async open(): Promise<OpenInfo> {
    const c = this.config;
    if (!c.apiKey) return { connect: { provider: 'elevenlabs', agentId: c.agentId, connectionType: c.connectionType } };
    const base = c.apiBase ?? 'https://api.elevenlabs.io';
    const path = c.connectionType === 'webrtc' ? 'v1/convai/conversation/token' : 'v1/convai/conversation/get-signed-url';
    const res = await this.deps.outbound.fetch(`${joinUrl(base, path)}?agent_id=${encodeURIComponent(c.agentId)}`, {
      headers: { 'xi-api-key': c.apiKey },
    });
    if (res.status !== 200) throw await failure('ElevenLabs', res, [c.apiKey]);
    const body = res.json<{ signed_url?: string; token?: string }>();
    if (c.connectionType === 'webrtc') {
      if (!body.token) throw new ProviderError('ElevenLabs', 'no conversation token in the answer');
      return { connect: { provider: 'elevenlabs', agentId: c.agentId, conversationToken: body.token, connectionType: 'webrtc' } };
    }
    if (!body.signed_url) throw new ProviderError('ElevenLabs', 'no signed URL in the answer');
    return { connect: { provider: 'elevenlabs', agentId: c.agentId, signedUrl: body.signed_url, connectionType: 'websocket' } };
  }

  async *turn(): AsyncIterable<EngineEvent> {
    // The provider's own connection carries the conversation.
  }

  async close(): Promise<void> {}
}

export class AgoraTenEngine implements Engine {
  readonly kind = 'agora_ten' as const;
  constructor(
    private readonly config: AgoraTenConfig,
    private readonly deps: EngineDeps,
  ) {}

  async open(): Promise<OpenInfo> {
    const channel = `parla-${randomBytes(8).toString('hex')}`;
    const uid = randomInt(1, 2 ** 31 - 1);
    const token = buildRtcToken({
      appId: this.config.appId,
      appCertificate: this.config.appCertificate,
      channel,
      uid,
      issuedAt: Math.floor(this.deps.now().getTime() / 1000),
      ttlSeconds: this.config.ttlSeconds ?? 3600,
    });
    return { connect: { provider: 'agora_ten', appId: this.config.appId, channel, uid, token } };
  }

  async *turn(): AsyncIterable<EngineEvent> {}

  async close(): Promise<void> {}
}
