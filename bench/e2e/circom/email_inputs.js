// Inputs for zk-email's EmailVerifier(maxHeaders, maxBody, 121, 17, 1, 0, 0, 0)
// (body-hash check off), made by hand: a DKIM-style header signed here with a
// fresh RSA-2048 key (PKCS#1 v1.5 over SHA-256, as DKIM's rsa-sha256), the
// header SHA-256-padded and zero-filled to maxHeaders bytes, the modulus and
// the signature in 17 limbs of 121 bits, least significant first.
//   node email_inputs.js MAX_HEADER_BYTES > input.json
const crypto = require("crypto");
const max = Number(process.argv[2] || 1024);

const fields = [
  "from:Alice Example <alice@example.com>",
  "to:bob@example.org",
  "subject:cuzk benchmark " + crypto.randomBytes(8).toString("hex"),
  "date:Sat, 5 Dec 2026 21:00:00 +0000",
  "message-id:<" + crypto.randomBytes(12).toString("hex") + "@example.com>",
  "mime-version:1.0",
  "content-type:text/plain; charset=utf-8",
];
let header = fields.join("\r\n") + "\r\n";
const sig = "dkim-signature:v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.com; s=bench; " +
  "h=from:to:subject:date:message-id:mime-version:content-type; bh=" +
  crypto.createHash("sha256").update("").digest("base64") + "; b=";
header += sig;
// SHA-256 padding: 0x80, zeros, the bit length in 8 bytes; the padded length a multiple of 64.
const room = max - 9;
while (header.length > room - (room % 64)) header = header.slice(0, -1);
const msg = Buffer.from(header, "latin1");
let padded = Buffer.concat([msg, Buffer.from([0x80])]);
while (padded.length % 64 !== 56) padded = Buffer.concat([padded, Buffer.from([0])]);
const len = Buffer.alloc(8);
len.writeBigUInt64BE(BigInt(msg.length) * 8n);
padded = Buffer.concat([padded, len]);
const emailHeader = Array.from(padded).concat(new Array(max - padded.length).fill(0));

const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
const signature = crypto.sign("sha256", msg, privateKey);
if (!crypto.verify("sha256", msg, publicKey, signature)) throw new Error("the signature does not verify");
const n = BigInt("0x" + Buffer.from(publicKey.export({ format: "jwk" }).n, "base64url").toString("hex"));
const limbs = (x) => {
  const out = [];
  for (let i = 0; i < 17; i++, x >>= 121n) out.push((x & ((1n << 121n) - 1n)).toString());
  return out;
};
process.stdout.write(JSON.stringify({
  emailHeader: emailHeader.map(String),
  emailHeaderLength: String(padded.length),
  pubkey: limbs(n),
  signature: limbs(BigInt("0x" + signature.toString("hex"))),
}) + "\n");
