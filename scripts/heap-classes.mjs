// What grew between two V8 heap snapshots, by kind and constructor name (self sizes), largest
// first; with a count, also per unit (per socket, per conversation…). Used to find what an idle
// conversation holds (issue 37: bench/concurrent-sockets.ts with BENCH_HEAP_SNAPSHOT=dir).
//
//   node scripts/heap-classes.mjs before.heapsnapshot after.heapsnapshot [units] [rows]
import { readFileSync } from 'node:fs';

function classes(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map();
  const nodes = snap.nodes;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[nodes[i + nameAt]] : '';
    const key = `${type}${name ? ` ${name.slice(0, 60)}` : ''}`;
    const c = out.get(key) ?? { count: 0, bytes: 0 };
    c.count++;
    c.bytes += nodes[i + sizeAt];
    out.set(key, c);
  }
  return out;
}

const [a, b, unitsArg, rowsArg] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node scripts/heap-classes.mjs before.heapsnapshot after.heapsnapshot [units] [rows]');
  process.exit(2);
}
const units = Number(unitsArg ?? 1);
const before = classes(a);
const after = classes(b);
const rows = [...after].map(([key, c]) => {
  const o = before.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: c.count - o.count, bytes: c.bytes - o.bytes };
});
rows.sort((x, y) => y.bytes - x.bytes);
const total = rows.reduce((s, r) => s + r.bytes, 0);
console.log(`grown: ${(total / 1024).toFixed(0)} KB in all, ${(total / units).toFixed(0)} bytes per unit (${units} units)`);
for (const r of rows.slice(0, Number(rowsArg ?? 40))) {
  console.log(
    `${String((r.bytes / units).toFixed(0)).padStart(7)} B/unit ${String((r.count / units).toFixed(2)).padStart(7)} /unit  ${r.key}`,
  );
}
