// Background images (16:9) as SVG scenes, softly out of focus as behind a person on a call, and
// the two looping background videos drawn frame by frame on a canvas.
import { rng } from './portrait/paths';

export const BG_W = 1280;
export const BG_H = 720;

export interface BackgroundScene {
  id: string;
  name: string;
  svg: () => string;
}

const svg = (body: string, blur = 6) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${BG_W}" height="${BG_H}" viewBox="0 0 ${BG_W} ${BG_H}"><defs><filter id="dof" x="-5%" y="-5%" width="110%" height="110%"><feGaussianBlur stdDeviation="${blur}"/></filter><filter id="soft"><feGaussianBlur stdDeviation="30"/></filter></defs><g filter="url(#dof)">${body}</g></svg>`;

function office(): string {
  const r = rng(7);
  const windows = Array.from(
    { length: 5 },
    (_, i) =>
      `<rect x="${80 + i * 230}" y="70" width="190" height="400" fill="url(#sky)"/><rect x="${80 + i * 230}" y="70" width="190" height="400" fill="none" stroke="#d9dde2" stroke-width="10"/>`,
  ).join('');
  const plants = [180, 1090]
    .map(
      (x) =>
        `<rect x="${x - 30}" y="520" width="60" height="90" rx="6" fill="#e9e4dc"/>` +
        Array.from(
          { length: 14 },
          () =>
            `<ellipse cx="${x + (r() - 0.5) * 90}" cy="${440 + r() * 90}" rx="${16 + r() * 12}" ry="${34 + r() * 10}" transform="rotate(${(r() - 0.5) * 60} ${x} 520)" fill="${r() < 0.5 ? '#4f8a4b' : '#3c7040'}"/>`,
        ).join(''),
    )
    .join('');
  return svg(
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#bcd7ee"/><stop offset="1" stop-color="#eef4f8"/></linearGradient><linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c9b8a3"/><stop offset="1" stop-color="#a8937c"/></linearGradient></defs>
    <rect width="1280" height="720" fill="#eceae6"/>${windows}
    <rect x="0" y="500" width="1280" height="220" fill="url(#floor)"/>
    <rect x="380" y="450" width="520" height="22" fill="#8a6a4e"/><rect x="400" y="472" width="14" height="130" fill="#6b5240"/><rect x="866" y="472" width="14" height="130" fill="#6b5240"/>
    <rect x="520" y="330" width="240" height="120" rx="8" fill="#2e3440"/><rect x="630" y="450" width="20" height="8" fill="#555"/>
    ${plants}
    <rect x="0" y="0" width="1280" height="40" fill="#f4f2ee"/>
    ${[200, 640, 1080].map((x) => `<ellipse cx="${x}" cy="44" rx="90" ry="12" fill="#fffbe8"/>`).join('')}
    <rect width="1280" height="720" fill="#fff6e6" opacity="0.12"/>`,
    7,
  );
}

function skyline(): string {
  const r = rng(11);
  let buildings = '';
  for (let layer = 0; layer < 3; layer++) {
    let x = -20;
    while (x < 1300) {
      const w = 50 + r() * 90;
      const h = 120 + r() * (260 - layer * 60) + layer * 30;
      const shade = ['#2a2f4a', '#20243b', '#151829'][layer]!;
      buildings += `<rect x="${x}" y="${720 - h - (2 - layer) * 40}" width="${w}" height="${h + 200}" fill="${shade}"/>`;
      if (layer > 0)
        for (let wy = 720 - h - (2 - layer) * 40 + 12; wy < 700; wy += 18)
          for (let wx = x + 8; wx < x + w - 10; wx += 14)
            if (r() < 0.35)
              buildings += `<rect x="${wx}" y="${wy}" width="6" height="9" fill="${r() < 0.7 ? '#ffd58a' : '#cfe6ff'}" opacity="${0.5 + r() * 0.5}"/>`;
      x += w + 4;
    }
  }
  return svg(
    `<defs><linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1c2a5a"/><stop offset="0.45" stop-color="#6a4c8a"/><stop offset="0.75" stop-color="#e98c6a"/><stop offset="1" stop-color="#f6c27a"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#dusk)"/><circle cx="980" cy="470" r="60" fill="#ffd9a0" opacity="0.8" filter="url(#soft)"/>${buildings}`,
    4,
  );
}

function livingRoom(): string {
  const r = rng(5);
  const books = Array.from(
    { length: 30 },
    (_, i) =>
      `<rect x="${850 + (i % 15) * 22}" y="${i < 15 ? 180 : 300}" width="18" height="${80 + r() * 20}" fill="${['#b5523b', '#3f6f8f', '#d9b45a', '#5c7d4e', '#8c5a84', '#e8e0d0'][i % 6]}"/>`,
  ).join('');
  return svg(
    `<defs><linearGradient id="wall" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#d9c3a5"/><stop offset="1" stop-color="#c9ad8c"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#wall)"/>
    <rect x="820" y="150" width="380" height="360" fill="#7a5a40"/><rect x="835" y="165" width="350" height="110" fill="#5e4431"/><rect x="835" y="285" width="350" height="110" fill="#5e4431"/>${books}
    <rect x="120" y="140" width="260" height="190" fill="#f4efe6" stroke="#8d6e52" stroke-width="10"/><path d="M140 310 L220 220 L280 280 L320 240 L360 310Z" fill="#7ea36b"/><circle cx="320" cy="190" r="20" fill="#f2c46d"/>
    <rect x="0" y="560" width="1280" height="160" fill="#8b6b52"/>
    <rect x="60" y="420" width="560" height="170" rx="40" fill="#5d7f8f"/><rect x="90" y="380" width="500" height="110" rx="40" fill="#6d92a3"/>
    <rect x="680" y="300" width="12" height="260" fill="#333"/><path d="M640 300 L732 300 L712 230 L660 230Z" fill="#f7e7c0"/><ellipse cx="686" cy="300" rx="80" ry="40" fill="#ffe6a8" opacity="0.5" filter="url(#soft)"/>`,
    8,
  );
}

function studio(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${BG_W}" height="${BG_H}" viewBox="0 0 ${BG_W} ${BG_H}"><defs>
    <radialGradient id="g" cx="0.5" cy="0.42" r="0.75"><stop offset="0" stop-color="#6f87a6"/><stop offset="0.55" stop-color="#3c4f6b"/><stop offset="1" stop-color="#18202e"/></radialGradient>
    <filter id="n"><feTurbulence baseFrequency="0.9" numOctaves="2" seed="3"/><feColorMatrix values="0 0 0 0 0.5  0 0 0 0 0.5  0 0 0 0 0.5  0 0 0 0.05 0"/></filter></defs>
    <rect width="1280" height="720" fill="url(#g)"/><rect width="1280" height="720" filter="url(#n)"/></svg>`;
}

function mountains(): string {
  const ridge = (base: number, amp: number, seed: number, color: string) => {
    const r = rng(seed);
    let d = `M0 720 L0 ${base}`;
    for (let x = 0; x <= 1280; x += 40) d += ` L${x} ${base - amp * (0.5 + 0.5 * Math.sin(x / 150 + seed)) - r() * amp * 0.4}`;
    return `<path d="${d} L1280 720Z" fill="${color}"/>`;
  };
  return svg(
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7fb2e0"/><stop offset="1" stop-color="#dcebf5"/></linearGradient><linearGradient id="lake" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8fb7cf"/><stop offset="1" stop-color="#4f7f9a"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#s)"/>
    <ellipse cx="300" cy="140" rx="160" ry="34" fill="#fff" opacity="0.8"/><ellipse cx="980" cy="100" rx="200" ry="30" fill="#fff" opacity="0.7"/>
    ${ridge(380, 160, 2, '#8fa3b8')}${ridge(430, 120, 5, '#6d8497')}${ridge(470, 80, 9, '#4f6b52')}
    <rect x="0" y="500" width="1280" height="220" fill="url(#lake)"/>
    <rect x="0" y="500" width="1280" height="6" fill="#dbe9f2" opacity="0.7"/>
    ${ridge(720, 40, 13, '#3d5a3c')}`,
    5,
  );
}

function library(): string {
  const r = rng(21);
  let shelves = '';
  for (let col = 0; col < 5; col++) {
    const x0 = 40 + col * 250;
    shelves += `<rect x="${x0}" y="40" width="230" height="640" fill="#5b3d2a"/>`;
    for (let row = 0; row < 5; row++) {
      const y0 = 60 + row * 124;
      shelves += `<rect x="${x0 + 10}" y="${y0}" width="210" height="110" fill="#3b271b"/>`;
      let x = x0 + 14;
      while (x < x0 + 210) {
        const w = 10 + r() * 14;
        const h = 70 + r() * 34;
        shelves += `<rect x="${x}" y="${y0 + 110 - h}" width="${w}" height="${h}" fill="${['#8c2f2a', '#2f4f6f', '#c9a54a', '#3f6a45', '#6a3f6a', '#d8cfbf', '#a0522d'][Math.floor(r() * 7)]}"/>`;
        x += w + 2;
      }
    }
  }
  return svg(
    `<rect width="1280" height="720" fill="#2a1d15"/>${shelves}<rect width="1280" height="720" fill="#ffcf8a" opacity="0.1"/><ellipse cx="640" cy="300" rx="500" ry="300" fill="#ffd9a0" opacity="0.12" filter="url(#soft)"/>`,
    6,
  );
}

export const BACKGROUND_SCENES: BackgroundScene[] = [
  { id: 'bg-office', name: 'Bright office', svg: office },
  { id: 'bg-skyline', name: 'City at dusk', svg: skyline },
  { id: 'bg-living-room', name: 'Living room', svg: livingRoom },
  { id: 'bg-studio', name: 'Studio blue', svg: studio },
  { id: 'bg-mountain-lake', name: 'Mountain lake', svg: mountains },
  { id: 'bg-library', name: 'Library', svg: library },
];

/** Looping videos: a frame function run in the page (t from 0 to 1 over the loop). */
export interface VideoScene {
  id: string;
  name: string;
  seconds: number;
  /** Source of `(ctx, t, w, h) => void`, evaluated in the browser. */
  draw: string;
}

export const VIDEO_SCENES: VideoScene[] = [
  {
    id: 'vid-bokeh',
    name: 'Evening bokeh',
    seconds: 8,
    draw: `(ctx, t, w, h) => {
      const g = ctx.createLinearGradient(0, 0, 0, h);
      g.addColorStop(0, '#10142a'); g.addColorStop(1, '#2b1d3a');
      ctx.fillStyle = g; ctx.fillRect(0, 0, w, h);
      let s = 12345; const r = () => ((s = (s * 16807) % 2147483647) / 2147483647);
      for (let i = 0; i < 38; i++) {
        const x0 = r() * w, y0 = r() * h, rad = 30 + r() * 70, hue = [35, 200, 320, 50][i % 4];
        const k = Math.round(1 + r() * 2), ph = r() * 6.283;
        const x = x0 + Math.sin(t * 6.283 * k + ph) * 40, y = y0 + Math.cos(t * 6.283 + ph) * 25;
        const a = 0.18 + 0.14 * Math.sin(t * 6.283 * k + ph * 2);
        const rg = ctx.createRadialGradient(x, y, 0, x, y, rad);
        rg.addColorStop(0, 'hsla(' + hue + ',80%,70%,' + a + ')'); rg.addColorStop(0.8, 'hsla(' + hue + ',80%,65%,' + a * 0.7 + ')'); rg.addColorStop(1, 'hsla(' + hue + ',80%,60%,0)');
        ctx.fillStyle = rg; ctx.beginPath(); ctx.arc(x, y, rad, 0, 6.283); ctx.fill();
      }
    }`,
  },
  {
    id: 'vid-aurora',
    name: 'Aurora waves',
    seconds: 8,
    draw: `(ctx, t, w, h) => {
      const g = ctx.createLinearGradient(0, 0, 0, h);
      g.addColorStop(0, '#03101f'); g.addColorStop(1, '#0b2a3a');
      ctx.fillStyle = g; ctx.fillRect(0, 0, w, h);
      let s = 99; const r = () => ((s = (s * 16807) % 2147483647) / 2147483647);
      for (let i = 0; i < 120; i++) { ctx.fillStyle = 'rgba(255,255,255,' + (0.3 + 0.5 * r()) + ')'; ctx.fillRect(r() * w, r() * h * 0.6, 1.5, 1.5); }
      ctx.globalCompositeOperation = 'lighter';
      for (let band = 0; band < 4; band++) {
        const hue = [150, 170, 190, 280][band];
        for (let x = 0; x <= w; x += 8) {
          const p = t * 6.283;
          const y = h * (0.3 + band * 0.08) + Math.sin(x / 180 + p + band) * 40 + Math.sin(x / 70 - p * 2 + band * 2) * 12;
          const len = 120 + 60 * Math.sin(x / 120 + p + band);
          const lg = ctx.createLinearGradient(0, y - len, 0, y + 20);
          lg.addColorStop(0, 'hsla(' + hue + ',90%,60%,0)'); lg.addColorStop(0.8, 'hsla(' + hue + ',90%,60%,0.12)'); lg.addColorStop(1, 'hsla(' + hue + ',90%,70%,0)');
          ctx.fillStyle = lg; ctx.fillRect(x, y - len, 8, len + 20);
        }
      }
      ctx.globalCompositeOperation = 'source-over';
      ctx.fillStyle = '#04121a'; ctx.beginPath(); ctx.moveTo(0, h);
      for (let x = 0; x <= w; x += 20) ctx.lineTo(x, h * 0.86 - Math.sin(x / 90) * 14 - Math.sin(x / 37) * 6);
      ctx.lineTo(w, h); ctx.fill();
    }`,
  },
];
