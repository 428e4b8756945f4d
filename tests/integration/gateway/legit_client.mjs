// The legitimate client beside the hostile one: proves `bounded` from its
// inputs again and again for DURATION seconds over one keep-alive TLS
// connection, asking for each job's state every 100 ms, and times every
// request. Writes each proof (for snarkjs) and the latencies.
//   node legit_client.mjs URL CA_PEM TOKEN DURATION_S OUT_DIR
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import https from "node:https";

const [url, caFile, token, durationS, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: readFileSync(caFile) });
const lat = [];
function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const r = https.request(url + path, { method, agent, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } }, (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => {
        lat.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, what: `${method} ${path.split("/").slice(0, 3).join("/")}`, status: res.statusCode });
        resolve({ status: res.statusCode, json: JSON.parse(data) });
      });
    });
    r.setTimeout(10000, () => r.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    r.on("error", reject);
    r.end(body);
  });
}
const until = Date.now() + Number(durationS) * 1000;
let n = 0;
while (Date.now() < until) {
  const inputs = { x: Array.from({ length: 4 }, () => String(Math.floor(Math.random() * 1000))), bound: "1000" };
  const s = await call("POST", "/v1/proofs", JSON.stringify({ circuit: "bounded", inputs }));
  if (s.status !== 202) throw new Error(`submit: ${s.status} ${JSON.stringify(s.json)}`);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const g = await call("GET", `/v1/proofs/${s.json.id}`);
    if (g.status !== 200) throw new Error(`status: ${g.status} ${JSON.stringify(g.json)}`);
    if (g.json.state === "failed") throw new Error(`failed: ${g.json.error}`);
    if (g.json.state === "done") {
      writeFileSync(`${out}/proof${++n}.json`, JSON.stringify(g.json.proof));
      writeFileSync(`${out}/public${n}.json`, JSON.stringify(g.json.public_signals));
      break;
    }
  }
}
const ms = lat.map((l) => l.ms).sort((a, b) => a - b);
const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
const summary = { proofs: n, requests: ms.length, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: ms.at(-1), slowest: lat.sort((a, b) => b.ms - a.ms).slice(0, 3) };
writeFileSync(`${out}/latency.json`, JSON.stringify(summary, null, 1));
console.log("legitimate client:", JSON.stringify(summary));
