// Latency of the session calls against a running product (loopback only).
// Usage: API_URL=http://localhost:8080 ADMIN_EMAIL=… ADMIN_PASSWORD=… node bench/auth-latency.mjs
// Bounded: a fixed number of requests per scenario, nothing runs forever.
const api = process.env.API_URL ?? 'http://localhost:8080';
const email = process.env.ADMIN_EMAIL ?? 'admin@balcao.local';
const password = process.env.ADMIN_PASSWORD;
if (!password) throw new Error('Set ADMIN_PASSWORD to the super user password');

const url = new URL(api);
if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) throw new Error('Benchmarks only target loopback');

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function summary(name, samples, wallMs) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  const rps = ((samples.length / wallMs) * 1000).toFixed(0);
  console.log(`${name.padEnd(28)} n=${samples.length} p50=${pick(0.5)}ms p95=${pick(0.95)}ms p99=${pick(0.99)}ms ${rps} req/s`);
}

async function run(name, total, concurrency, call) {
  const samples = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        samples.push(await timed(call));
      }
    }),
  );
  summary(name, samples, performance.now() - started);
}

async function login() {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login answered ${res.status}`);
  return res.json();
}

const { token } = await login();
const me = async () => {
  const res = await fetch(`${api}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`/auth/me answered ${res.status}`);
  await res.arrayBuffer();
};
const publicSetting = async () => {
  const res = await fetch(`${api}/public-settings/appName`);
  await res.arrayBuffer();
};

await run('GET /public-settings/appName', 2000, 16, publicSetting);
await run('GET /auth/me', 2000, 16, me);
await run('POST /auth/login (argon2id)', 8, 1, login);
