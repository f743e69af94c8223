// Checks of customers' media and colours that both the editor (before upload) and the server
// (again, on save) run: CSS colour syntax, the 16:9 shape of background images (spec 2: "16:9
// images"), and the header of a binary glTF file. Zod-free (the player and the editor load it).

const NAMED_COLOURS = new Set(
  'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent'.split(
    ' ',
  ),
);
const NUM = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:%|deg|rad|turn)?`;
const FUNCTIONAL = new RegExp(String.raw`^(?:rgba?|hsla?)\(\s*${NUM}(?:\s*[,\s]\s*${NUM}){2}(?:\s*[,/]\s*${NUM})?\s*\)$`, 'i');

/** A CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl()/hsla(), or a named colour. */
export function isCssColor(value: string): boolean {
  const v = value.trim();
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v)) return true;
  if (FUNCTIONAL.test(v)) return true;
  return NAMED_COLOURS.has(v.toLowerCase());
}

export const COLOR_MESSAGE = 'Background Color must be a CSS colour, such as #0b1020, rgb(11, 16, 32) or navy.';

/** 16:9 within 2 % (1920 × 1080, 1280 × 720, 1366 × 768 pass). */
export function isSixteenByNine(width: number, height: number): boolean {
  return width > 0 && height > 0 && Math.abs(width / height / (16 / 9) - 1) <= 0.02;
}

export function aspectMessage(width: number, height: number): string {
  return `Background images must be 16:9 (for example 1920 × 1080); this one is ${width} × ${height}.`;
}

/** null when the first 12 bytes are a binary glTF 2.0 header whose length is the file's size. */
export function glbHeaderProblem(head: Uint8Array, fileSize: number): string | null {
  const isGlb = head.length >= 12 && head[0] === 0x67 && head[1] === 0x6c && head[2] === 0x54 && head[3] === 0x46;
  if (!isGlb) return 'This is not a binary glTF (.glb) file.';
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = view.getUint32(4, true);
  if (version !== 2) return `This .glb file is glTF version ${version}; only version 2 is supported.`;
  if (view.getUint32(8, true) !== fileSize) return 'This .glb file is incomplete or damaged (its length does not match its header).';
  return null;
}
