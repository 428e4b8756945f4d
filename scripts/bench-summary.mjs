#!/usr/bin/env node
// Summarizes a Google Benchmark JSON file (--benchmark_out=F.json) as a table:
// operation, time per op, and the blst reference / target of issue 2 where one
// is known. Usage: node scripts/bench-summary.mjs F.json [--markdown]
import { readFileSync } from 'node:fs';

// blst, single-threaded, on the project's 2-core machine (issue 2, item 7).
// Target: within 1.5x of the reference. [lo, hi] in nanoseconds. Benchmarks
// are matched by a normalized name (no BM_ prefix, no underscores, lower
// case), so BM_g1_add, G1_add_jacobian and BM_G1Add all find "G1 add".
const KNOWN = [
  { op: 'Fp mul',               names: ['fpmul'],                                ref: [50, 60] },
  { op: 'Fp square',            names: ['fpsqr', 'fpsquare'] },
  { op: 'Fp inverse',           names: ['fpinverse', 'fpinv'] },
  { op: 'Fr mul',               names: ['frmul'],                                ref: [28, 30] },
  { op: 'G1 add (Jacobian)',    names: ['g1add', 'g1addjacobian'],               ref: [1000, 1200] },
  { op: 'G1 mixed add',         names: ['g1madd', 'g1addmixed', 'g1mixedadd'] },
  { op: 'G1 double',            names: ['g1double', 'g1dbl'] },
  { op: 'G1 scalar mul',        names: ['g1scalarmul', 'g1mul'],                 ref: [120e3, 120e3] },
  { op: 'G2 add (Jacobian)',    names: ['g2add', 'g2addjacobian'] },
  { op: 'G2 mixed add',         names: ['g2madd', 'g2addmixed', 'g2mixedadd'] },
  { op: 'G2 double',            names: ['g2double', 'g2dbl'] },
  { op: 'G2 scalar mul',        names: ['g2scalarmul', 'g2mul'],                 ref: [275e3, 300e3] },
  { op: 'Miller loop',          names: ['millerloop'] },
  { op: 'final exponentiation', names: ['finalexp', 'finalexponentiation'] },
  { op: 'pairing',              names: ['pairing'],                              ref: [770e3, 1000e3] },
];
const normalize = (name) => name.replace(/^BM_/i, '').replace(/[_\s-]/g, '').toLowerCase();
const lookup = (base) => KNOWN.find((k) => k.names.includes(normalize(base)));
// A readable operation name for benchmarks without an entry: "BM_Fp12Mul" ->
// "Fp12 mul", "G1_subgroup_check" -> "G1 subgroup check".
const TOKENS = { fp: 'Fp', fr: 'Fr', fp2: 'Fp2', fp6: 'Fp6', fp12: 'Fp12', g1: 'G1', g2: 'G2', msm: 'MSM', ntt: 'NTT' };
const pretty = (base) => base.replace(/^BM_/i, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[_\s]+/)
  .filter(Boolean).map((w) => TOKENS[w.toLowerCase()] ?? w.toLowerCase()).join(' ');
const TARGET = 1.5;
const UNIT_NS = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: bench-summary.mjs RESULTS.json [--markdown]');
  process.exit(2);
}
const data = JSON.parse(readFileSync(file, 'utf8'));

// One row per benchmark run: the median aggregate when repetitions ran,
// otherwise the (last) plain iteration entry. Order of first appearance.
const rows = new Map();
for (const b of data.benchmarks ?? []) {
  if (b.error_occurred) {
    rows.set(b.run_name ?? b.name, { name: b.run_name ?? b.name, error: b.error_message ?? 'error' });
    continue;
  }
  const name = b.run_name ?? b.name;
  const isMedian = b.run_type === 'aggregate' && b.aggregate_name === 'median';
  const isIter = (b.run_type ?? 'iteration') === 'iteration';
  if (!isMedian && !isIter) continue;
  const prev = rows.get(name);
  if (prev?.median && !isMedian) continue;
  const unit = UNIT_NS[b.time_unit ?? 'ns'] ?? 1;
  rows.set(name, { name, median: isMedian, real: b.real_time * unit, cpu: b.cpu_time * unit });
}

function fmt(ns) {
  const [div, u] = ns < 1e3 ? [1, 'ns'] : ns < 1e6 ? [1e3, 'µs'] : ns < 1e9 ? [1e6, 'ms'] : [1e9, 's'];
  const v = ns / div;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${u}`;
}
// Reference figures as written in the issue: "50–60 ns", "0.77–1 ms".
function fmtRange([lo, hi]) {
  const [div, u] = hi < 1e3 ? [1, 'ns'] : hi < 1e6 ? [1e3, 'µs'] : hi < 1e9 ? [1e6, 'ms'] : [1e9, 's'];
  const n = (v) => String(Number((v / div).toPrecision(3)));
  return lo === hi ? `${n(hi)} ${u}` : `${n(lo)}–${n(hi)} ${u}`;
}

const header = ['operation', 'benchmark', 'cuzk (wall/op)', 'blst reference', 'ratio', `target ≤ ${TARGET}×`];
const table = [];
let anyBusy = false;
for (const r of rows.values()) {
  const base = r.name.split('/')[0];
  const k = lookup(base);
  const op = (k ? k.op : pretty(base)) + r.name.slice(base.length);
  if (r.error) { table.push([op, r.name, `error: ${r.error}`, '', '', '']); continue; }
  let ref = '', ratio = '', verdict = '';
  if (k?.ref && base === r.name) {
    const [lo, hi] = k.ref;
    ref = fmtRange(k.ref);
    const a = r.real / hi, b = r.real / lo;
    ratio = Math.abs(a - b) < 0.005 ? `${a.toFixed(2)}×` : `${a.toFixed(2)}–${b.toFixed(2)}×`;
    verdict = r.real <= TARGET * hi ? `meets (≤ ${fmt(TARGET * hi)})` : `misses (> ${fmt(TARGET * hi)})`;
  }
  const busy = r.real > 1.1 * r.cpu;
  if (busy) anyBusy = true;
  table.push([op, r.name, fmt(r.real) + (busy ? ' *' : ''), ref, ratio, verdict]);
}

if (!table.length) {
  console.log('no benchmark results in', file);
  process.exit(1);
}

const ctx = data.context ?? {};
const note = [
  `${rows.size} benchmarks, ${[...rows.values()].some((r) => r.median) ? 'median of repetitions' : 'single run each'}; ` +
    `wall time per operation, single-threaded unless the name says otherwise.`,
  `ratio = cuzk / blst (against both ends of blst's range); target = within ${TARGET}× of blst's upper figure.`,
  `host: ${ctx.host_name ?? '?'}, ${ctx.num_cpus ?? '?'} CPUs @ ${ctx.mhz_per_cpu ?? '?'} MHz, ` +
    `${ctx.date ?? ''}`,
];
if (anyBusy) {
  note.push('* wall time exceeds CPU time by more than 10%: the machine was busy (or the benchmark is multi-threaded).');
}

if (markdown) {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of table) console.log(`| ${row.map((c) => c || '—').join(' | ')} |`);
  console.log();
  for (const n of note) console.log(`- ${n}`);
} else {
  const width = header.map((h, i) => Math.max([...h].length, ...table.map((r) => [...r[i]].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(width[i])).join('  ').trimEnd();
  console.log(line(header));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const row of table) console.log(line(row));
  console.log();
  for (const n of note) console.log(n);
}
