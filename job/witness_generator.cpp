#include "job/witness_generator.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "job/spec.hpp"
#include "util/utf8.hpp"

namespace cuzk::job {

namespace fs = std::filesystem;

namespace {

/* The wasm generator's driver: circom's witness_calculator.js on the .wasm, the inputs and the output named
   in argv; an error prints its message only (circom's: "Assert Failed. Error in template T line: N", "Not
   enough values for input signal S", …). */
constexpr const char* wasm_driver = R"js(
const [calculator, wasm, input, output] = process.argv.slice(1);
const fs = require("fs");
require(calculator)(fs.readFileSync(wasm))
  .then((wc) => wc.calculateWTNSBin(JSON.parse(fs.readFileSync(input, "utf8")), 0))
  .then((w) => fs.writeFileSync(output, w))
  .catch((e) => { process.stderr.write(String(e && e.message ? e.message : e)); process.exit(1); });
)js";

fs::path node_program() {
  for (const char* name : {"node", "nodejs"})
    for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"}) {
      const fs::path p = fs::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  throw job_error("the wasm witness generator needs Node.js (Debian package nodejs), which this host lacks");
}

fs::path calculator_of(const fs::path& wasm) { return wasm.parent_path() / "witness_calculator.js"; }
fs::path dat_of(const fs::path& binary) { return fs::path(binary.string() + ".dat"); }

/* What circom's generators print for bad inputs, without the lines about their own source (the C++ one ends
   with an assert of its own, or an uncaught exception). */
std::string circom_message(const std::string& out) {
  std::istringstream in(out);
  std::string line, msg;
  while (std::getline(in, line)) {
    if (line.find("Assertion `") != std::string::npos || line.starts_with("terminate called")) continue;
    if (auto w = line.find("what():"); w != std::string::npos) line = line.substr(w + 7);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.erase(0, 1);
    if (line.starts_with("Error: ")) line.erase(0, 7);
    if (line.empty()) continue;
    if (!msg.empty()) msg += ' ';
    msg += line;
  }
  return util::printable(msg, 1024);
}

bool out_of_memory(const std::string& out) {
  for (const char* s :
       {"bad_alloc", "out of memory", "Allocation failed", "Cannot allocate", "could not allocate", "MemoryError"})
    if (out.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

private_dir::private_dir(std::string_view tag) {
  std::string t = (fs::temp_directory_path() / ("cuzk-" + std::string(tag) + "-XXXXXX")).string();
  if (!::mkdtemp(t.data())) throw std::runtime_error("cannot make a private directory under " + t);
  path = t;
}

private_dir::~private_dir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

witness_generator witness_generator::at(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) throw job_error("no witness generator at " + p.string());
  witness_generator g;
  g.program = fs::absolute(p).lexically_normal();
  g.k = p.extension() == ".wasm" ? kind::wasm : kind::cpp;
  for (const auto& f : g.files())
    if (!fs::is_regular_file(f, ec))
      throw job_error(std::string(g.k == kind::wasm ? "the wasm" : "the C++") + " witness generator " + p.string() +
                      " needs " + f.string() + " beside it (circom writes it with " +
                      (g.k == kind::wasm ? "--wasm" : "--c") + ")");
  if (g.k == kind::cpp && ::access(g.program.c_str(), X_OK) != 0)
    throw job_error("the C++ witness generator " + p.string() + " is not executable (build it with make in NAME_cpp/)");
  return g;
}

std::vector<fs::path> witness_generator::files() const {
  if (k == kind::wasm) return {program, calculator_of(program)};
  return {program, dat_of(program)};
}

generated_witness generate_witness(const witness_generator& g, const std::string& inputs_json,
                                   const sandbox_limits& lim) {
  private_dir dir("witness");
  {
    std::ofstream f(dir.path / "input.json", std::ios::binary);
    f << inputs_json;
    if (!f) throw std::runtime_error("cannot write the generator's inputs in " + dir.path.string());
  }
  const fs::path out = dir.path / "witness.wtns";
  std::vector<std::string> argv;
  if (g.k == witness_generator::kind::wasm)
    argv = {node_program().string(), "-e",         wasm_driver,   calculator_of(g.program).string(),
            g.program.string(),      "input.json", "witness.wtns"};
  else
    argv = {g.program.string(), "input.json", "witness.wtns"};  // reads argv[0] + ".dat"
  const auto o = run_confined(argv, dir.path, lim);
  const std::string what =
      g.k == witness_generator::kind::wasm ? "the wasm witness generator" : "the C++ witness generator";
  if (o.how == sandbox_outcome::ending::not_started)
    throw job_error(what + " " + g.program.string() + " could not be started");
  if (auto l = limit_met(o, lim); !l.empty()) throw job_error(what + " was stopped at " + l);
  if (!o.ok()) {
    if (out_of_memory(o.message))
      throw job_error(what + " ran out of memory (its limit: " + std::to_string(lim.memory_bytes >> 20) + " MiB)");
    const auto msg = circom_message(o.message);
    if (!msg.empty()) throw job_error(what + " failed: " + msg);
    throw job_error(what +
                    (o.how == sandbox_outcome::ending::signalled
                         ? " was killed by signal " + std::to_string(o.code)
                         : " failed (exit status " + std::to_string(o.code) + ")") +
                    " and said nothing");
  }
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(out, ec))) throw job_error(what + " wrote no witness");
  const auto size = fs::file_size(out, ec);
  if (ec) throw job_error(what + " wrote no witness");
  generated_witness w;
  w.wtns.resize(size);
  std::ifstream f(out, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(w.wtns.data()), static_cast<std::streamsize>(size)))
    throw job_error("cannot read the witness " + what + " wrote");
  w.seconds = o.seconds;
  w.cpu_seconds = o.cpu_seconds;
  w.peak_bytes = o.peak_bytes;
  return w;
}

}  // namespace cuzk::job
