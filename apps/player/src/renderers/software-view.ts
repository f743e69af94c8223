// How a 3D face is drawn in software WebGL (decision 128): every frame costs the CPU, so a frame
// draws only what moves. The canvas covers the figure's region of the stage (draw-region.ts) at a
// capped resolution, with FXAA (smooth-edges.ts); a full-body avatar's 3D environment, which never
// moves, is drawn once per stage size into a picture behind it (with the figure hidden), and the
// frames draw the figure alone over it on a transparent canvas. The camera draws the region as a
// view offset of the stage's full view, so the figure stands exactly where the full picture has it.
// While the avatar speaks, the frames between two of the whole figure redraw only the mouth over
// the canvas kept from the last (mouth-frames.ts), or show a picture of the same viseme kept from
// an earlier frame over it (mouth-cache.ts).
import {
  Box3,
  Vector2,
  Vector3,
  type Color,
  type Mesh,
  type Object3D,
  type PerspectiveCamera,
  type Scene,
  type SkinnedMesh,
  type WebGLRenderer,
} from 'three';
import { drawRegion, MAX_SCALE, type DrawRegion } from './draw-region';
import { projectBox, restBox } from './framing';
import type { FaceBox } from './renderer';
import { mouthFrames, type BufferRect } from './mouth-frames';
import { mouthCache, type MouthShows } from './mouth-cache';
import { FXAA_REACH, smoothEdges } from './smooth-edges';
import { figureDrift } from './figure-drift';

/** The environment's picture is drawn once per stage size: it may have more pixels than a frame. */
const BACKDROP_PIXELS = 400_000;

interface Parts {
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  /** The character, drawn every frame. */
  figure: Object3D;
  /** The full-body avatar's environment and its sky, drawn once into the backdrop. */
  world: { root: Object3D; sky: Color } | null;
  host: HTMLElement;
  /** The catalogue face (visemes as morph targets), for the frames that redraw only the mouth. */
  face: Mesh | null;
}

export interface SoftwareView {
  /** After the camera is placed for a `width` × `height` stage (its full view). */
  resize(width: number, height: number): void;
  /** `mouthOnly`: keep the last frame and redraw the mouth (when it can: else the whole frame).
   *  The figure's pose must be the last frame's. `shows`: what the mouth shows, when it shows one
   *  viseme (its picture is kept, and a later mouth frame of it shows the picture: mouth-cache.ts). */
  render(mouthOnly?: boolean, shows?: MouthShows | null): void;
  /** Whether the next frame may redraw only the mouth (a catalogue face, after a whole frame). */
  canDrawMouthOnly(): boolean;
  /** Whether the figure as posed now has moved by `step` drawing-buffer pixels or more since the
   *  last whole frame: a corner of the mouth's box (mouth-frames.ts) or a point on any part
   *  (figure-drift.ts). The figure's world matrices are updated to its pose now. True when there
   *  is no mouth to redraw alone. */
  moved(step: number): boolean;
  /** A box projected by the (region's) camera, `project(w, h)`, in the stage's CSS pixels. */
  onStage(project: (w: number, h: number) => FaceBox): FaceBox;
  dispose(): void;
}

/** The figure's box in the world: skinned meshes as posed, the others at rest (three widens a
 *  mesh's box by every morph target's full reach, cumulatively: the face's grew by half). */
function figureBox(root: Object3D, box: Box3): Box3 {
  const part = new Box3();
  box.makeEmpty();
  root.updateMatrixWorld(true);
  root.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh || !o.visible) return;
    const skinned = o as SkinnedMesh;
    if (skinned.isSkinnedMesh) {
      skinned.computeBoundingBox();
      part.copy(skinned.boundingBox!);
    } else part.copy(restBox(mesh));
    if (!part.isEmpty()) box.union(part.applyMatrix4(mesh.matrixWorld));
  });
  return box;
}

export function softwareView({ renderer, scene, camera, figure, world, host, face }: Parts): SoftwareView {
  const smooth = smoothEdges(renderer, scene, camera);
  const mouth = face ? mouthFrames(face, figure) : null;
  const gl = renderer.getContext();
  const pictures = mouth ? mouthCache(gl, renderer.domElement) : null;
  const parts = mouth ? figureDrift(figure) : null;
  // Where the mouth was in the last whole frame (null: the next frame draws the whole figure).
  let mouthRect: BufferRect | null = null;
  const canvas = renderer.domElement;
  const backdrop = world ? document.createElement('canvas') : null;
  if (backdrop && world) {
    backdrop.className = 'face-backdrop';
    host.insertBefore(backdrop, canvas);
    world.root.visible = false;
    scene.background = null;
  }
  let region: DrawRegion = { x: 0, y: 0, w: 1, h: 1, scale: MAX_SCALE };
  const box = new Box3();
  const corner = new Vector3();
  const drawing = new Vector2();

  const drawBackdrop = (width: number, height: number) => {
    if (!backdrop || !world) return;
    renderer.setPixelRatio(Math.min(MAX_SCALE, Math.sqrt(BACKDROP_PIXELS / (width * height))));
    renderer.setSize(width, height, false);
    smooth.setSize();
    figure.visible = false;
    world.root.visible = true;
    scene.background = world.sky;
    smooth.render();
    // Copied in the same task as the drawing, before the canvas is presented and cleared.
    backdrop.width = canvas.width;
    backdrop.height = canvas.height;
    backdrop.getContext('2d')?.drawImage(canvas, 0, 0);
    figure.visible = true;
    world.root.visible = false;
    scene.background = null;
  };

  // A mouth just drawn in 3D showing one viseme is kept, unless a picture of it fits already. A
  // whole frame's settled mouth is kept even then: the frames after it, at its pose, show it
  // pixel for pixel, where a picture kept at an earlier pose is resampled to fit, which softens
  // lines a pixel or two wide (the teeth's edge against the dark of the mouth).
  const keep = (rect: BufferRect, shows: MouthShows | null, whole: boolean) => {
    if (!shows || !pictures || !mouth) return;
    const anchors = mouth.anchors();
    if (pictures.wants(shows, anchors) || (whole && shows.settled)) pictures.keep(shows, rect, FXAA_REACH, anchors, mouth.belowEyes());
  };

  return {
    resize(width, height) {
      mouthRect = null;
      camera.clearViewOffset();
      camera.updateMatrixWorld();
      drawBackdrop(width, height);
      region = drawRegion(projectBox(figureBox(figure, box), camera, width, height, corner), width, height);
      camera.setViewOffset(width, height, region.x, region.y, region.w, region.h);
      renderer.setPixelRatio(region.scale);
      renderer.setSize(region.w, region.h, false);
      Object.assign(canvas.style, {
        position: 'absolute',
        left: `${region.x}px`,
        top: `${region.y}px`,
        width: `${region.w}px`,
        height: `${region.h}px`,
      });
      smooth.setSize();
      const size = renderer.getDrawingBufferSize(drawing);
      pictures?.resize({ left: region.x, top: region.y, width: region.w, height: region.h }, size.x, size.y);
    },
    render(mouthOnly = false, shows = null) {
      if (mouthOnly && mouth && mouthRect) {
        const rect = mouthRect;
        // The same viseme drawn before at (nearly) this pose: its picture, and no WebGL frame.
        if (shows && pictures?.show(shows, mouth.anchors())) return;
        pictures?.hide();
        // The pose is the last frame's: the world matrices are too (three would recompute every
        // object's, the figure's bones included).
        scene.matrixWorldAutoUpdate = false;
        try {
          mouth.only(() => smooth.render(rect));
        } finally {
          scene.matrixWorldAutoUpdate = true;
        }
        keep(rect, shows, false);
        return;
      }
      smooth.render();
      pictures?.hide();
      const size = renderer.getDrawingBufferSize(drawing);
      mouthRect = mouth?.place(camera, size.x, size.y) ?? null;
      if (mouthRect) {
        parts?.hold(camera, size.x, size.y);
        pictures?.place(mouthRect, FXAA_REACH);
        keep(mouthRect, shows, true);
      }
    },
    canDrawMouthOnly: () => !!mouth && !!mouthRect,
    moved(step) {
      if (!mouth || !mouthRect || !parts) return true;
      const size = renderer.getDrawingBufferSize(drawing);
      if (mouth.drift(camera, size.x, size.y) >= step) return true;
      figure.updateMatrixWorld(true);
      return parts.drift(camera, size.x, size.y) >= step;
    },
    onStage(project) {
      const b = project(region.w, region.h);
      return { x: b.x + region.x, y: b.y + region.y, w: b.w, h: b.h };
    },
    dispose() {
      pictures?.dispose();
      smooth.dispose();
      backdrop?.remove();
    },
  };
}
