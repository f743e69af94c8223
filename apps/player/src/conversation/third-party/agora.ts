// Agora TEN: the server issued an RTC token (AccessToken2) for a fresh channel; the provider's
// own SDK (agora-rtc-sdk-ng, loaded only here) joins it, publishes the microphone and plays the
// agent's audio. The mouth follows the agent track's level; the agent's transcripts (RTC stream
// messages) fill the chat. A TEN agent listens only: typed text has no way to reach it.
import AgoraRTC, { type IAgoraRTCClient, type IMicrophoneAudioTrack, type IRemoteAudioTrack } from 'agora-rtc-sdk-ng';
import { LevelMouth } from '../../lipsync/level';
import type { ConnectInfo, ProviderEvents, ProviderOptions, ProviderSession } from './provider';
import { TenMessageAssembler } from './ten-messages';

export async function openAgoraTen(connect: ConnectInfo, events: ProviderEvents, options: ProviderOptions): Promise<ProviderSession> {
  const { appId, channel, token, uid } = connect;
  if (!appId || !channel || !token || uid === undefined) throw new Error('The server gave no Agora channel and token.');
  AgoraRTC.setLogLevel(3);
  const client: IAgoraRTCClient = AgoraRTC.createClient({ mode: 'rtc', codec: 'vp8' });
  let agentTrack: IRemoteAudioTrack | null = null;
  let mic: IMicrophoneAudioTrack | null = null;
  let speaker = options.speaker;
  let micWanted = false;
  let ended = false;
  const mouth = new LevelMouth(() => agentTrack?.getVolumeLevel() ?? 0);
  const text = new TenMessageAssembler(uid);

  client.on('user-published', (user, mediaType) => {
    if (mediaType !== 'audio') return;
    void client.subscribe(user, 'audio').then(() => {
      agentTrack = user.audioTrack ?? null;
      agentTrack?.setVolume(speaker ? 100 : 0);
      agentTrack?.play();
      events.onMouth(mouth);
    });
  });
  client.on('user-unpublished', (_user, mediaType) => {
    if (mediaType !== 'audio') return;
    agentTrack = null;
    events.onMouth(null);
  });
  client.on('stream-message', (_from, payload) => {
    const msg = text.push(payload);
    if (!msg?.final || !msg.text.trim()) return;
    if (msg.role === 'user') events.onUserText(msg.text);
    else events.onAgentText(msg.text);
  });
  client.on('connection-state-change', (state) => {
    if (state !== 'DISCONNECTED' || ended) return;
    ended = true;
    events.onMouth(null);
    events.onEnd('The conversation has ended.');
  });

  await client.join(appId, channel, token, uid);

  const applyMic = async () => {
    if (ended) return;
    try {
      if (micWanted && !mic) {
        mic = await AgoraRTC.createMicrophoneAudioTrack({ AEC: true, ANS: true, AGC: true });
        await client.publish(mic);
      }
      await mic?.setEnabled(micWanted);
    } catch {
      events.onError('The microphone is not available.');
    }
  };

  return {
    setMic(on) {
      micWanted = on;
      void applyMic();
    },
    setSpeaker(on) {
      speaker = on;
      agentTrack?.setVolume(on ? 100 : 0);
    },
    sendText: () => false,
    interrupt: () => undefined,
    close() {
      ended = true;
      events.onMouth(null);
      mic?.close();
      mic = null;
      void client.leave();
    },
  };
}
