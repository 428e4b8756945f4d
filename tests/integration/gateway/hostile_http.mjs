// A hostile HTTP client against the gateway, from loopback addresses other
// than the legitimate client's (127.0.0.2 and up), for DURATION seconds, all
// at once: slowloris (headers a byte at a time), idle TCP connections that
// never start TLS, a flood of TLS handshakes, bodies over the limit (sized
// and chunked), malformed requests, too many and too large headers, header
// injection, JSON nested 10,000 deep, path traversal in circuit names and
// job ids, webhooks aimed at private addresses, a request-rate flood and a
// long-poll flood on its own key, and unknown keys. Writes what each attack
// got back (status codes, or how the connection ended) as JSON.
// The long-poll flood uses a second key of its own (TOKEN2), so that the
// first key's request rate does not stop it before its bound does.
//   node hostile_http.mjs URL CA_PEM TOKEN TOKEN2 DURATION_S OUT_JSON
import { readFileSync, writeFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";

const [url, caFile, token, token2, durationS, out] = process.argv.slice(2);
const { hostname, port } = new URL(url);
const ca = readFileSync(caFile);
const until = Date.now() + Number(durationS) * 1000;
const got = {};
const note = (attack, what) => {
  got[attack] ??= {};
  got[attack][what] = (got[attack][what] || 0) + 1;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const from = (n) => `127.0.0.${n}`;

/* One TLS connection from a source address: sends `chunks` (with `gapMs` between them), resolves with the
   status of the first response or how the connection ended. */
function exchange(src, chunks, gapMs = 0, servername = "localhost") {
  return new Promise((resolve) => {
    let data = "";
    let done = false;
    const end = (what) => { if (!done) { done = true; s.destroy(); resolve(what); } };
    const s = tls.connect({ host: hostname, port: Number(port), localAddress: src, ca, servername }, async () => {
      for (const c of chunks) {
        if (done || s.destroyed) return;
        s.write(c);
        if (gapMs) await sleep(gapMs);
      }
    });
    s.setTimeout(30000, () => end("stalled"));
    s.on("data", (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) end(m[1]);
    });
    s.on("error", (e) => end(e.code || "error"));
    s.on("close", () => end("closed"));
  });
}
/* A whole request on a connection of its own: {status, body}. */
function call(src, method, path, body, key = token) {
  return new Promise((resolve) => {
    const r = https.request(url + path, { method, ca, localAddress: src, agent: false, servername: "localhost",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" } }, (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode, body: data }));
    });
    r.setTimeout(30000, () => r.destroy(new Error("stalled")));
    r.on("error", (e) => resolve({ status: e.code || e.message, body: "" }));
    r.end(body);
  });
}
const req = (method, path, headers = {}, body = "") =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n` +
  Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
  (body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : "") + `\r\n` + body;
const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };

const attacks = {
  async slowloris() { // many connections, each dribbling its header a byte at a time
    const conns = [];
    for (let i = 0; i < 40; i++) conns.push(exchange(from(2), [..."GET /v1/capacity HTTP/1.1\r\nHost: x\r\nX-a: " + "b".repeat(400)], 300));
    for (const r of await Promise.all(conns)) note("slowloris", r);
  },
  async idleTcp() { // connections that never start TLS
    const socks = [];
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => {
        const s = net.connect({ host: hostname, port: Number(port), localAddress: from(3) });
        s.on("connect", resolve);
        s.on("error", (e) => { note("idleTcp", e.code); resolve(); });
        s.on("close", () => note("idleTcp", "closed"));
        socks.push(s);
      });
    }
    await sleep(4000);
    socks.forEach((s) => s.destroy());
  },
  async handshakeFlood() {
    const all = [];
    for (let i = 0; i < 20; i++)
      all.push(new Promise((resolve) => {
        const s = tls.connect({ host: hostname, port: Number(port), localAddress: from(4), ca, servername: "localhost" }, () => { note("handshakeFlood", "handshake"); s.destroy(); resolve(); });
        s.on("error", (e) => { note("handshakeFlood", e.code || "error"); resolve(); });
      }));
    await Promise.all(all);
  },
  async hugeBodies() {
    note("hugeBodies", await exchange(from(5), [req("POST", "/v1/proofs", { ...auth, "Content-Length": "10000000000" })]));
    note("hugeBodies", await exchange(from(5), [req("POST", "/v1/proofs", { ...auth, "Transfer-Encoding": "chunked" }),
      ...Array(20).fill(`10000\r\n${"a".repeat(0x10000)}\r\n`)]));
    note("hugeWitness", await exchange(from(5), [req("POST", "/v1/proofs?key=x", { ...auth, "Content-Type": "application/octet-stream", "Content-Length": "99999999999999" })]));
  },
  async malformed() {
    note("malformed", await exchange(from(6), ["\x16\x03\x01garbage\r\n\r\n"]));
    note("malformed", await exchange(from(6), ["GET /v1/capacity HTTP/9.9\r\n\r\n"]));
    note("malformed", await exchange(from(6), [req("POST", "/v1/proofs", auth, "{\"circuit\": ")]));
  },
  async headers() {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`X-h${i}`, "v"]));
    note("headerFields", await exchange(from(7), [req("GET", "/v1/capacity", { ...auth, ...many })]));
    note("headerBytes", await exchange(from(7), [req("GET", "/v1/capacity", { ...auth, "X-big": "a".repeat(20000) })]));
    // a CR inside a value, and a CRLF smuggled into what would become the Location header
    note("headerInjection", await exchange(from(7), [`GET /v1/capacity HTTP/1.1\r\nHost: x\r\nX-a: b\rX-Injected: 1\r\n\r\n`]));
    note("headerInjection", await exchange(from(7), [req("POST", "/v1/proofs", { ...auth, "Idempotency-Key": "a%0d%0aSet-Cookie:%20x=1" }, JSON.stringify({ circuit: "bounded", inputs: {} }))]));
  },
  async deepJson() {
    note("deepJson", await exchange(from(8), [req("POST", "/v1/proofs", auth, "[".repeat(10000) + "]".repeat(10000))]));
    note("deepJson", await exchange(from(8), [req("POST", "/v1/proofs", auth, JSON.stringify({ circuit: "bounded", inputs: { x: "[".repeat(5000) } }).replace(/"\[+"/, "[".repeat(5000) + "]".repeat(5000)))]));
  },
  async traversal() {
    for (const c of ["../../../../etc/passwd", "/etc/passwd", "bounded/../bounded", "..", "a\u0000b"])
      note("traversal", await exchange(from(9), [req("POST", "/v1/proofs", auth, JSON.stringify({ circuit: c, inputs: {} }))]));
    note("traversal", await exchange(from(9), [req("POST", "/api/v1/proof/generate", auth, JSON.stringify({ circuit_name: "../x", inputs: {} }))]));
    note("traversal", await exchange(from(9), [req("GET", "/v1/proofs/..%2F..%2Fetc%2Fpasswd", auth)]));
    const posted = await exchange(from(9), [req("POST", "/input/..%2F..%2Fetc%2Fpasswd", auth, "{}")]);
    note("traversalRapidsnark", posted);
    if (posted !== "200") return; // rate-limited (the flood shares the key): no job, so /status would say ready
    const st = await call(from(9), "GET", "/status");  // rapidsnark's way: 200 at once, the failure in /status
    note("traversalRapidsnark", st.status === 200 ? JSON.parse(st.body).status : String(st.status));
  },
  async privateWebhooks() {
    for (const u of ["http://127.0.0.1:22/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://10.1.2.3/", "http://0x7f000001/"])
      note("privateWebhook", await exchange(from(10), [req("POST", "/v1/proofs", auth, JSON.stringify({ circuit: "bounded", inputs: {}, callback_url: u }))]));
  },
  async rateFlood() { // one keep-alive connection after another, as fast as it goes
    for (let i = 0; i < 12; i++)
      note("rateFlood", await exchange(from(11), Array(25).fill(req("GET", "/v1/capacity", auth))));
  },
  async longPollFlood() { // jobs queued behind others, each waited for three times at once
    const ids = [];
    for (let i = 0; i < 8; i++) {
      const r = await call(from(12), "POST", "/v1/proofs", JSON.stringify({ circuit: "bounded", inputs: { x: ["1", "2", "3", "4"], bound: "9" }, priority: "low" }), token2);
      if (r.status === 202) ids.push(JSON.parse(r.body).id);
      else note("longPollFlood", "submit " + r.status);
    }
    const all = [];
    for (let i = 0; i < 24 && ids.length; i++)
      all.push(call(from(12 + (i % 4)), "GET", `/v1/proofs/${ids[i % ids.length]}?wait=5`, undefined, token2).then((r) => r.status));
    for (const r of await Promise.all(all)) note("longPollFlood", String(r));
  },
  async unknownKeys() {
    for (let i = 0; i < 20; i++)
      note("unknownKey", await exchange(from(16), [req("GET", "/v1/capacity", { Authorization: `Bearer cuzk_${"A".repeat(43)}` })]));
  },
};

let rounds = 0;
while (Date.now() < until) {
  await Promise.all(Object.values(attacks).map((a) => a().catch((e) => note("error", String(e)))));
  rounds++;
}
writeFileSync(out, JSON.stringify({ rounds, got }, null, 1));
console.log(`hostile client: ${rounds} rounds`, JSON.stringify(got));
