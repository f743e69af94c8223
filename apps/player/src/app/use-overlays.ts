// Keeps the captions and the chat history off the face (ui/overlay-layout.ts), re-measured when
// the face moves, the player resizes or the caption's text changes.
import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';
import type { FaceBox } from '../renderers/renderer';
import { headOf, historyAboveCaption, placeCaption, placeHistory } from '../ui/overlay-layout';

const HISTORY_WIDTH = 340;

/** An element's natural height, not the height its last place allowed. */
function naturalHeight(el: HTMLElement): number {
  const allowed = el.style.maxHeight;
  el.style.maxHeight = 'none';
  const natural = el.scrollHeight;
  el.style.maxHeight = allowed;
  return natural;
}

export interface OverlayStyles {
  caption: CSSProperties | undefined;
  /** null: no room beside or above the face, the history is not shown. */
  history: CSSProperties | null | undefined;
}

export function useOverlays(
  player: RefObject<HTMLElement | null>,
  bottom: RefObject<HTMLElement | null>,
  caption: RefObject<HTMLElement | null>,
  history: RefObject<HTMLElement | null>,
  /** The notices at the top (how the face is drawn, reconnecting, errors, no voice): the rest stays below them. */
  notices: RefObject<HTMLElement | null>,
  face: FaceBox | null,
  /** What the overlays show (a change re-measures them). */
  content: unknown,
): OverlayStyles {
  const [styles, setStyles] = useState<OverlayStyles>({ caption: undefined, history: undefined });
  const [size, setSize] = useState({ w: 0, h: 0 });

  useLayoutEffect(() => {
    const el = player.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [player]);

  useLayoutEffect(() => {
    const el = player.current;
    if (!el) return;
    const frame = el.getBoundingClientRect();
    const stage = { w: frame.width, h: frame.height };
    if (!stage.w || !stage.h) return;
    const local = face ? headOf({ x: face.x - frame.left, y: face.y - frame.top, w: face.w, h: face.h }) : null;
    const bar = bottom.current ? frame.bottom - bottom.current.getBoundingClientRect().top : 0;
    const noticeBox = notices.current?.getBoundingClientRect();
    const ceiling = noticeBox && noticeBox.height > 0 ? noticeBox.bottom - frame.top : 0;
    const captionEl = caption.current;
    let captionStyle: CSSProperties | undefined;
    if (captionEl) {
      const natural = naturalHeight(captionEl);
      const place = placeCaption(stage, local, bar, natural, ceiling);
      captionStyle = { top: place.top, bottom: 'auto', maxHeight: place.maxHeight };
    }
    // On a phone the history is as wide as the player (beside the face there is no room).
    const width = stage.w < 520 ? stage.w : Math.min(HISTORY_WIDTH, stage.w * 0.42);
    let historyPlace = placeHistory(stage, local, bar, width, ceiling);
    // Where the caption and the history would meet, the caption of what is being said wins:
    // the history stops above it, or is not shown when too little room is left.
    if (historyPlace && captionEl && captionStyle && captionEl.scrollHeight > 0) {
      const extent = Math.min(historyPlace.maxHeight, history.current?.scrollHeight ?? historyPlace.maxHeight);
      const cw = captionEl.offsetWidth;
      const ch = Math.min(Number(captionStyle.maxHeight), captionEl.offsetHeight);
      historyPlace = historyAboveCaption(historyPlace, extent, { x: (stage.w - cw) / 2, y: Number(captionStyle.top), w: cw, h: ch });
    }
    setStyles({
      caption: captionStyle,
      history: historyPlace
        ? { left: historyPlace.left, top: historyPlace.top, right: 'auto', width: historyPlace.width, maxHeight: historyPlace.maxHeight }
        : null,
    });
  }, [player, bottom, caption, history, notices, face, content, size]);

  return styles;
}
