// HTML → readable text (cheerio): the page's main content with paragraph breaks, list items
// and table rows kept readable ("cell | cell"), without scripts, styles, navigation and forms.
// Also the page's title and its links, for the crawler.
import { load, type CheerioAPI } from 'cheerio/slim';

/** The parts of a parsed DOM node this walk reads (domhandler's nodes). */
interface DomNode {
  type: string;
  data?: string;
  name?: string;
  children?: DomNode[];
}

const DROP =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, form, nav, footer, aside, [hidden], [aria-hidden="true"]';
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'br',
  'table',
  'tr',
]);

export interface HtmlPage {
  title: string;
  text: string;
  links: string[];
  /** <meta name="robots"> directives. */
  noindex: boolean;
  nofollow: boolean;
}

function render($: CheerioAPI, root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode) => {
    if (node.type === 'text') {
      out.push((node.data ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root') return;
    const el = node as never;
    const tag = (node.name ?? '').toLowerCase();
    if (tag === 'table') {
      out.push('\n\n');
      $(el)
        .find('tr')
        .each((_, tr) => {
          const cells = $(tr)
            .children('th, td')
            .map((__, c) => $(c).text().replace(/\s+/g, ' ').trim())
            .get();
          if (cells.some(Boolean)) out.push(`${cells.join(' | ')}\n`);
        });
      out.push('\n');
      return;
    }
    if (tag === 'pre') {
      out.push(`\n\n${$(el).text()}\n\n`);
      return;
    }
    const block = BLOCK.has(tag);
    if (block) out.push(tag === 'li' ? '\n- ' : tag === 'br' ? '\n' : '\n\n');
    for (const child of node.children ?? []) walk(child);
    // A list item opens its own line; the list's end closes the paragraph.
    if (block && tag !== 'br' && tag !== 'li') out.push(tag === 'dt' ? '\n' : '\n\n');
  };
  walk(root);
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

export function parseHtml(html: string, baseUrl?: string): HtmlPage {
  const $ = load(html);
  const robots = ($('meta[name="robots" i]').attr('content') ?? '').toLowerCase();
  const title = ($('title').first().text() || $('h1').first().text()).replace(/\s+/g, ' ').trim();
  const links: string[] = [];
  $('a[href]').each((_, a) => {
    const href = $(a).attr('href');
    if (!href || /^(mailto|tel|javascript|data):/i.test(href)) return;
    if (($(a).attr('rel') ?? '').toLowerCase().split(/\s+/).includes('nofollow')) return;
    try {
      const url = new URL(href, baseUrl);
      url.hash = '';
      links.push(url.href);
    } catch {
      // not a URL: skip
    }
  });
  $(DROP).remove();
  const main = $('main').first().get(0) ?? $('article').first().get(0) ?? $('body').first().get(0) ?? $.root().get(0);
  const text = main ? render($, main as unknown as DomNode) : '';
  return { title, text, links, noindex: /\bnoindex\b|\bnone\b/.test(robots), nofollow: /\bnofollow\b|\bnone\b/.test(robots) };
}
