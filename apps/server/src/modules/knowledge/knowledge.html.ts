// HTML → readable text: the page's main content with paragraph breaks, list items and table
// rows kept readable ("cell | cell"), without scripts, styles, navigation and forms. Also the
// page's title, its links and its <meta name="robots">, for the crawler.
// Pages are hostile (issue 33): htmlparser2 keeps its open elements in an array it shifts at the
// front (cost grows with the depth at every tag: 80,000 nested <div> took 30 s) and css-select's
// traversal does the same, and a recursive walk overflows the stack past about 10,000 levels. So
// the parse stops past HTML_MAX_DEPTH open elements (a clear failure), and every walk here is
// one iterative pass with an explicit stack: linear in the page, no recursion, no selectors.
// This runs in the extraction child (decision 405, 410), never on the server's event loop.
import { DomHandler, Parser } from 'htmlparser2';
import { ExtractError } from './knowledge.extract-error';

/** Elements open at once at most; browsers flatten past 512, real pages stay far below. */
export const HTML_MAX_DEPTH = 1000;
export const PAGE_TOO_DEEP = `The page is nested too deeply to read (more than ${HTML_MAX_DEPTH} levels of elements).`;
/** Links kept per page, and the longest link kept (the crawler reads no more than this). */
export const PAGE_MAX_LINKS = 2000;
export const LINK_MAX_CHARS = 2048;

/** The parts of a parsed DOM node these walks read (domhandler's nodes). */
interface DomNode {
  type: string;
  data?: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

const DROP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed']);
const DROP_TAGS_TOO = new Set(['form', 'nav', 'footer', 'aside']);
const BLOCK = new Set(
  'p div section article main header h1 h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote pre figure figcaption address details summary hr br table tr'.split(
    ' ',
  ),
);

export interface HtmlPage {
  title: string;
  text: string;
  links: string[];
  /** <meta name="robots"> directives. */
  noindex: boolean;
  nofollow: boolean;
}

const isElement = (n: DomNode) => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Not read as content: scripts, styles, navigation, forms, hidden elements. */
function dropped(n: DomNode): boolean {
  if (!isElement(n)) return false;
  const name = n.name ?? '';
  return DROP_TAGS.has(name) || DROP_TAGS_TOO.has(name) || 'hidden' in (n.attribs ?? {}) || n.attribs?.['aria-hidden'] === 'true';
}

/** Visits `root` and its descendants in document order; `visit` answering false skips a node's
 *  children. */
function walk(root: DomNode, visit: (n: DomNode) => boolean | void): void {
  const stack: DomNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (visit(n) === false || !n.children) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}

/** The text of a node and its descendants (comments left out), as the DOM's textContent. */
function textOf(node: DomNode, skipDropped: boolean): string {
  const parts: string[] = [];
  walk(node, (n) => {
    if (n.type === 'text') parts.push(n.data ?? '');
    if (n.type === 'comment' || (skipDropped && n !== node && dropped(n))) return false;
  });
  return parts.join('');
}

/** domhandler's tree builder, stopping the parse past HTML_MAX_DEPTH open elements. */
class DepthBoundHandler extends DomHandler {
  private depth = 0;
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.depth > HTML_MAX_DEPTH) throw new ExtractError(PAGE_TOO_DEEP);
    super.onopentag(name, attribs);
  }
  override onclosetag(): void {
    this.depth--;
    super.onclosetag();
  }
}

/** The document's root node. */
function parse(html: string): DomNode {
  const handler = new DepthBoundHandler();
  new Parser(handler, { decodeEntities: true }).end(html);
  return handler.root as unknown as DomNode;
}

function render(root: DomNode): string {
  const out: string[] = [];
  // Entries are nodes to enter, or the text to write when a block closes.
  const stack: (DomNode | string)[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') {
      out.push(n);
      continue;
    }
    if (n.type === 'text') {
      out.push((n.data ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if ((n.type !== 'tag' && n.type !== 'root') || dropped(n)) continue;
    const tag = (n.name ?? '').toLowerCase();
    if (tag === 'table') {
      out.push('\n\n');
      walk(n, (tr) => {
        if (tr !== n && dropped(tr)) return false;
        if (tr.type !== 'tag' || tr.name !== 'tr') return;
        const cells = (tr.children ?? [])
          .filter((c) => c.type === 'tag' && (c.name === 'th' || c.name === 'td') && !dropped(c))
          .map((c) => textOf(c, true).replace(/\s+/g, ' ').trim());
        if (cells.some(Boolean)) out.push(`${cells.join(' | ')}\n`);
      });
      out.push('\n');
      continue;
    }
    if (tag === 'pre') {
      out.push(`\n\n${textOf(n, true)}\n\n`);
      continue;
    }
    const block = BLOCK.has(tag);
    if (block) out.push(tag === 'li' ? '\n- ' : tag === 'br' ? '\n' : '\n\n');
    // A list item opens its own line; the list's end closes the paragraph.
    if (block && tag !== 'br' && tag !== 'li') stack.push(tag === 'dt' ? '\n' : '\n\n');
    const children = n.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

function linkOf(a: DomNode, baseUrl: string | undefined): string | null {
  const href = a.attribs?.href;
  if (!href || href.length > LINK_MAX_CHARS || /^(mailto|tel|javascript|data):/i.test(href)) return null;
  if ((a.attribs?.rel ?? '').toLowerCase().split(/\s+/).includes('nofollow')) return null;
  try {
    const url = new URL(href, baseUrl);
    url.hash = '';
    return url.href.length > LINK_MAX_CHARS ? null : url.href;
  } catch {
    return null; // not a URL
  }
}

export function parseHtml(html: string, baseUrl?: string): HtmlPage {
  const root = parse(html);
  let title: DomNode | undefined;
  let h1: DomNode | undefined;
  let robots: string | undefined;
  const links: string[] = [];
  // Title, robots and links are read from the whole page (navigation included); the text from
  // its first <main>, else <article>, else <body>, outside the dropped elements.
  walk(root, (n) => {
    if (n.type !== 'tag') return;
    if (n.name === 'title') title ??= n;
    else if (n.name === 'h1') h1 ??= n;
    else if (n.name === 'meta' && robots === undefined && n.attribs?.name?.toLowerCase() === 'robots') robots = n.attribs.content ?? '';
    else if (n.name === 'a' && links.length < PAGE_MAX_LINKS) {
      const link = linkOf(n, baseUrl);
      if (link) links.push(link);
    }
  });
  const firsts: Record<string, DomNode | undefined> = {};
  walk(root, (n) => {
    if (dropped(n)) return false;
    if (n.type === 'tag' && (n.name === 'main' || n.name === 'article' || n.name === 'body')) firsts[n.name] ??= n;
  });
  const main = firsts.main ?? firsts.article ?? firsts.body ?? root;
  const directives = (robots ?? '').toLowerCase();
  return {
    title: ((title && textOf(title, false)) || (h1 && textOf(h1, false)) || '').replace(/\s+/g, ' ').trim(),
    text: render(main),
    links,
    noindex: /\bnoindex\b|\bnone\b/.test(directives),
    nofollow: /\bnofollow\b|\bnone\b/.test(directives),
  };
}
