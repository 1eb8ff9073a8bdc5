// A QuickJS workload for gimso's real-program runs: objects and property
// access, closures, classes, arrays sorted with a comparator, strings,
// JSON, regular expressions, Map/Set, typed arrays, generators, promises
// and exceptions. Prints checksums only, so the output is the same on
// every build: `qjs workload.js [scale]`.
const scale = Number(globalThis.scriptArgs?.[1] ?? 1);

function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function objects(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push({ id: i, name: "item" + i, tags: [i % 7, i % 11], next: null });
  for (let i = 1; i < n; i++) a[i - 1].next = a[i];
  let s = 0;
  for (let o = a[0]; o; o = o.next) s = (s + o.id * o.tags[0] + o.tags[1]) % 1000000007;
  a.sort((x, y) => (x.tags[1] - y.tags[1]) || (y.id - x.id));
  return [s, a[0].id, a[n - 1].id, a[n >> 1].name];
}

function closures(n) {
  const make = (k) => { let c = k; return { inc: () => ++c, get: () => c }; };
  const cs = [];
  for (let i = 0; i < 64; i++) cs.push(make(i));
  let s = 0;
  for (let i = 0; i < n; i++) s += cs[i & 63].inc();
  const fib = (k) => (k < 2 ? k : fib(k - 1) + fib(k - 2));
  return [s, cs[5].get(), fib(18 + Math.min(scale, 4))];
}

class Vec {
  constructor(x, y) { this.x = x; this.y = y; }
  add(o) { return new Vec(this.x + o.x, this.y + o.y); }
  scale(k) { return new Vec(this.x * k, this.y * k); }
  get len2() { return this.x * this.x + this.y * this.y; }
}
class Particle extends Vec {
  constructor(x, y, m) { super(x, y); this.m = m; }
  toString() { return `P(${this.x.toFixed(2)},${this.y.toFixed(2)})`; }
}

function classes(n) {
  let acc = new Vec(0, 0);
  const ps = [];
  for (let i = 0; i < 256; i++) ps.push(new Particle(i % 13, i % 17, 1 + (i % 5)));
  for (let i = 0; i < n; i++) acc = acc.add(ps[i & 255].scale(0.5));
  return [acc.x, acc.y, Math.round(acc.len2), String(ps[42])];
}

function strings(n) {
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(i.toString(36).padStart(5, "0"));
  const joined = parts.join(",");
  const up = joined.toUpperCase();
  const words = up.split(",").filter((w) => w.includes("A")).map((w) => w.split("").reverse().join(""));
  const replaced = joined.replace(/0+([1-9a-z])/g, "<$1>");
  return [joined.length, hash(up), words.length, hash(words.join("")), replaced.length, hash(replaced)];
}

function json(n) {
  const doc = [];
  for (let i = 0; i < n; i++) doc.push({ k: "key" + i, v: [i, i * 0.5, String(i)], nested: { ok: i % 2 === 0, n: null } });
  const text = JSON.stringify(doc);
  const back = JSON.parse(text);
  let s = 0;
  for (const d of back) s += d.v[0] + (d.nested.ok ? 1 : 0);
  return [text.length, hash(text), s, JSON.stringify(back[n - 1])];
}

function regexps(n) {
  const re = /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/g;
  let text = "";
  for (let i = 0; i < n; i++) text += `event ${i} at 20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:3${i % 6}; `;
  let count = 0, sum = 0;
  for (const m of text.matchAll(re)) { count++; sum += Number(m[1]) + Number(m[3]) + Number(m[5]); }
  const words = text.match(/\b[a-z]+\b/g).length;
  return [count, sum, words, /^(a+)+$/.test("a".repeat(20) + "b")];
}

function collections(n) {
  const m = new Map();
  const s = new Set();
  for (let i = 0; i < n; i++) {
    m.set("k" + (i % 5000), (m.get("k" + (i % 5000)) || 0) + i);
    s.add(i % 7919);
  }
  let t = 0;
  for (const [k, v] of m) t = (t + v + k.length) % 1000000007;
  const ws = new WeakMap();
  const keys = [];
  for (let i = 0; i < 1000; i++) { const o = { i }; keys.push(o); ws.set(o, i * 2); }
  let w = 0;
  for (const o of keys) w += ws.get(o);
  return [m.size, s.size, t, w];
}

function typed(n) {
  const f = new Float64Array(n);
  const u = new Uint8Array(n);
  for (let i = 0; i < n; i++) { f[i] = Math.sin(i) * 1000; u[i] = i * 31; }
  f.sort();
  let s = 0;
  for (let i = 0; i < n; i += 7) s += f[i];
  const dv = new DataView(u.buffer);
  let x = 0;
  for (let i = 0; i + 4 <= n; i += 4) x ^= dv.getUint32(i, true);
  return [Math.round(s), x >>> 0, u.subarray(10, 20).reduce((a, b) => a + b, 0)];
}

function* primes() {
  const seen = [];
  for (let k = 2; ; k++) if (seen.every((p) => k % p !== 0)) { seen.push(k); yield k; }
}

function generators(n) {
  let s = 0, c = 0;
  for (const p of primes()) { if (c++ >= n) break; s += p; }
  return [c - 1, s];
}

function exceptions(n) {
  let caught = 0, finals = 0;
  for (let i = 0; i < n; i++) {
    try {
      if (i % 3 === 0) throw new RangeError("r" + i);
      if (i % 3 === 1) null.x;
      JSON.parse("{bad");
    } catch (e) {
      caught += e instanceof RangeError ? 1 : e instanceof TypeError ? 2 : 3;
    } finally {
      finals++;
    }
  }
  return [caught, finals];
}

async function promises(n) {
  let s = 0;
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(Promise.resolve(i).then((v) => v * 2));
  for (const v of await Promise.all(tasks)) s += v;
  const r = await Promise.allSettled([Promise.reject(new Error("no")), Promise.resolve(1)]);
  return [s, r[0].status, r[1].value];
}

const rounds = 2 * scale;
const out = [];
for (let r = 0; r < rounds; r++) {
  out.push(["objects", objects(20000)]);
  out.push(["closures", closures(200000)]);
  out.push(["classes", classes(100000)]);
  out.push(["strings", strings(20000)]);
  out.push(["json", json(10000)]);
  out.push(["regexps", regexps(5000)]);
  out.push(["collections", collections(50000)]);
  out.push(["typed", typed(50000)]);
  out.push(["generators", generators(1500)]);
  out.push(["exceptions", exceptions(20000)]);
}
promises(10000 * scale).then((p) => {
  out.push(["promises", p]);
  for (const [name, v] of out.slice(-11)) console.log(name, JSON.stringify(v));
  console.log("rounds", rounds, "checksum", hash(JSON.stringify(out)));
});
