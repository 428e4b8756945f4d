#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "commands.hpp"
#include "job/circuit_store.hpp"
#include "job/key_cache.hpp"
#include "job/spec.hpp"

namespace cuzk::cli {

namespace fs = std::filesystem;

namespace {

/* circom --c's directory built with its own Makefile (g++, nasm, GMP, nlohmann-json): the binary beside its
   NAME.dat. A file is taken as the built binary. */
fs::path built_generator(const fs::path& p) {
  if (!fs::is_directory(p)) return p;
  fs::path dat;
  for (const auto& e : fs::directory_iterator(p))
    if (e.path().extension() == ".dat") dat = e.path();
  if (dat.empty() || !fs::exists(p / "Makefile"))
    throw std::invalid_argument(p.string() + " is not a directory circom --c wrote (no NAME.dat and Makefile)");
  progress("building the C++ witness generator with circom's Makefile in " + p.string());
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execlp("make", "make", "-s", "-C", p.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("building the C++ generator in " + p.string() +
                             " failed (it needs g++, nasm, libgmp-dev and nlohmann-json3-dev)");
  return p / dat.stem();
}

}  // namespace

int run_circuit_install(const circuit_args& a) {
  if (!job::is_circuit_name(a.name))
    throw std::invalid_argument("a circuit's name is 1 to 64 of A-Z a-z 0-9 . _ - (not starting with a dot)");
  const auto g = job::witness_generator::at(a.wasm.empty() ? built_generator(a.cpp) : fs::path(a.wasm));
  if ((g.k == job::witness_generator::kind::wasm) != !a.wasm.empty())
    throw std::invalid_argument(a.wasm.empty() ? "--cpp names a .wasm: use --wasm" : "--wasm expects a .wasm file");
  progress("loading " + a.zkey + " into the pool " + a.pool);
  job::key_cache keys(a.pool);
  keys.decode_points(false);
  const std::string key_id = keys.load(a.zkey);
  const auto c = job::install_circuit(a.pool, a.name, key_id, g, a.sym);
  std::printf("%s %s key %s generator %s\n", c.name.c_str(), c.id.c_str(), c.key_id.c_str(), c.kind_name().c_str());
  if (c.inputs.empty())
    progress("no input signal table found in the generator's files: only the generator checks a job's inputs");
  return 0;
}

int run_circuit_remove(const circuit_args& a) {
  if (!job::remove_circuit(a.pool, a.name))
    throw std::invalid_argument("the pool " + a.pool + " holds no circuit " + a.name);
  progress("removed the circuit " + a.name + " (its key stays in the pool: cuzk-shm destroy-srs removes it)");
  return 0;
}

int run_list_installed(const std::string& pool) {
  for (const auto& c : job::list_circuits(pool)) {
    std::uint64_t bytes = 0;
    for (const auto& f : c.files) bytes += f.bytes;
    const std::time_t t = static_cast<std::time_t>(c.installed_unix);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    std::printf("%-24s %-5s key %s id %s %.1f MiB %s\n", c.name.c_str(), c.kind_name().c_str(), c.key_id.c_str(),
                c.id.c_str(), double(bytes) / double(1 << 20), when);
  }
  return 0;
}

}  // namespace cuzk::cli
