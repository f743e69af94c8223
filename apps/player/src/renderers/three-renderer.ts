// 3D avatars with three.js (this module and three are fetched only for 3D types). Upper body:
// head-and-shoulders framing, the avatar's directional lighting preset, transparent canvas over
// the stage's background (image, video, colour or nothing). Full body: inside its 3D
// environment, with the environment's staging and lights. Idle motion moves bones by name;
// the face morphs (viseme_*, blink, smile) follow the mouth with a little smoothing.
import {
  ACESFilmicToneMapping,
  Box3,
  Color,
  Fog,
  PerspectiveCamera,
  Quaternion,
  Scene,
  SRGBColorSpace,
  Vector3,
  Euler,
  WebGLRenderer,
  type Bone,
  type Mesh,
  type Object3D,
} from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { VISEMES, visemeMorphName, type Viseme } from '@parla/shared/visemes';
import { figureShot, headBox, headShot, projectBox, restBox, TALL_ASPECT, type Shot } from './framing';
import { addLights, STUDIO } from './scene-lights';
import { threeProfile, WHOLE_AFTER, WHOLE_MOVE, type RenderMode } from './frame-budget';
import { aim, gaze, Saccades } from './gaze';
import { Blinker, type AvatarRenderer, type FaceState } from './renderer';
import { idleMotion } from './idle-motion';
import { bindOwnRig } from './own-rig';
import type { SoftwareView } from './software-view';

/** How far the lids may have moved since the last whole frame before a frame draws the whole figure. */
const BLINK_STEP = 0.34;

/** An own model's face (chin to brows, from the head bone) in an upper-body stage: room above it for hair. */
const OWN_BUST_SHARE = 0.28;

interface Morphs {
  mesh: Mesh;
  index: Map<string, number>;
}

export async function createThreeRenderer(host: HTMLElement, avatar: PublicAvatar, mode: RenderMode): Promise<AvatarRenderer> {
  const full = avatar.dhType === '3d';
  const environment = full ? avatar.scene.environment : null;
  const lighting = environment?.staging.lighting ?? avatar.scene.lighting ?? STUDIO;
  // In software WebGL the light profile (frame-budget.ts): no multisampling, no shadow map, the
  // frame cap, and a cheaper frame (decision 128): plain materials, the figure's region only at a
  // capped resolution, the environment drawn once behind it, FXAA (software-view.ts).
  const profile = threeProfile(mode);
  const light = profile === 'software';
  const shadows = full && !light;
  const lightParts = light
    ? Promise.all([
        import('./software-view').then((m) => m.softwareView),
        import('./plain-materials').then((m) => m.applyPlainMaterials),
        import('./fewer-triangles').then(({ reduceTriangles, lightenEyes }) => ({ reduceTriangles, lightenEyes })),
        import('./lighter-face').then((m) => m.lightenFace),
      ])
    : null;

  // Transparent in software WebGL: the canvas covers only the figure, over the backdrop.
  // Software WebGL keeps the last frame: a frame may redraw only the mouth (mouth-frames.ts).
  const renderer = new WebGLRenderer({
    antialias: !light,
    alpha: !full || light,
    powerPreference: 'low-power',
    preserveDrawingBuffer: light,
  });
  renderer.setPixelRatio(light ? 0.75 : Math.min(1.5, window.devicePixelRatio || 1));
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.toneMappingExposure = lighting.exposure;
  renderer.shadowMap.enabled = shadows;
  renderer.domElement.className = 'face-canvas';
  host.appendChild(renderer.domElement);

  const scene = new Scene();
  const camera = new PerspectiveCamera(28, 1, 0.05, 200);
  addLights(scene, lighting, shadows);
  // Catalogue GLBs are meshopt-compressed; the decoder is bundled (its WebAssembly is inlined).
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  const [character, world] = await Promise.all([
    // Software WebGL draws the catalogue's lighter face where there is one (decision 128).
    loader.loadAsync((light && avatar.appearance.lightModelURL) || avatar.appearance.modelURL),
    environment ? loader.loadAsync(environment.modelURL) : Promise.resolve(null),
  ]);
  const root = character.scene;
  scene.add(root);
  // A customer's own model (decision 123): its rig says which targets and bones to move.
  const rig = avatar.appearance.rig ? bindOwnRig(character, avatar.appearance.rig) : null;
  if (rig && avatar.appearance.rig?.facesBack) root.rotation.y += Math.PI;

  const target = new Vector3();
  if (world && environment) {
    const s = environment.staging;
    scene.add(world.scene);
    world.scene.traverse((o) => ((o as Mesh).receiveShadow = shadows));
    root.position.set(...s.spawn.position);
    root.rotation.y = s.spawn.rotationY;
    scene.background = new Color(s.sky);
    scene.fog = new Fog(s.sky, 8, 30);
    camera.fov = s.camera.fov;
  }
  let view: SoftwareView | null = null;
  if (lightParts) {
    const [softwareView, applyPlainMaterials, fewer, lightenFace] = await lightParts;
    applyPlainMaterials(root);
    await fewer.reduceTriangles(root);
    const sky = world && scene.background instanceof Color ? { root: world.scene, sky: scene.background } : null;
    const face = rig ? null : (root.getObjectByName('Face') as Mesh | undefined);
    // The catalogue face, simplified with its shading and motion kept (lighter-face.ts), before
    // the mouth frames take their share of its triangles.
    // Its eyeballs too (fewer-triangles.ts): spheres of 1,600 triangles for eyes ~12 pixels wide.
    if (face?.isMesh) {
      await lightenFace(face);
      const eyes = ['RightEye', 'LeftEye'].map((n) => root.getObjectByName(n) as Mesh | undefined);
      await fewer.lightenEyes(eyes.filter((o): o is Mesh => !!o?.isMesh));
    }
    view = softwareView({ renderer, scene, camera, figure: root, world: sky, host, face: face?.isMesh ? face : null });
  }
  const head = rig ? (root.updateMatrixWorld(true), rig.headBox()) : headBox(root);
  // Full body: a head shot on a wide stage, the figure to the knees on a tall one (framing.ts).
  let shots: { wide: Shot; tall: Shot | null } | null = null;
  if (full) {
    // Full body in conversation: the environment's direction, but close enough to see the lips.
    const s = environment?.staging.camera;
    const from = new Vector3(...(s?.position ?? [0, 1.35, 3.4]));
    const to = new Vector3(...(s?.target ?? [0, 1.0, 0]));
    camera.fov = s?.fov ?? 34;
    const knee = root.getObjectByName('LeftLowerLeg');
    shots = {
      wide: headShot(head, from, to, camera.fov),
      tall: knee ? figureShot(head, knee.getWorldPosition(new Vector3()).y, from, to, camera.fov) : null,
    };
    camera.position.set(...shots.wide.position);
    target.set(...shots.wide.target);
  } else if (rig) {
    // An own model: head and shoulders from its head bone, whatever its size or origin.
    const shot = headShot(head, new Vector3(0, head.max.y, 10), new Vector3(0, head.max.y, 0), camera.fov, OWN_BUST_SHARE);
    camera.position.set(...shot.position);
    target.set(...shot.target);
  } else {
    // Head and shoulders: aim at the face, whatever the model's exact height.
    const top = new Box3().setFromObject(root).max.y;
    target.set(0, top - 0.27, 0);
    camera.position.set(0, top - 0.2, 1.45);
  }
  // Shadows fall on the body and the floor, never across the face: only the body and the world
  // receive them (the hair's shadow on the forehead was a hard line), and the head's parts cast
  // none onto one another.
  root.traverse((o) => {
    (o as Mesh).castShadow = shadows;
    (o as Mesh).receiveShadow = shadows && (o.name === 'Body' || o.parent?.name === 'Body');
  });

  // Bones for idle motion, with their rest orientation.
  const bones = new Map<string, { bone: Object3D; rest: Quaternion }>();
  const morphs: Morphs[] = [];
  if (rig) for (const [name, bone] of rig.bones) bones.set(name, { bone, rest: bone.quaternion.clone() });
  root.traverse((o) => {
    if (rig) return;
    if ((o as Bone).isBone || ['Hips', 'Spine', 'Chest', 'Neck', 'Head'].includes(o.name) || /Arm|Leg|Shoulder/.test(o.name))
      bones.set(o.name, { bone: o, rest: o.quaternion.clone() });
    const m = o as Mesh;
    if (m.isMesh && m.morphTargetDictionary && m.morphTargetInfluences)
      morphs.push({ mesh: m, index: new Map(Object.entries(m.morphTargetDictionary)) });
  });
  const influence: Record<string, number> = {};
  const visemeWeights: Partial<Record<Viseme, number>> = {};
  const blinker = new Blinker();
  // The eyeballs turn in their sockets: at the user (the camera), with saccades.
  const eyes = ['RightEye', 'LeftEye'].map((n) => root.getObjectByName(n)).filter((o): o is Object3D => !!o);
  const saccades = new Saccades();
  const seen = new Vector3();
  const euler = new Euler();
  const q = new Quaternion();
  let last = performance.now();
  // When the whole figure was last drawn: in between, software frames redraw only the mouth.
  let lastWhole = performance.now();
  // The bones' turns of the last whole frame, while a frame tries the pose of its own time.
  const held = [...bones.values()].map(({ bone }) => ({ bone, turn: bone.quaternion.clone() }));

  const pose = (name: string, x: number, y: number, z: number) => {
    const b = bones.get(name);
    if (!b) return;
    euler.set(x, y, z);
    b.bone.quaternion.copy(b.rest).multiply(q.setFromEuler(euler));
  };
  const setMorph = (name: string, value: number) => {
    for (const m of morphs) {
      const i = m.index.get(name);
      if (i !== undefined) m.mesh.morphTargetInfluences![i] = value;
    }
  };

  // The face: the head's box (the Face mesh as it moves, or the top of the model) projected.
  const faceMesh = root.getObjectByName('Face') as Mesh | undefined;
  const moving = new Box3();
  const corner = new Vector3();
  let cssW = 1,
    cssH = 1;
  const faceBox = () => {
    const box = rig ? rig.headBox(moving) : faceMesh?.isMesh ? moving.copy(restBox(faceMesh)).applyMatrix4(faceMesh.matrixWorld) : head;
    return view ? view.onStage((w, h) => projectBox(box, camera, w, h, corner)) : projectBox(box, camera, cssW, cssH, corner);
  };

  let blink = 0;
  const moveEyes = (now: number, speaking: boolean) => {
    const offset = saccades.offset(now, speaking);
    for (const eye of eyes) {
      eye.parent!.worldToLocal(seen.copy(camera.position));
      const look = gaze(aim(eye.position, seen), offset, blink);
      eye.rotation.set(-look.pitch, look.yaw, 0, 'YXZ');
    }
  };
  const moveMouth = (dt: number, state: FaceState) => {
    // Mouth: ease every viseme towards its target (the current one on, the rest off).
    const k = Math.min(1, dt * 22);
    for (const v of VISEMES) {
      const name = visemeMorphName(v);
      const goal = v === state.viseme && v !== 'sil' ? 1 : 0;
      const cur = influence[name] ?? 0;
      // A viseme eased out is switched off (under a thousandth it cannot be seen): the vertex
      // shader skips a target whose influence is zero, and a software rasteriser pays for it.
      const next = cur + (goal - cur) * k;
      influence[name] = goal === 0 && next < 1e-3 ? 0 : next;
      visemeWeights[v] = influence[name];
      if (!rig) setMorph(name, influence[name]);
    }
    if (rig) rig.apply(visemeWeights, blink, influence.smile ?? 0);
  };
  // What the mouth shows while speaking, for the software view's kept pictures (mouth-cache.ts):
  // one viseme at seven tenths or more (the easing's first frame reaches 0.73 to 0.92 of the next:
  // at 24 a second on a 60 Hz display, frames are 33 and 50 ms apart), and the smile; `settled`
  // when no other viseme is mixed in.
  const showing = (state: FaceState) => {
    if (!state.speaking) return null;
    const target = state.viseme === 'sil' ? null : state.viseme;
    let own = 0,
      mixed = 0;
    for (const v of VISEMES) {
      if (v === 'sil') continue;
      const w = visemeWeights[v] ?? 0;
      if (v === target) own = w;
      else mixed = Math.max(mixed, w);
    }
    if (!target) own = 1 - mixed;
    if (own < 0.7) return null;
    return { key: state.viseme, smile: influence.smile ?? 0, settled: own >= 0.99 && mixed <= 0.01 };
  };
  // The resting smile eases in and out at the same pace whatever the frame rate (two thirds of the
  // way in a third of a second): in software WebGL it moves on the whole figure's frames, a few a
  // second while speaking, and a kept picture of the mouth holds only while the smile does
  // (mouth-cache.ts). It eased a tenth of a second's worth a whole frame there, and took seconds.
  const moveSmile = (dt: number, speaking: boolean) => {
    const smileGoal = speaking ? 0.12 : 0.35;
    influence.smile = (influence.smile ?? 0) + (smileGoal - (influence.smile ?? 0)) * (1 - Math.exp(-3 * dt));
    if (!rig) setMorph('smile', influence.smile);
  };

  return {
    profile,
    edges: view ? 'fxaa' : 'msaa',
    faceBox,
    // Read back from the eye itself: what is drawn, not what was asked for.
    gaze: () => (eyes[0] ? { yaw: eyes[0].rotation.y, pitch: -eyes[0].rotation.x } : null),
    resize(w, h) {
      cssW = Math.max(1, w);
      cssH = Math.max(1, h);
      if (!view) renderer.setSize(cssW, cssH, false);
      camera.aspect = Math.max(1, w) / Math.max(1, h);
      camera.updateProjectionMatrix();
      if (shots) {
        const shot = camera.aspect <= TALL_ASPECT && shots.tall ? shots.tall : shots.wide;
        camera.position.set(...shot.position);
        target.set(...shot.target);
      }
      camera.lookAt(target);
      view?.resize(cssW, cssH);
    },
    frame(now, state: FaceState) {
      const t = now / 1000;
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      // In software WebGL, while speaking, the figure's pose, the blink and the eyes change when
      // any part of the figure has moved by WHOLE_MOVE (the pose of this frame's time is tried, and
      // put back if it moved less), when the lids have moved by a third since the last whole frame
      // (a blink lasts 170 ms), or after WHOLE_AFTER; the frames between keep them and redraw the
      // mouth alone (mouth-frames.ts). The head speaks as calmly as it rests there (idle-motion.ts).
      let mouthOnly = false;
      if (
        view?.canDrawMouthOnly() &&
        state.speaking &&
        now - lastWhole < WHOLE_AFTER &&
        Math.abs(blinker.value(now) - blink) < BLINK_STEP
      ) {
        for (const h of held) h.turn.copy(h.bone.quaternion);
        idleMotion(pose, t, state.speaking, full, !light);
        mouthOnly = !view.moved(WHOLE_MOVE);
        if (mouthOnly) {
          for (const h of held) h.bone.quaternion.copy(h.turn);
          root.updateMatrixWorld(true);
        }
      }
      if (!mouthOnly) {
        idleMotion(pose, t, state.speaking, full, !light);
        moveSmile(Math.min(1, (now - lastWhole) / 1000), state.speaking);
        lastWhole = now;
        blink = blinker.value(now);
        if (!rig) setMorph('blink', blink);
        moveEyes(now, state.speaking);
      }
      moveMouth(dt, state);
      if (!view) renderer.render(scene, camera);
      else view.render(mouthOnly, showing(state));
    },
    dispose() {
      view?.dispose();
      renderer.dispose();
      scene.traverse((o) => {
        const m = o as Mesh;
        if (m.isMesh) {
          m.geometry.dispose();
          (Array.isArray(m.material) ? m.material : [m.material]).forEach((mat) => mat.dispose());
        }
      });
      renderer.domElement.remove();
    },
  };
}
