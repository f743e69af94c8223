// The stage: the scene's background (image, video, colour or transparent; 3D environments are
// drawn by the renderer), the face renderer, and one animation loop that moves the mouth. The
// current viseme is mirrored on data-viseme of the face element (tests and host pages read it).
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { flushSync } from 'react-dom';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { FaceDriver } from '../lipsync/face-driver';
import { FramePacer, frameInterval, type RenderMode } from '../renderers/frame-budget';
import { createRenderer, type AvatarRenderer, type FaceBox } from '../renderers/renderer';

interface Props {
  avatar: PublicAvatar;
  driver: FaceDriver;
  style?: CSSProperties;
  /** The page's `render` parameter: how a 3D face draws (frame-budget.ts). */
  render?: RenderMode;
  /** The face's box in viewport CSS pixels, when it moves (a few times a second). */
  onFaceBox?(box: FaceBox | null): void;
  /** The face is drawn and can talk. */
  onReady?(): void;
  /** What the renderer says about how the face is drawn (no WebGL: a picture), or null; the
   *  player shows it in its one band of notices, so no two notices overlap. */
  onNotice?(notice: string | null): void;
}

/** How long before its frame is due the sleeping loop asks for an animation frame, in ms: more
 *  than a 60 Hz display frame, so the frame is drawn at the first display frame it is due at. */
const WAKE_BEFORE = 20;

function Background({ avatar }: { avatar: PublicAvatar }) {
  if (avatar.dhType === '3d' && avatar.scene.environment) return null;
  const bg = avatar.scene.background;
  if (bg.kind === 'image') return <img className="bg" src={bg.url} alt="" data-testid="stage-background" />;
  if (bg.kind === 'video') return <video className="bg" src={bg.url} autoPlay muted loop playsInline data-testid="stage-background" />;
  if (bg.kind === 'color') return <div className="bg" style={{ background: bg.color }} data-testid="stage-background" />;
  return null;
}

export function Stage({ avatar, driver, style, render = 'auto', onFaceBox, onReady, onNotice }: Props) {
  const faceRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const onFaceRef = useRef(onFaceBox);
  const onReadyRef = useRef(onReady);
  const onNoticeRef = useRef(onNotice);
  useEffect(() => {
    onFaceRef.current = onFaceBox;
    onReadyRef.current = onReady;
    onNoticeRef.current = onNotice;
  }, [onFaceBox, onReady, onNotice]);

  useEffect(() => {
    const host = faceRef.current!;
    let renderer: AvatarRenderer | null = null;
    let disposed = false;
    let raf = 0;
    let sleep = 0;
    let drawnSpeaking = false;
    // Frames are drawn no more often than the renderer's profile needs (frame-budget.ts). Between
    // two frames of a capped rate the loop sleeps on a timer rather than wake at every display
    // frame (each animation frame also wakes the compositor), and asks for the animation frame of
    // the next a display frame and more before it is due; speech starting or stopping wakes it,
    // and the new rate starts at once.
    const pacer = new FramePacer();
    const wake = () => {
      clearTimeout(sleep);
      sleep = 0;
      if (!raf && !disposed) raf = requestAnimationFrame(loop);
    };
    const loop = (now: number) => {
      raf = 0;
      const speaking = driver.speaking;
      if (renderer && pacer.due(now, frameInterval(renderer.profile, speaking, render))) {
        drawnSpeaking = speaking;
        renderer.frame(now, { viseme: driver.tick(performance.now()), speaking });
      }
      const wait = pacer.untilDue(performance.now()) - WAKE_BEFORE;
      if (wait > 0) sleep = window.setTimeout(wake, wait);
      else wake();
    };
    const off = driver.onChange((v) => {
      host.dataset.viseme = v;
      if (driver.speaking === drawnSpeaking) return;
      pacer.restart();
      wake();
    });
    host.dataset.viseme = driver.current;
    const observer = new ResizeObserver(() => renderer?.resize(host.clientWidth, host.clientHeight));
    observer.observe(host);
    // The mouth's clock ticks on its own timer, so a slow renderer (software WebGL) never makes
    // the lips skip; frames draw whatever the mouth is doing when they come.
    const ticker = setInterval(() => driver.tick(performance.now()), 16);
    wake();
    // The face's box, for overlays that must keep clear of it; mirrored on data-face-box.
    let lastBox = '';
    const boxTimer = setInterval(() => {
      // Where 3D eyes look, mirrored for tests and host pages that inspect the stage.
      const g = renderer?.gaze?.();
      if (g) host.dataset.gaze = `${g.yaw.toFixed(2)},${g.pitch.toFixed(2)}`;
      const b = renderer?.faceBox?.() ?? null;
      const key = b ? [b.x, b.y, b.w, b.h].map(Math.round).join(',') : '';
      if (key === lastBox) return;
      lastBox = key;
      if (key) host.dataset.faceBox = key;
      else delete host.dataset.faceBox;
      const r = host.getBoundingClientRect();
      onFaceRef.current?.(b ? { x: r.left + b.x, y: r.top + b.y, w: b.w, h: b.h } : null);
    }, 200);
    createRenderer(host, avatar, render).then(
      (r) => {
        if (disposed) return r.dispose();
        renderer = r;
        host.dataset.renderProfile = r.profile;
        if (r.edges) host.dataset.edges = r.edges;
        r.resize(host.clientWidth, host.clientHeight);
        onNoticeRef.current?.(r.notice ?? null);
        // Say "ready" now, not after the first frame: in software WebGL that frame compiles
        // every shader and can hold the page for seconds (a deferred commit waited behind it).
        flushSync(() => setState('ready'));
        onReadyRef.current?.();
      },
      (err: unknown) => {
        console.warn('avatar renderer failed', err);
        if (!disposed) setState('failed');
      },
    );
    return () => {
      disposed = true;
      clearInterval(ticker);
      clearInterval(boxTimer);
      cancelAnimationFrame(raf);
      clearTimeout(sleep);
      observer.disconnect();
      off();
      renderer?.dispose();
    };
  }, [avatar, driver, render]);

  return (
    <div
      className={`stage${avatar.scene.background.kind === 'transparent' ? ' transparent' : ''}`}
      data-testid="stage"
      data-avatar-type={avatar.dhType}
      data-state={state}
      style={style}
    >
      <Background avatar={avatar} />
      <div
        className="face"
        ref={faceRef}
        data-testid="avatar-face"
        data-viseme="sil"
        aria-label={`${avatar.name}, talking avatar`}
        role="img"
      >
        {state === 'failed' && avatar.appearance.previewURL && <img className="face-fallback" src={avatar.appearance.previewURL} alt="" />}
      </div>
      {state === 'loading' && <div className="spinner" aria-label="Loading avatar" />}
    </div>
  );
}
