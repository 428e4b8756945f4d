// The gateway's contract, checked by others' code: the OpenAPI 3.1 document
// by @seriousme/openapi-schema-validator, then every response a test
// recorded (one JSON line each: method, path, status, content_type, body
// file) by Ajv (JSON Schema 2020-12) against the schema the document gives
// that operation, status and media type. A status or media type the
// document does not list fails too; a request for no operation of it must
// get 404 problem+json.
//   node openapi_check.mjs NODE_MODULES OPENAPI_JSON RESPONSES_NDJSON [WEBHOOK_BODIES_DIR]
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nm, docPath, responsesPath, hooksDir] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(nm, p)).href);
const { Validator } = await load("@seriousme/openapi-schema-validator/index.js");
const Ajv2020 = (await load("ajv/dist/2020.js")).default.default;
const doc = JSON.parse(readFileSync(docPath, "utf8"));

const v = new Validator();
const res = await v.validate(structuredClone(doc));
if (!res.valid || v.version !== "3.1") {
  console.error("the OpenAPI document is not valid 3.1:", JSON.stringify(res.errors, null, 1));
  process.exit(1);
}
console.log(`openapi.json: a valid OpenAPI ${v.version} document (${Object.keys(doc.paths).length} paths)`);

const id = "https://cuzk.invalid/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: id });
const enc = (s) => encodeURIComponent(s.replaceAll("~", "~0").replaceAll("/", "~1"));
const templates = Object.keys(doc.paths).map((t) => ({
  t,
  re: new RegExp("^" + t.replace(/\{[^}]+\}/g, "[^/]+") + "$"),
}));
const problems = [];
let checked = 0;
for (const line of readFileSync(responsesPath, "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(line);
  const path = r.path.split("?")[0];
  const what = `${r.method} ${r.path} -> ${r.status}`;
  const tpl = templates.find((x) => x.re.test(path));
  const op = tpl && doc.paths[tpl.t][r.method.toLowerCase()];
  // A request the document has no operation for is answered 404 problem+json (as its description says).
  const responses = op ? op.responses : r.status === 404 ? { 404: { $ref: "#/components/responses/Problem" } } : {};
  let ptr = op ? `#/paths/${enc(tpl.t)}/${r.method.toLowerCase()}/responses/${r.status}` : "";
  let resp = responses[String(r.status)];
  if (!resp) { problems.push(`${what}: the document lists no ${r.status} for it`); continue; }
  if (resp.$ref) { ptr = resp.$ref; resp = resp.$ref.split("/").slice(1).reduce((o, k) => o[k], doc); }
  const body = readFileSync(r.body_file, "utf8");
  const type = (r.content_type || "").split(";")[0].trim();
  if (!resp.content) {
    if (body.length) problems.push(`${what}: a body where the document has none`);
    checked++;
    continue;
  }
  if (!resp.content[type]) { problems.push(`${what}: media type '${type}' is not the document's`); continue; }
  const schema = resp.content[type].schema;
  if (!schema) { checked++; continue; }
  if (type === "text/plain") { checked++; continue; }
  let value;
  try { value = JSON.parse(body); } catch (e) { problems.push(`${what}: not JSON: ${e.message}`); continue; }
  const validate = ajv.compile({ $ref: `${id}${ptr}/content/${enc(type)}/schema` });
  if (!validate(value)) problems.push(`${what}: ${ajv.errorsText(validate.errors)}\n  body: ${body.slice(0, 300)}`);
  checked++;
}
if (hooksDir) {
  const validate = ajv.compile({ $ref: `${id}#/components/schemas/Job` });
  for (const f of readdirSync(hooksDir).filter((f) => f.endsWith(".json"))) {
    const value = JSON.parse(readFileSync(join(hooksDir, f), "utf8"));
    if (!validate(value)) problems.push(`webhook ${f}: ${ajv.errorsText(validate.errors)}`);
    checked++;
  }
}
if (problems.length) {
  console.error(`${problems.length} response(s) of ${checked + problems.length} break the contract:\n` + problems.join("\n"));
  process.exit(1);
}
if (checked === 0) { console.error("no responses were recorded"); process.exit(1); }
console.log(`${checked} responses match the OpenAPI document`);
