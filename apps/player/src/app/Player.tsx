// The player once its avatar is known: dial page, then the live stage with chat, captions and
// controls; speech in and out; the host page's postMessage API; the conversation client.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { PlayerConfig } from '../config/player-config';
import { aspectRatio } from '../config/player-config';
import type { ConversationClient } from '../conversation/conversation-client';
import { createConversationClient } from '../conversation/create-client';
import { HostBridge } from '../host/host-bridge';
import { FaceDriver } from '../lipsync/face-driver';
import { speechRecognitionAvailable } from '../speech/speech-in';
import { SpeechOut } from '../speech/speech-out';
import { Captions, ChatHistory, ChatInput, type ChatMessage } from '../ui/Chat';
import { Controls } from '../ui/Controls';
import { DialPage } from '../ui/DialPage';
import { EndPanel } from '../ui/EndPanel';
import { Stage } from '../ui/Stage';
import { takeSentences } from './sentences';
import { useConversationEnd } from './use-conversation-end';
import { useListening } from './use-listening';
import { useOverlays } from './use-overlays';
import { useReplyAudio } from './use-reply-audio';
import { useOwnAtlas } from './use-own-atlas';
import { NO_VOICE_INPUT } from './mic-messages';
import type { AvatarVad } from '../voice/vad-options';
import { DEFAULT_FEATURES, featuresOf } from './conversation-features';
import { TranscriptButton } from '../ui/TranscriptButton';
import type { FaceBox } from '../renderers/renderer';

const CAPTION_LINGER_MS = 1500;
const GREETING_MAX = 300;

/** The editor's preview greets once its face is ready (issue 36 item 6: it talks on one click). */
function previewGreeting(avatar: PublicAvatar): string {
  if (avatar.id !== 'preview' || typeof location === 'undefined') return '';
  return (new URLSearchParams(location.search).get('greeting') ?? '').trim().slice(0, GREETING_MAX);
}
export const noVoiceNotice = (language: string) => `This browser has no voice for ${language}: the avatar's replies are shown as captions.`;
const NOTICE_MS = 8000;
let nextId = 0;
const id = () => `m${++nextId}`;

export function Player({ avatar, config }: { avatar: PublicAvatar; config: PlayerConfig }) {
  const [live, setLive] = useState(config.connect);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [caption, setCaption] = useState('');
  // A third-party agent takes the microphone itself (no browser speech recognition needed).
  const [providerMic, setProviderMic] = useState(false);
  // The avatar listens on the server (ready.listen 'server'): the microphone streams there.
  const [serverListen, setServerListen] = useState<{ vad?: AvatarVad } | null>(null);
  const canListen = useMemo(() => providerMic || serverListen !== null || speechRecognitionAvailable(), [providerMic, serverListen]);
  const [mic, setMic] = useState(false);
  const [speaker, setSpeaker] = useState(!config.speakerOff);
  const [fullscreen, setFullscreen] = useState(false);
  const [notice, setNotice] = useState('');
  const [voiceNotice, setVoiceNotice] = useState('');
  const micByUser = useRef(false);
  // The avatar's settings for this conversation (ready): STT hand-off, streaming, transcript download.
  const [features, setFeatures] = useState(DEFAULT_FEATURES);
  const featuresRef = useRef(DEFAULT_FEATURES);
  const [interim, setInterim] = useState('');
  /** The browser cannot speak: captions stay on whatever the settings say. */
  const [silent, setSilent] = useState(false);
  /** A third-party agent is speaking (its speakingEnded is owed). */
  const agentSpeaking = useRef(false);

  const driver = useMemo(() => new FaceDriver(), []);
  const bridgeRef = useRef<HostBridge | null>(null);
  const clientRef = useRef<ConversationClient | null>(null);
  const captionTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const turnText = useRef(new Map<string, { buffer: string; messageId: string }>());
  /** Messages of finished turns (a third-party agent may correct them afterwards). */
  const doneTurns = useRef(new Map<string, string>());
  /** The latest reply's text (captions of a third-party agent's voice). */
  const agentSaid = useRef('');
  const speech = useMemo(
    () =>
      new SpeechOut(driver, {
        language: avatar.language,
        gender: avatar.voice.gender,
        name: avatar.voice.name,
        wordsPerSecond: avatar.voice.wordsPerSecond,
      }),
    [avatar, driver],
  );
  useEffect(() => {
    speech.setEvents({
      onStart: (text) => {
        clearTimeout(captionTimer.current);
        setCaption(text);
        bridgeRef.current?.emit('speakingStarted', { text });
      },
      onEnd: (text, { interrupted }) => {
        bridgeRef.current?.emit('speakingEnded', { text, ...(interrupted ? { interrupted: true } : {}) });
        captionTimer.current = setTimeout(() => setCaption(''), CAPTION_LINGER_MS);
      },
      onUnavailable: (reason) => {
        setSilent(true);
        // Told only when no voice exists at all (the server speaks otherwise, decision 122), and
        // it stays until the visitor closes it: a notice that goes by itself is easily missed.
        setVoiceNotice(noVoiceNotice(avatar.language));
        bridgeRef.current?.emit('speechUnavailable', { language: avatar.language, reason });
      },
    });
  }, [speech, avatar.language]);
  useEffect(() => speech.setSpeaker(speaker), [speech, speaker]);
  const speakerRef = useRef(speaker);
  useEffect(() => {
    speakerRef.current = speaker;
    clientRef.current?.setSpeaker?.(speaker);
  }, [speaker]);
  useEffect(() => () => speech.cancel(), [speech]);
  const showCaption = useCallback((text: string | null) => {
    clearTimeout(captionTimer.current);
    if (text === null) captionTimer.current = setTimeout(() => setCaption(''), CAPTION_LINGER_MS);
    else setCaption(text);
  }, []);
  const replies = useReplyAudio(driver, avatar.language, speaker, bridgeRef, showCaption);

  const addMessage = (role: ChatMessage['role'], text: string, messageId = id()) => {
    setMessages((list) => {
      const at = list.findIndex((m) => m.id === messageId);
      if (at >= 0) return list.map((m) => (m.id === messageId ? { ...m, text } : m));
      return [...list, { id: messageId, role, text }];
    });
    return messageId;
  };

  /** Stops what the ended conversation was doing: speech, mouth, mic, a third-party agent. */
  const stopActivity = useCallback(() => {
    speech.cancel();
    replies.player.stop();
    if (agentSpeaking.current) {
      agentSpeaking.current = false;
      bridgeRef.current?.emit('speakingEnded', { text: agentSaid.current, interrupted: true });
    }
    driver.use(null);
    micByUser.current = false;
    setMic(false);
    setProviderMic(false);
    setServerListen(null);
  }, [speech, driver, replies]);

  const connectRef = useRef<() => void>(() => undefined);
  const reconnect = useCallback(() => connectRef.current(), []);
  // The server or the network ended the conversation: say so, stop, and reconnect or offer to.
  const { ended, reconnecting, onEnded, onReady, reset } = useConversationEnd(bridgeRef, reconnect);

  const connect = useCallback(() => {
    if (clientRef.current) return;
    reset();
    const client = createConversationClient(avatar);
    clientRef.current = client;
    client.setSpeaker?.(speakerRef.current);
    turnText.current.clear();
    doneTurns.current.clear();
    // Engines with their own voice (custom pipeline, realtime) send audio: the browser does not speak.
    let serverAudio = false;
    void client.connect({
      onReady: (info) => {
        serverAudio = !!info.audio;
        setServerListen(info.listen === 'server' ? { ...(info.vad ? { vad: info.vad } : {}) } : null);
        featuresRef.current = featuresOf(info);
        setFeatures(featuresRef.current);
        onReady();
        bridgeRef.current?.emit('connected', { sessionId: info.sessionId, engine: info.engine });
      },
      onDelta: (turnId, text) => {
        const turn = turnText.current.get(turnId) ?? { buffer: '', messageId: id() };
        turn.buffer += text;
        turnText.current.set(turnId, turn);
        replies.text.current.set(turnId, (replies.text.current.get(turnId) ?? '') + text);
        // Audio may start before the text it speaks: the captions catch up.
        if (replies.player.playing(turnId)) showCaption(replies.text.current.get(turnId)!);
        const { sentences, rest } = takeSentences(turn.buffer);
        if (!serverAudio) sentences.forEach((s) => void speech.say(s));
        turn.buffer = rest;
        // Without Transcription Streaming the reply is shown once complete (onDone).
        if (featuresRef.current.streaming)
          setMessages((list) => {
            const at = list.findIndex((m) => m.id === turn.messageId);
            if (at < 0) return [...list, { id: turn.messageId, role: 'assistant', text }];
            return list.map((m) => (m.id === turn.messageId ? { ...m, text: m.text + text } : m));
          });
      },
      onDone: (turnId, text, info) => {
        const turn = turnText.current.get(turnId);
        const shown = doneTurns.current.get(turnId);
        if (info?.interrupted && !turn && shown) {
          // Speech over a reply that was complete but still playing: it stops where it was.
          replies.player.stop(turnId);
          addMessage('assistant', text, shown);
          return;
        }
        if (serverAudio) {
          // The audio frames speak this reply; an interrupted turn stops at once, audio and lips.
          replies.text.current.set(turnId, text);
          if (replies.player.playing(turnId) && !info?.interrupted) showCaption(text);
          if (info?.interrupted) replies.player.stop(turnId);
          else replies.player.complete(turnId);
        } else if (turn?.buffer.trim()) void speech.say(turn.buffer);
        else if (!turn) void speech.say(text);
        doneTurns.current.set(turnId, addMessage('assistant', text, turn?.messageId));
        turnText.current.delete(turnId);
        agentSaid.current = text;
        bridgeRef.current?.emit('assistantText', { text });
      },
      onAudioFrame: (header, audio) => replies.player.push(header, audio),
      onTranscript: (text, final) => {
        if (!final) return;
        addMessage('user', text);
        bridgeRef.current?.emit('userText', { text });
      },
      onProvider: () => {
        // The agent speaks with its own voice and hears through its own microphone stream.
        serverAudio = true;
        setProviderMic(true);
      },
      onUserText: (text) => {
        addMessage('user', text);
        bridgeRef.current?.emit('userText', { text });
      },
      onMouth: (source) => driver.use(source),
      onCorrection: (turnId, text) => {
        const messageId = doneTurns.current.get(turnId);
        if (messageId) addMessage('assistant', text, messageId);
      },
      onSpeaking: (on) => {
        const text = agentSaid.current;
        agentSpeaking.current = on;
        if (on) {
          clearTimeout(captionTimer.current);
          setCaption(text);
          bridgeRef.current?.emit('speakingStarted', { text });
        } else {
          bridgeRef.current?.emit('speakingEnded', { text });
          captionTimer.current = setTimeout(() => setCaption(''), CAPTION_LINGER_MS);
        }
      },
      onNotice: (message) => setNotice(message),
      onError: (code, message) => {
        setNotice(message);
        bridgeRef.current?.emit('error', { code, message });
      },
      onClose: (facts) => {
        if (clientRef.current !== client) return;
        clientRef.current = null;
        stopActivity();
        setNotice('');
        onEnded(facts);
      },
    });
    setLive(true);
  }, [avatar, speech, driver, replies, onEnded, onReady, reset, stopActivity, showCaption]);
  useEffect(() => {
    connectRef.current = connect;
  }, [connect]);

  const disconnect = useCallback(() => {
    const wasOpen = clientRef.current !== null || reconnecting > 0;
    reset();
    clientRef.current?.close();
    clientRef.current = null;
    stopActivity();
    setLive(false);
    setMessages([]);
    featuresRef.current = DEFAULT_FEATURES;
    setFeatures(DEFAULT_FEATURES);
    setCaption('');
    if (wasOpen) bridgeRef.current?.emit('disconnected', { reason: 'user' });
  }, [stopActivity, reconnecting, reset]);

  const send = useCallback(
    (text: string) => {
      // Nothing is sent into a closed conversation: a reconnect is under way, or the user chooses.
      if (ended || reconnecting) {
        setNotice(reconnecting ? 'Reconnecting… your message was not sent.' : ended!.message);
        return;
      }
      if (!clientRef.current) connect();
      // Speaking over the avatar interrupts it.
      if (speech.speaking || replies.player.speaking) {
        speech.cancel();
        replies.player.stop();
        clientRef.current?.interrupt();
      }
      addMessage('user', text);
      bridgeRef.current?.emit('userText', { text });
      clientRef.current?.sendText(text);
    },
    [connect, speech, replies, ended, reconnecting],
  );

  const say = useCallback(
    (text: string) => {
      addMessage('assistant', text);
      void speech.say(text);
    },
    [speech],
  );

  const greeted = useRef(false);
  const greet = useCallback(() => {
    const greeting = previewGreeting(avatar);
    if (!greeting || greeted.current) return;
    greeted.current = true;
    // After the face's first frames: in software WebGL the first one compiles every shader and
    // holds the page for a moment, and a greeting said under it would be over unseen.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const client = clientRef.current;
        if (client?.greet) client.greet(greeting);
        else say(greeting);
      }),
    );
  }, [avatar, say]);
  useOwnAtlas(avatar);

  const userSetMic = useCallback(
    (on: boolean) => {
      // Nothing can listen here: say why instead of doing nothing.
      if (on && !canListen) {
        setNotice(NO_VOICE_INPUT);
        bridgeRef.current?.emit('error', { code: 0, message: NO_VOICE_INPUT, mic: 'unavailable' });
        return;
      }
      micByUser.current = on;
      setMic(on);
    },
    [canListen],
  );

  // The host page's API lives as long as the player.
  const commands = useRef({ send, say, connect, disconnect, setMic: (on: boolean) => setMic(on), setSpeaker });
  useEffect(() => {
    commands.current = { send, say, connect, disconnect, setMic: userSetMic, setSpeaker };
  }, [send, say, connect, disconnect, userSetMic]);
  useEffect(() => {
    const bridge = new HostBridge(
      {
        sendChat: (t) => commands.current.send(t),
        say: (t) => commands.current.say(t),
        setMic: (on) => commands.current.setMic(on),
        setSpeaker: (on) => commands.current.setSpeaker(on),
        connect: () => commands.current.connect(),
        disconnect: () => commands.current.disconnect(),
      },
      config.forwardEvents,
    );
    bridgeRef.current = bridge;
    bridge.emit('ready', { avatarId: avatar.id, name: avatar.name });
    return () => bridge.stop();
  }, [avatar, config.forwardEvents]);

  useEffect(() => {
    if (config.connect) connect();
    return () => clientRef.current?.close();
    // Auto-connect once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onMicFailed = useCallback((message: string) => {
    setNotice(message);
    micByUser.current = false;
    setMic(false);
  }, []);
  // Recognised speech: to the avatar, or (Handle STT Response) to the host page, which sends it.
  const onHeard = useCallback((text: string) => {
    setInterim('');
    if (featuresRef.current.handleSttResponse) bridgeRef.current?.post('sttResponse', { text });
    else commands.current.send(text);
  }, []);
  const onInterim = useCallback((text: string) => {
    if (!featuresRef.current.streaming) return;
    setInterim(text);
    bridgeRef.current?.emit('sttInterim', { text });
  }, []);
  useListening({
    active: live && canListen && !ended && !reconnecting,
    mic,
    providerMic,
    server: serverListen,
    language: avatar.language,
    client: clientRef,
    bridge: bridgeRef,
    onText: onHeard,
    onInterim,
    onFailed: onMicFailed,
  });
  useEffect(() => bridgeRef.current?.emit('micChanged', { on: mic }), [mic]);
  useEffect(() => bridgeRef.current?.emit('speakerChanged', { on: speaker }), [speaker]);

  // Notices go by themselves (they sit over the top of the stage).
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(''), NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice]);

  useEffect(() => {
    const onChange = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => setNotice('Full screen is not allowed here.'));
  };

  const ratio = aspectRatio(config.screenAspectRatio);
  const [rw, rh] = (config.screenAspectRatio ?? '').split(':').map(Number);
  const stageStyle =
    ratio && rw && rh ? { aspectRatio: ratio, width: `min(100%, calc(100vh * ${rw / rh}))`, height: 'auto', maxHeight: '100%' } : undefined;
  const playerRef = useRef<HTMLDivElement>(null);
  const bottomRef = useRef<HTMLDivElement>(null);
  const captionRef = useRef<HTMLDivElement>(null);
  const historyRef = useRef<HTMLDivElement>(null);
  const [faceBox, setFaceBox] = useState<FaceBox | null>(null);
  const noticesRef = useRef<HTMLDivElement>(null);
  const [stageNotice, setStageNotice] = useState<string | null>(null);
  const overlays = useOverlays(
    playerRef,
    bottomRef,
    captionRef,
    historyRef,
    noticesRef,
    live ? faceBox : null,
    `${caption}\n${messages.length}\n${notice}\n${voiceNotice}\n${reconnecting}\n${stageNotice}`,
  );
  const canFullscreen = !config.hideFS && typeof document !== 'undefined' && document.fullscreenEnabled;

  return (
    <div
      ref={playerRef}
      className={`player${avatar.scene.background.kind === 'transparent' ? ' transparent' : ''}`}
      data-testid="player"
      data-phase={live ? 'live' : 'dial'}
    >
      {live ? (
        <>
          <Stage
            avatar={avatar}
            driver={driver}
            style={stageStyle}
            render={config.render}
            onFaceBox={setFaceBox}
            onReady={greet}
            onNotice={setStageNotice}
          />
          {!config.hideChatHistory && overlays.history !== null && (
            <ChatHistory messages={messages} style={overlays.history} boxRef={historyRef} />
          )}
          {(config.captions || silent) && <Captions text={caption} style={overlays.caption} ref={captionRef} />}
          {interim && (
            <div className="interim" data-testid="interim" aria-live="polite">
              {interim}
            </div>
          )}
          {features.transcriptUrl && <TranscriptButton url={features.transcriptUrl} />}
          {ended && <EndPanel message={ended.message} canRestart={ended.retry !== 'none'} onRestart={connect} />}
          {/* The notices stack in one band at the top; captions and history keep below it. */}
          <div className="notices" ref={noticesRef}>
            {stageNotice && (
              <p className="notice about-stage" role="status" data-testid="stage-notice">
                {stageNotice}
              </p>
            )}
            {reconnecting > 0 && (
              <div className="notice reconnecting" role="status" data-testid="reconnecting">
                Connection lost. Reconnecting…
              </div>
            )}
            {notice && !ended && (
              <div className="notice" role="status" onClick={() => setNotice('')}>
                {notice}
              </div>
            )}
            {voiceNotice && !notice && !ended && (
              <div className="notice lasting" role="status" data-testid="no-voice-notice">
                {voiceNotice}
                <button type="button" className="notice-close" aria-label="Close" onClick={() => setVoiceNotice('')}>
                  ×
                </button>
              </div>
            )}
          </div>
          <div className="bottom" ref={bottomRef}>
            {!config.hideChatInput && (
              <ChatInput
                placeholder={config.chatInputPlaceholder}
                onSend={send}
                disabled={reconnecting ? 'Reconnecting…' : ended ? 'The conversation has ended' : undefined}
              />
            )}
            <Controls
              position={config.controlButtonPosition}
              mic={config.hideMicButton ? null : mic}
              speaker={speaker}
              showSpeaker={!config.hideSpeakerButton}
              fullscreen={canFullscreen ? fullscreen : null}
              onMic={userSetMic}
              onSpeaker={setSpeaker}
              onFullscreen={toggleFullscreen}
              onHangUp={disconnect}
            />
          </div>
        </>
      ) : (
        <DialPage
          name={avatar.name}
          previewURL={avatar.appearance.previewURL}
          title={config.dialPageTitle}
          buttonText={config.letsChatButtonText}
          hideButton={config.hideLetsChatBtn}
          background={config.dialPageBackground ?? config.panelColor}
          onStart={connect}
        />
      )}
    </div>
  );
}
