// A function's tool description read from its Python source without running it: the first
// public top-level `def`, its annotated parameters (JSON schema types, required unless they
// have a default) and its docstring (summary and Google-style "Args:" lines).
export interface PythonFunctionDescription {
  name: string;
  description: string;
  parameters: { type: 'object'; properties: Record<string, { type: string; description?: string }>; required: string[] };
}

const TYPES: Record<string, string> = { str: 'string', int: 'integer', float: 'number', bool: 'boolean', list: 'array', dict: 'object' };

/** Splits a parameter list at top-level commas (not inside brackets or strings). */
function splitParams(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (const ch of text) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

export function describePythonFunction(code: string): PythonFunctionDescription | null {
  const src = code.replace(/\r\n/g, '\n');
  const m = /^def\s+([A-Za-z][A-Za-z0-9_]*)\s*\(([\s\S]*?)\)\s*(?:->\s*[^:\n]+)?:[ \t]*\n/m.exec(src);
  if (!m) return null;
  const name = m[1]!;
  const after = src.slice(m.index + m[0].length);
  const doc = /^\s*(?:"""([\s\S]*?)"""|'''([\s\S]*?)''')/.exec(after);
  const docText = (doc?.[1] ?? doc?.[2] ?? '').replace(/^\s+|\s+$/g, '');
  const summary =
    docText
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  const argDocs: Record<string, string> = {};
  let inArgs = false;
  for (const raw of docText.split('\n')) {
    const line = raw.trim();
    if (/^(args|arguments|parameters):$/i.test(line)) {
      inArgs = true;
      continue;
    }
    if (inArgs && /^[A-Z][A-Za-z ]*:$/.test(line)) inArgs = false;
    const am = inArgs ? /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*:\s*(.+)$/.exec(line) : null;
    if (am) argDocs[am[1]!] = am[2]!.trim();
  }
  const properties: PythonFunctionDescription['parameters']['properties'] = {};
  const required: string[] = [];
  for (const param of splitParams(m[2]!)) {
    if (param.startsWith('*') || param === '/' || param === 'self') continue;
    const pm = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([^=]+?))?\s*(=.*)?$/.exec(param);
    if (!pm) continue;
    const annotation = (pm[2] ?? 'str')
      .trim()
      .replace(/\[.*$/, '')
      .replace(/^typing\./, '');
    properties[pm[1]!] = { type: TYPES[annotation] ?? 'string', ...(argDocs[pm[1]!] ? { description: argDocs[pm[1]!] } : {}) };
    if (!pm[3]) required.push(pm[1]!);
  }
  return { name, description: summary, parameters: { type: 'object', properties, required } };
}
