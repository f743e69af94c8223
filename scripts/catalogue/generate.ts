// Generates the default catalogue: image avatars, upper- and full-body 3D avatars, background
// images and videos, lighting presets and 3D environments, with previews, into
// apps/server/assets/catalogue (committed). Everything is drawn by this code; nothing is
// downloaded. Needs Debian's Chromium (drawing, previews) and ffmpeg (videos).
//
//   node --import tsx scripts/catalogue/generate.ts            # everything
//   node --import tsx scripts/catalogue/generate.ts images 3d  # some sections (3d: and atlases)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atlases } from './atlas3d';
import { BACKGROUND_SCENES, BG_H, BG_W, VIDEO_SCENES } from './backgrounds';
import { openDrawing, rasterize, type Drawing } from './browser';
import { buildCharacter, LIGHT_FACE_CELL } from './character/character';
import { ENVIRONMENT_SCENES } from './env3d';
import { buildImageAvatar } from './image-avatars';
import { LIGHT_SCENES } from './lights';
import type { CatalogueIndex } from '@parla/shared/schemas/catalogue';
import { Output } from './output';
import { FULL_BODY_PEOPLE, IMAGE_PEOPLE, UPPER_BODY_PEOPLE, type Person } from './people';
import { openRenderer, renderGlb, STUDIO_LIGHT } from './render3d';

const SECTIONS = ['images', '3d', 'atlases', 'backgrounds', 'videos', 'lights', 'environments'] as const;
type Section = (typeof SECTIONS)[number];

const log = (msg: string) => process.stdout.write(`${msg}\n`);

async function images(d: Drawing, out: Output, index: CatalogueIndex) {
  out.clear('avatars/image');
  for (const p of IMAGE_PEOPLE) {
    const files = await buildImageAvatar(d.page, p);
    const atlas = out.write('avatars/image', `${p.id}-atlas`, 'webp', files.atlas);
    const atlasName = atlas.split('/').pop()!;
    const model = out.write('avatars/image', `${p.id}`, 'json', JSON.stringify(files.manifest(atlasName)));
    const preview = out.write('avatars/image', `${p.id}-preview`, 'webp', files.preview);
    index.avatars.push({ id: p.id, name: p.name, type: 'image', voiceGender: p.voiceGender, preview, model });
    log(`  ${p.id}: atlas ${(files.atlas.length / 1024).toFixed(0)} KB`);
  }
}

const characterCamera = (p: Person) =>
  p.type === '3d'
    ? // The dial page shows the picture in a 180 px circle: head to chest, so the face reads.
      { position: [0.14, 1.6, 1.0] as [number, number, number], target: [0, 1.5, 0] as [number, number, number], fov: 30 }
    : { position: [0.12, 1.58, 0.95] as [number, number, number], target: [0, 1.5, 0] as [number, number, number], fov: 30 };

async function characters(d: Drawing, out: Output, index: CatalogueIndex, glbs: Map<string, Buffer>) {
  out.clear('avatars/3d');
  for (const p of [...UPPER_BODY_PEOPLE, ...FULL_BODY_PEOPLE]) {
    const { glb, stats } = buildCharacter(p);
    glbs.set(p.id, glb);
    const model = out.write('avatars/3d', p.id, 'glb', glb);
    const png = await renderGlb(d.page, {
      width: 320,
      height: 320,
      lighting: STUDIO_LIGHT,
      background: p.backdrop,
      camera: characterCamera(p),
      models: [{ glb, morphs: { smile: 0.4 } }],
      type: 'image/webp',
      quality: 0.88,
    });
    const preview = out.write('avatars/3d', `${p.id}-preview`, 'webp', png);
    // The same character with a coarser face, drawn instead in software WebGL (decision 128).
    const light = buildCharacter(p, LIGHT_FACE_CELL);
    const lightModel = out.write('avatars/3d', `${p.id}-light`, 'glb', light.glb);
    index.avatars.push({ id: p.id, name: p.name, type: p.type, voiceGender: p.voiceGender, preview, model, lightModel });
    log(
      `  ${p.id}: ${stats.vertices} vertices, ${(stats.bytes / 1024).toFixed(0)} KB; light ${light.stats.vertices}, ${(light.stats.bytes / 1024).toFixed(0)} KB`,
    );
  }
}

async function backgrounds(d: Drawing, out: Output, index: CatalogueIndex) {
  out.clear('backgrounds/image');
  for (const b of BACKGROUND_SCENES) {
    const svg = b.svg();
    const file = out.write('backgrounds/image', b.id, 'webp', await rasterize(d.page, svg, BG_W, BG_H, 'image/webp', 0.82));
    const preview = out.write('backgrounds/image', `${b.id}-preview`, 'webp', await rasterize(d.page, svg, 320, 180, 'image/webp', 0.82));
    index.backgrounds.push({ id: b.id, name: b.name, kind: 'image', file, preview });
  }
}

async function videos(d: Drawing, out: Output, index: CatalogueIndex) {
  out.clear('backgrounds/video');
  const fps = 24;
  for (const v of VIDEO_SCENES) {
    const dir = mkdtempSync(join(tmpdir(), 'parla-video-'));
    const frames = v.seconds * fps;
    for (let f = 0; f < frames; f++) {
      const url = await d.page.evaluate(
        ({ draw, t, w, h }) => {
          const c = document.createElement('canvas');
          c.width = w;
          c.height = h;
          // The frame function is our own source (backgrounds.ts), run in the generator's page.
          (new Function(`return ${draw}`)() as (ctx: CanvasRenderingContext2D, t: number, w: number, h: number) => void)(
            c.getContext('2d')!,
            t,
            w,
            h,
          );
          return c.toDataURL('image/jpeg', 0.95);
        },
        { draw: v.draw, t: f / frames, w: BG_W, h: BG_H },
      );
      writeFileSync(join(dir, `${String(f).padStart(4, '0')}.jpg`), Buffer.from(url.split(',')[1]!, 'base64'));
    }
    const mp4 = join(dir, 'out.mp4');
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-framerate',
      String(fps),
      '-i',
      join(dir, '%04d.jpg'),
      '-c:v',
      'libx264',
      '-profile:v',
      'main',
      '-preset',
      'slow',
      '-crf',
      '30',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-an',
      mp4,
    ]);
    const file = out.write('backgrounds/video', v.id, 'mp4', readFileSync(mp4));
    const first = join(dir, '0000.jpg');
    const previewJpeg = readFileSync(first).toString('base64');
    const preview = await d.page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/jpeg;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = 320;
      c.height = 180;
      c.getContext('2d')!.drawImage(img, 0, 0, 320, 180);
      return c.toDataURL('image/webp', 0.82);
    }, previewJpeg);
    const previewPath = out.write('backgrounds/video', `${v.id}-preview`, 'webp', Buffer.from(preview.split(',')[1]!, 'base64'));
    index.backgrounds.push({ id: v.id, name: v.name, kind: 'video', file, preview: previewPath });
    rmSync(dir, { recursive: true, force: true });
    log(`  ${v.id}: ${(readFileSync(join(out.root, file)).length / 1024).toFixed(0)} KB`);
  }
}

async function lights(d: Drawing, out: Output, index: CatalogueIndex, glbs: Map<string, Buffer>) {
  out.clear('lights');
  const model = glbs.get('ub-noah') ?? buildCharacter(UPPER_BODY_PEOPLE[0]!).glb;
  for (const l of LIGHT_SCENES) {
    const png = await renderGlb(d.page, {
      width: 200,
      height: 200,
      lighting: l.preset,
      background: '#2a2f3a',
      camera: { position: [0, 1.56, 0.8], target: [0, 1.52, 0], fov: 30 },
      models: [{ glb: model, morphs: { smile: 0.3 } }],
      type: 'image/webp',
      quality: 0.85,
    });
    const preview = out.write('lights', `${l.id}-preview`, 'webp', png);
    index.lights.push({ id: l.id, name: l.name, preview, preset: l.preset });
  }
}

async function environments(d: Drawing, out: Output, index: CatalogueIndex, glbs: Map<string, Buffer>) {
  out.clear('environments');
  const person = glbs.get('fb-maya') ?? buildCharacter(FULL_BODY_PEOPLE[0]!).glb;
  for (const e of ENVIRONMENT_SCENES) {
    const glb = e.build();
    const model = out.write('environments', e.id, 'glb', glb);
    const s = e.staging;
    const png = await renderGlb(d.page, {
      width: 320,
      height: 180,
      lighting: s.lighting,
      background: s.sky,
      fog: [s.sky, 8, 30],
      shadows: true,
      camera: s.camera,
      models: [{ glb }, { glb: person, position: s.spawn.position, rotationY: s.spawn.rotationY }],
      type: 'image/webp',
      quality: 0.85,
    });
    const preview = out.write('environments', `${e.id}-preview`, 'webp', png);
    index.environments.push({ id: e.id, name: e.name, model, preview, staging: s });
    log(`  ${e.id}: ${(glb.length / 1024).toFixed(0)} KB`);
  }
}

async function main() {
  const asked = process.argv.slice(2) as Section[];
  const bad = asked.filter((s) => !SECTIONS.includes(s));
  if (bad.length) throw new Error(`Unknown section(s) ${bad.join(', ')}; choose from ${SECTIONS.join(', ')}`);
  const run = new Set<Section>(asked.length ? asked : SECTIONS);
  // New GLBs need new atlases.
  if (run.has('3d')) run.add('atlases');
  const out = new Output();
  const old = out.readIndex();
  // Sections not regenerated keep their entries.
  const index: CatalogueIndex = {
    version: 1,
    avatars: old.avatars.filter((a) => (a.type === 'image' ? !run.has('images') : !run.has('3d'))),
    // (the 3D avatars' atlases are rewritten on them by the atlases section)
    backgrounds: old.backgrounds.filter((b) => (b.kind === 'image' ? !run.has('backgrounds') : !run.has('videos'))),
    lights: run.has('lights') ? [] : old.lights,
    environments: run.has('environments') ? [] : old.environments,
  };
  const d = await openDrawing();
  await openRenderer(d.page);
  const glbs = new Map<string, Buffer>();
  try {
    const steps: [Section, string, () => Promise<void>][] = [
      ['images', 'image avatars', () => images(d, out, index)],
      ['3d', '3D avatars', () => characters(d, out, index, glbs)],
      ['atlases', "3D avatars' viseme atlases", () => atlases(d.page, out, index, log)],
      ['backgrounds', 'background images', () => backgrounds(d, out, index)],
      ['videos', 'background videos', () => videos(d, out, index)],
      ['lights', 'lighting presets', () => lights(d, out, index, glbs)],
      ['environments', '3D environments', () => environments(d, out, index, glbs)],
    ];
    for (const [section, title, step] of steps) {
      if (!run.has(section)) continue;
      log(title);
      await step();
    }
  } finally {
    await d.close();
  }
  const order = (id: string) => [...IMAGE_PEOPLE, ...UPPER_BODY_PEOPLE, ...FULL_BODY_PEOPLE].findIndex((p) => p.id === id);
  index.avatars.sort((a, b) => order(a.id) - order(b.id));
  index.backgrounds.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'image' ? -1 : 1));
  out.writeIndex(index);
  log(
    `catalogue: ${index.avatars.length} avatars, ${index.backgrounds.length} backgrounds, ${index.lights.length} lights, ${index.environments.length} environments`,
  );
}

await main();
