// One set of SSRF vectors for every entry point that fetches a URL (the outbound client, the
// proxy, URL items, crawl, LLM base URL, REST endpoint URL, OAuth URLs). `{canary}` is the
// port of a listener on loopback that must never see a connection; names under
// `.private-resolve.test` are answered by the test resolver with private addresses.

export const PRIVATE_NAMES: Record<string, string[]> = {
  'loopback.private-resolve.test': ['127.0.0.1'],
  'ten.private-resolve.test': ['10.1.2.3'],
  'metadata.private-resolve.test': ['169.254.169.254'],
  'v6.private-resolve.test': ['::1'],
  'mixed.private-resolve.test': ['93.184.216.34', '192.168.1.20'],
  'mapped.private-resolve.test': ['::ffff:127.0.0.1'],
  'compat.private-resolve.test': ['::7f00:1'],
  'nonglobal6.private-resolve.test': ['4000::1'],
};

/** The test resolver: names under .private-resolve.test answer their private addresses, every
 *  other name is unknown (no test reaches a real DNS server). */
export function privateResolver(
  hostname: string,
  cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void,
): void {
  const list = PRIVATE_NAMES[hostname.toLowerCase()];
  if (!list) return cb(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  cb(
    null,
    list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
}

/** Where a redirect vector points: a redirector on an allowed address sends each of these on. */
export function redirectTargets(canary: number): string[] {
  return [
    `http://127.0.0.1:${canary}/`,
    `http://[::1]:${canary}/`,
    `http://localhost:${canary}/`,
    `http://2130706433:${canary}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    `http://loopback.private-resolve.test:${canary}/`,
    'file:///etc/passwd',
  ];
}

/**
 * The vector set. With `redirector` (the base URL of a loopback stand-in the server may reach,
 * answering `/redirect?status=N&to=URL` with that redirect), redirects to private addresses are
 * added: one per target with 302, and the first ones with 301, 303, 307 and 308 too.
 */
export function ssrfVectors(canary: number, redirector?: string): string[] {
  const c = canary;
  const redirects = redirector
    ? [
        ...redirectTargets(c).map((t) => `${redirector}/redirect?status=302&to=${encodeURIComponent(t)}`),
        ...[301, 303, 307, 308].map(
          (status) => `${redirector}/redirect?status=${status}&to=${encodeURIComponent(`http://127.0.0.1:${c}/`)}`,
        ),
        `${redirector}/redirect?status=302&to=${encodeURIComponent(`${redirector}/redirect?status=302&to=${encodeURIComponent(`http://127.0.0.1:${c}/`)}`)}`,
      ]
    : [];
  return [
    ...redirects,
    // loopback, every spelling Node's URL parser turns into 127.0.0.1
    `http://127.0.0.1:${c}/`,
    `http://127.1:${c}/`,
    `http://127.0.1:${c}/`,
    `http://2130706433:${c}/`,
    `http://0x7f000001:${c}/`,
    `http://0x7f.0x0.0x0.0x1:${c}/`,
    `http://0177.0.0.1:${c}/`,
    `http://017700000001:${c}/`,
    `http://１２７.０.０.１:${c}/`,
    `http://127.255.255.254:${c}/`,
    `http://localhost:${c}/`,
    `http://LOCALHOST.:${c}/`,
    `http://api.localhost:${c}/`,
    `http://[::1]:${c}/`,
    `http://[0:0:0:0:0:0:0:1]:${c}/`,
    `http://[::ffff:127.0.0.1]:${c}/`,
    `http://[::ffff:7f00:1]:${c}/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${c}/`,
    // IPv4-compatible IPv6 (the deprecated ::/96 block): the URL parser writes [::7f00:1]
    `http://[::127.0.0.1]:${c}/`,
    `http://[::7f00:1]:${c}/`,
    `http://[0:0:0:0:0:0:127.0.0.1]:${c}/`,
    'http://[::10.0.0.1]/',
    'http://[::169.254.169.254]/latest/meta-data/',
    'http://[::8.8.8.8]/',
    `http://0.0.0.0:${c}/`,
    `http://0:${c}/`,
    `http://[::]:${c}/`,
    // private, CGNAT, link-local, metadata, reserved, multicast
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://192.0.0.170/',
    'http://198.18.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[2002:7f00:1::]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2001::1]/',
    // IPv6 outside global unicast (2000::/3) that ipaddr.js still calls "unicast"
    'http://[4000::1]/',
    'http://[::2]/',
    'http://[::ffff:0:7f00:1]/',
    'http://intranet/',
    'http://printer.local/',
    'http://db.internal/',
    // names that resolve to private addresses
    `http://loopback.private-resolve.test:${c}/`,
    'http://ten.private-resolve.test/',
    'http://metadata.private-resolve.test/',
    `http://v6.private-resolve.test:${c}/`,
    'http://mixed.private-resolve.test/',
    `http://mapped.private-resolve.test:${c}/`,
    `http://compat.private-resolve.test:${c}/`,
    'http://nonglobal6.private-resolve.test/',
    // other schemes
    'file:///etc/passwd',
    'ftp://127.0.0.1/',
    'gopher://127.0.0.1:6379/_INFO',
    'data:text/plain,hello',
    'javascript:alert(1)',
    `ws://127.0.0.1:${c}/`,
    // malformed
    'http://',
    'not a url',
  ];
}
