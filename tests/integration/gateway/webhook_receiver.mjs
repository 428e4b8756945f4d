// A webhook receiver for the gateway's tests: checks each delivery's
// Cuzk-Signature (t=T,v1=HMAC-SHA256(SHA-256 of the key's token, "T.BODY"))
// with the hash the key's file holds, and keeps the bodies it accepts.
//   /ok: 200; /flaky: 500 the first time, then 200; /redirect: 302 elsewhere.
//   node webhook_receiver.mjs KEY_FILE OUT_DIR   (writes OUT_DIR/port, logs one line per delivery)
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";

const [keyFile, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const secret = Buffer.from(readFileSync(keyFile, "utf8").trim().replace(/^sha256:/, ""), "hex");
const seen = {};
let n = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString();
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(req.headers["cuzk-signature"] || "");
    const want = m && createHmac("sha256", secret).update(`${m[1]}.${body}`).digest();
    const ok = m && timingSafeEqual(want, Buffer.from(m[2], "hex")) && Math.abs(Date.now() / 1000 - Number(m[1])) < 300;
    seen[req.url] = (seen[req.url] || 0) + 1;
    console.log(`${req.method} ${req.url} id=${req.headers["cuzk-webhook-id"]} signature=${ok ? "ok" : "BAD"} try=${seen[req.url]}`);
    if (!ok) { res.writeHead(401); return res.end(); }
    if (req.url === "/redirect") { res.writeHead(302, { Location: "http://127.0.0.1:1/" }); return res.end(); }
    if (req.url === "/flaky" && seen[req.url] === 1) { res.writeHead(500); return res.end(); }
    writeFileSync(`${out}/${++n}.json`, body);
    res.writeHead(204);
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => writeFileSync(`${out}/port`, String(server.address().port)));
