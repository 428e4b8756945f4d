// Load on cuzk-gateway for bench/e2e/gateway_bench.sh: CONCURRENCY clients,
// each on one keep-alive connection, sending one kind of request for
// SECONDS; prints {requests, rps, p50_ms, p99_ms, errors} as JSON.
// prove: a proof from inputs (POST, then GET ?wait=60), the pair timed as one.
//   node gateway_load.mjs URL CA_PEM|- TOKEN status|submit|capacity|prove CONCURRENCY SECONDS [JOB_ID]
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";

const [url, caFile, token, kind, conc, secs, jobId] = process.argv.slice(2);
const tls = url.startsWith("https");
const agentOpts = { keepAlive: true, maxSockets: 1, ...(tls && caFile !== "-" ? { ca: readFileSync(caFile) } : {}) };
const inputs = JSON.stringify({ circuit: "bounded", inputs: { x: ["11", "22", "33", "44"], bound: "1000" }, priority: "low" });
const lat = [];
let errors = 0;
function request(agent, method, path, body) {
  return new Promise((resolve) => {
    const r = (tls ? https : http).request(url + path, { method, agent, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } }, (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => {
        if (res.statusCode >= 300) errors++;
        resolve(data);
      });
    });
    r.on("error", () => { errors++; resolve(""); });
    r.end(body);
  });
}
async function one(agent) {
  const t0 = process.hrtime.bigint();
  if (kind === "prove") {
    const id = JSON.parse((await request(agent, "POST", "/v1/proofs", inputs.replace('"low"', '"normal"'))) || "{}").id;
    const j = JSON.parse((await request(agent, "GET", `/v1/proofs/${id}?wait=60`)) || "{}");
    if (j.state !== "done") errors++;
  } else if (kind === "status") await request(agent, "GET", `/v1/proofs/${jobId}`);
  else if (kind === "capacity") await request(agent, "GET", "/v1/capacity");
  else await request(agent, "POST", "/v1/proofs", inputs);
  lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const until = Date.now() + Number(secs) * 1000;
const t0 = Date.now();
await Promise.all(Array.from({ length: Number(conc) }, async () => {
  const agent = new (tls ? https : http).Agent(agentOpts);
  while (Date.now() < until) await one(agent);
}));
const elapsed = (Date.now() - t0) / 1000;
lat.sort((a, b) => a - b);
const q = (p) => +lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(2);
console.log(JSON.stringify({ kind, concurrency: Number(conc), requests: lat.length, rps: Math.round(lat.length / elapsed), p50_ms: q(0.5), p99_ms: q(0.99), errors }));
