// Close-ups of 3D characters without touching the catalogue, for looking at them while modelling:
//   npm run catalogue:look -- out.png ub-noah fb-maya ...   (COLS=n tiles per row,
//   SHOTS=front,side,back,eye,face,open,bust,wide to pick the shots (default all but front), SIZE=px per tile)
// By default each character's face (smiling, then saying "aa"), bust and (full body) a wider
// shot, rendered like the previews; `front` looks straight at the face, `side` at the profile, `back` at the hair from behind and
// above, `eye` at the left eye.
import { writeFileSync } from 'node:fs';
import { openDrawing } from './browser';
import { buildCharacter } from './character/character';
import { FULL_BODY_PEOPLE, UPPER_BODY_PEOPLE } from './people';
import { openRenderer, renderGlb, STUDIO_LIGHT } from './render3d';

const [out = 'look.png', ...ids] = process.argv.slice(2);
const people = [...UPPER_BODY_PEOPLE, ...FULL_BODY_PEOPLE].filter((p) => !ids.length || ids.includes(p.id));
const only = (process.env.SHOTS ?? 'face,open,bust,wide').split(',');
const size = Number(process.env.SIZE ?? 360);
const d = await openDrawing();
await openRenderer(d.page);
const tiles: string[] = [];
for (const p of people) {
  const { glb, stats } = buildCharacter(p);
  process.stdout.write(`${p.id}: ${stats.vertices} vertices, ${(stats.bytes / 1024).toFixed(0)} KB\n`);
  const headY = p.type === '3d' ? 1.6 : 1.58;
  const smile = { smile: 0.35 };
  const shots = [
    { name: 'front', position: [0, headY - 0.01, 0.6], target: [0, headY - 0.02, 0], fov: 30, morphs: {} },
    // In profile (from the character's left) and from behind, above: the hair's silhouette.
    { name: 'side', position: [0.6, headY + 0.02, 0.02], target: [0, headY + 0.02, 0], fov: 30, morphs: {} },
    { name: 'back', position: [-0.35, headY + 0.3, -0.45], target: [0, headY + 0.03, 0], fov: 30, morphs: {} },
    // The left eye (head space [0.032, 0.004, 0.0765], the head drawn 1.08× at y 1.6), both corners.
    { name: 'eye', position: [0.06, 1.606, 0.3], target: [0.035, 1.604, 0.09], fov: 20, morphs: smile },
    { name: 'face', position: [0.1, headY, 0.55], target: [0, headY - 0.02, 0], fov: 30, morphs: smile },
    { name: 'open', position: [0.1, headY, 0.55], target: [0, headY - 0.02, 0], fov: 30, morphs: { viseme_aa: 1 } },
    { name: 'bust', position: [0.35, headY - 0.05, 1.2], target: [0, headY - 0.15, 0], fov: 30, morphs: smile },
    { name: 'wide', position: [0.5, 1.3, 2.6], target: [0, 0.95, 0], fov: 34, morphs: smile },
  ] as const;
  const picked = shots.filter((s) => (s.name !== 'wide' || p.type === '3d') && only.includes(s.name));
  for (const camera of picked) {
    const png = await renderGlb(d.page, {
      width: size,
      height: size,
      lighting: STUDIO_LIGHT,
      background: p.backdrop,
      camera: { position: [...camera.position], target: [...camera.target], fov: camera.fov },
      models: [{ glb, morphs: camera.morphs }],
    });
    tiles.push(png.toString('base64'));
  }
}
const cols = Number(process.env.COLS ?? 6);
await d.page.setViewportSize({ width: size * cols, height: size });
await d.page.setContent(
  `<body style="margin:0;display:flex;flex-wrap:wrap;width:${size * cols}px">${tiles.map((t) => `<img src="data:image/png;base64,${t}">`).join('')}</body>`,
);
writeFileSync(out, await d.page.screenshot({ fullPage: true }));
await d.close();
