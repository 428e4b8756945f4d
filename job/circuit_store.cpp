#include "job/circuit_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <fstream>
#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "job/file_identity.hpp"
#include "job/spec.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_header.hpp"
#include "shm/srs_region.hpp"
#include "util/fd_guard.hpp"
#include "util/names.hpp"
#include "util/read_at.hpp"

namespace cuzk::job {

namespace fs = std::filesystem;

namespace {

// The file: "cuzkcir1", the manifest's length (8 bytes, little endian), the manifest (JSON), the files.
constexpr char magic[8] = {'c', 'u', 'z', 'k', 'c', 'i', 'r', '1'};
constexpr std::uint64_t max_manifest = 64u << 10;
constexpr std::uint64_t max_files = 4ULL << 30;

std::string object_name(const std::string& pool, const std::string& name) { return pool + ".circuit." + name; }

std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<std::uint8_t> v((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f && !f.eof()) throw job_error("cannot read " + p.string());
  return v;
}

void write_all(int fd, const void* p, std::size_t n, std::uint64_t at, const std::string& what) {
  const auto* b = static_cast<const char*>(p);
  while (n) {
    const ssize_t w = ::pwrite(fd, b, n, static_cast<off_t>(at));
    if (w <= 0) throw job_error("cannot write " + what + ": " + std::strerror(errno));
    b += w, n -= static_cast<std::size_t>(w), at += static_cast<std::uint64_t>(w);
  }
}

void read_exact(int fd, void* p, std::size_t n, std::uint64_t at, const std::string& what) {
  if (util::read_at(fd, p, n, at) != static_cast<std::int64_t>(n)) throw job_error(what + " is cut short");
}

nlohmann::json manifest_of(const installed_circuit& c) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : c.files)
    files.push_back({{"name", f.name}, {"offset", f.offset}, {"bytes", f.bytes}, {"hash", f.hash}});
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& s : c.inputs) inputs.push_back({{"hash", s.hash}, {"size", s.size}, {"name", s.name}});
  return {{"name", c.name},
          {"id", c.id},
          {"inputs", inputs},
          {"key_id", c.key_id},
          {"generator", c.kind_name()},
          {"installed_unix", c.installed_unix},
          {"files", files}};
}

installed_circuit circuit_of(const nlohmann::json& m, const std::string& what) {
  try {
    installed_circuit c;
    c.name = m.at("name").get<std::string>();
    c.id = m.at("id").get<std::string>();
    c.key_id = m.at("key_id").get<std::string>();
    const auto k = m.at("generator").get<std::string>();
    if (k != "cpp" && k != "wasm") throw job_error("generator " + k);
    c.kind = k == "cpp" ? witness_generator::kind::cpp : witness_generator::kind::wasm;
    c.installed_unix = m.at("installed_unix").get<std::uint64_t>();
    for (const auto& f : m.at("files")) {
      installed_circuit::file x{f.at("name").get<std::string>(), f.at("offset").get<std::uint64_t>(),
                                f.at("bytes").get<std::uint64_t>(), f.at("hash").get<std::string>()};
      if (x.name.empty() || x.name.find('/') != std::string::npos || x.name.front() == '.')
        throw job_error("file name " + x.name);
      c.files.push_back(std::move(x));
    }
    if (m.contains("inputs"))  // a circuit installed before the table was recorded has none
      for (const auto& s : m.at("inputs"))
        c.inputs.push_back(
            {s.at("hash").get<std::uint64_t>(), s.at("size").get<std::uint64_t>(), s.at("name").get<std::string>()});
    if (!is_circuit_name(c.name) || !shm::is_key_id(c.key_id) || c.files.size() != 2)
      throw job_error("fields out of range");
    return c;
  } catch (const std::exception& e) {
    throw job_error(what + " is not a circuit's: " + e.what());
  }
}

/* The circuit's id: its key id, its generator's kind and its files' hashes, hashed. */
std::string id_of(const installed_circuit& c) {
  std::string s = c.key_id + "|" + c.kind_name();
  for (const auto& f : c.files) s += "|" + f.name + ":" + f.hash;
  return shm::content_hash({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
}

}  // namespace

bool is_circuit_name(std::string_view name) { return util::is_plain_name(name); }

installed_circuit install_circuit(const std::string& pool, const std::string& name, const std::string& key_id,
                                  const witness_generator& g, const fs::path& sym) {
  if (!is_circuit_name(name))
    throw job_error("a circuit's name is 1 to 64 of A-Z a-z 0-9 . _ - (not starting with a dot), not '" + name + "'");
  for (const auto& n : circuits::known_circuits())
    if (n.name == name)
      throw job_error("'" + name + "' is a native circuit's name (cuzk circuits): a client could not name this one");
  installed_circuit c;
  c.name = name;
  c.key_id = key_id;
  c.kind = g.k;
  c.installed_unix = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  std::vector<std::vector<std::uint8_t>> blobs;
  std::uint64_t total = 0;
  for (const auto& p : g.files()) {
    blobs.push_back(read_all(p));
    total += blobs.back().size();
    if (total > max_files) throw job_error("the generator's files exceed " + std::to_string(max_files >> 30) + " GiB");
    c.files.push_back({p.filename().string(), 0, blobs.back().size(), shm::content_hash(blobs.back())});
  }
  c.id = id_of(c);
  c.inputs = read_input_signals(g);
  if (!sym.empty()) name_input_signals(c.inputs, sym);
  // The offsets depend on the manifest's length, which depends on the offsets' digits: room for 20 digits each.
  std::uint64_t at = 16 + manifest_of(c).dump().size() + 64 * c.files.size();
  for (auto& f : c.files) f.offset = at, at += f.bytes;
  const std::string m = manifest_of(c).dump();

  std::string why;
  if (auto d = shm::check_shm_dir(true, &why); !d) throw job_error("cannot install circuit " + name + ": " + why);
  const std::string path = shm::shm_path(object_name(pool, name));
  const std::string tmp = path + ".new-" + std::to_string(::getpid());
  auto ps = shm::srs_detail::pool_stat(pool);
  (void)::unlink(tmp.c_str());
  auto fd =
      shm::detail::create_file(tmp, ps ? shm::detail::access_of(*ps) : shm::detail::file_access{}, "circuit", &why);
  if (!fd) throw job_error("cannot install circuit " + name + ": " + why);
  util::fd_guard guard{*fd};
  try {
    const std::uint64_t n = m.size();
    write_all(guard.fd, magic, sizeof magic, 0, tmp);
    write_all(guard.fd, &n, sizeof n, 8, tmp);
    write_all(guard.fd, m.data(), m.size(), 16, tmp);
    for (std::size_t i = 0; i < blobs.size(); ++i)
      write_all(guard.fd, blobs[i].data(), blobs[i].size(), c.files[i].offset, tmp);
    if (::fsync(guard.fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0)
      throw job_error("cannot install circuit " + name + ": " + std::strerror(errno));
  } catch (...) {
    (void)::unlink(tmp.c_str());
    throw;
  }
  return c;
}

std::optional<installed_circuit> find_circuit(const std::string& pool, const std::string& name) {
  if (!is_circuit_name(name)) return std::nullopt;
  const std::string path = shm::shm_path(object_name(pool, name));
  std::string why;
  auto fd = shm::detail::open_checked(path, O_RDONLY, "circuit", &why);
  if (!fd && fd.error() == shm::error::not_found) return std::nullopt;
  if (!fd) throw job_error("cannot read circuit " + name + ": " + why);
  util::fd_guard guard{*fd};
  char head[8];
  std::uint64_t n = 0;
  read_exact(guard.fd, head, sizeof head, 0, path);
  read_exact(guard.fd, &n, sizeof n, 8, path);
  if (std::memcmp(head, magic, sizeof magic) != 0 || n > max_manifest) throw job_error(path + " is not a circuit's");
  std::string m(n, '\0');
  read_exact(guard.fd, m.data(), n, 16, path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(m);
  } catch (const std::exception& e) {
    throw job_error(path + " is not a circuit's: " + e.what());
  }
  auto c = circuit_of(j, path);
  if (c.name != name || c.id != id_of(c)) throw job_error(path + " is not a circuit's: its name or id does not match");
  return c;
}

std::vector<installed_circuit> list_circuits(const std::string& pool) {
  std::vector<installed_circuit> v;
  const std::string prefix = pool + ".circuit.";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(shm::shm_dir(), ec)) {
    const std::string f = e.path().filename().string();
    if (!f.starts_with(prefix) || f.find(".new-") != std::string::npos) continue;
    try {
      if (auto c = find_circuit(pool, f.substr(prefix.size()))) v.push_back(std::move(*c));
    } catch (const job_error&) {
    }
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

bool remove_circuit(const std::string& pool, const std::string& name) {
  if (!is_circuit_name(name)) return false;
  return ::unlink(shm::shm_path(object_name(pool, name)).c_str()) == 0;
}

std::pair<std::string, std::string> store_inputs(const std::string& pool, std::string_view json) {
  std::string why;
  if (auto d = shm::check_shm_dir(true, &why); !d) throw job_error("cannot store the inputs: " + why);
  std::random_device rd;
  char id[33];
  std::snprintf(id, sizeof id, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  const std::string path = shm::shm_path(pool + ".inputs." + id);
  auto ps = shm::srs_detail::pool_stat(pool);
  auto fd =
      shm::detail::create_file(path, ps ? shm::detail::access_of(*ps) : shm::detail::file_access{}, "inputs", &why);
  if (!fd) throw job_error("cannot store the inputs: " + why);
  util::fd_guard guard{*fd};
  try {
    write_all(guard.fd, json.data(), json.size(), 0, path);
  } catch (...) {
    (void)::unlink(path.c_str());
    throw;
  }
  struct stat st {};
  (void)::fstat(guard.fd, &st);
  return {path, file_identity(st)};
}

bool is_inputs_file(const std::string& pool, const fs::path& p) {
  return p.parent_path() == fs::path(shm::shm_dir()) && p.filename().string().starts_with(pool + ".inputs.");
}

std::string read_inputs(const std::string& path, const std::string& identity) {
  std::string why;
  auto fd = shm::detail::open_checked(path, O_RDONLY, "inputs", &why);
  if (!fd) throw job_error("the job's inputs are gone: " + why);
  util::fd_guard guard{*fd};
  struct stat st {};
  if (::fstat(guard.fd, &st) != 0 || file_identity(st) != identity)
    throw job_error("the job's inputs file " + path + " was replaced after the job was submitted");
  std::string s(static_cast<std::size_t>(st.st_size), '\0');
  read_exact(guard.fd, s.data(), s.size(), 0, path);
  return s;
}

witness_generator unpack_circuit(const std::string& pool, const installed_circuit& c, const fs::path& dir) {
  const std::string path = shm::shm_path(object_name(pool, c.name));
  std::string why;
  auto fd = shm::detail::open_checked(path, O_RDONLY, "circuit", &why);
  if (!fd) throw job_error("the circuit " + c.name + " was removed");
  util::fd_guard guard{*fd};
  for (std::size_t i = 0; i < c.files.size(); ++i) {
    const auto& f = c.files[i];
    std::vector<std::uint8_t> b(f.bytes);
    read_exact(guard.fd, b.data(), b.size(), f.offset, path);
    if (shm::content_hash(b) != f.hash)
      throw job_error("the circuit " + c.name + " changed since it was read (its file " + f.name + ")");
    const fs::path out = dir / f.name;
    util::fd_guard w{::open(out.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, i == 0 ? 0700 : 0600)};
    if (w.fd < 0) throw job_error("cannot write " + out.string() + ": " + std::strerror(errno));
    write_all(w.fd, b.data(), b.size(), 0, out.string());
  }
  return witness_generator::at(dir / c.files[0].name);
}

}  // namespace cuzk::job
