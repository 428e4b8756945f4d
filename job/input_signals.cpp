#include "job/input_signals.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unordered_map>

#include "job/spec.hpp"
#include "util/utf8.hpp"

namespace cuzk::job {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t table_entries = 256;

std::vector<std::uint8_t> read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

template <class T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/* 256 entries of (hash u64, first signal, size) in b, the last two of width W bytes; empty unless every used
   entry is where linear probing from hash mod 256 puts it, every unused one is all zero, one is unused and no
   hash is there twice. */
template <class W>
std::vector<input_signal> table_at(const std::uint8_t* b) {
  constexpr std::size_t entry = 8 + 2 * sizeof(W);
  std::vector<input_signal> t;
  for (std::size_t i = 0; i < table_entries; ++i) {
    const std::uint8_t* e = b + i * entry;
    const auto h = load<std::uint64_t>(e);
    const auto id = load<W>(e + 8), size = load<W>(e + 8 + sizeof(W));
    if (h == 0) {
      if (id != 0 || size != 0) return {};
      continue;
    }
    if (id == 0 || size == 0) return {};
    for (std::size_t p = h % table_entries; p != i; p = (p + 1) % table_entries)
      if (load<std::uint64_t>(b + p * entry) == 0) return {};
    t.push_back({h, size, ""});
  }
  // circom's lookup stops at an unused entry: a real table has one; and no hash twice.
  if (t.size() == table_entries) return {};
  std::vector<std::uint64_t> hs;
  for (const auto& s : t) hs.push_back(s.hash);
  std::sort(hs.begin(), hs.end());
  if (std::adjacent_find(hs.begin(), hs.end()) != hs.end()) return {};
  return t;
}

/* An unsigned LEB128 at p, advanced; false past end. */
bool leb(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
    const std::uint8_t c = *p++;
    v |= std::uint64_t(c & 0x7f) << shift;
    if (!(c & 0x80)) return true;
  }
  return false;
}

/* The wasm's data segments (section 11) of exactly one table's size, scanned for the table. */
std::vector<input_signal> wasm_table(const std::vector<std::uint8_t>& w) {
  constexpr std::size_t bytes = table_entries * 16;
  if (w.size() < 8 || std::memcmp(w.data(), "\0asm", 4) != 0) return {};
  const std::uint8_t *p = w.data() + 8, *end = w.data() + w.size();
  std::vector<input_signal> found;
  int candidates = 0;
  while (p < end) {
    const std::uint8_t id = *p++;
    std::uint64_t n = 0;
    if (!leb(p, end, n) || n > std::uint64_t(end - p)) return {};
    const std::uint8_t* section_end = p + n;
    if (id == 11) {
      std::uint64_t count = 0;
      if (!leb(p, section_end, count)) return {};
      for (std::uint64_t s = 0; s < count; ++s) {
        std::uint64_t flags = 0, x = 0, size = 0;
        if (!leb(p, section_end, flags) || flags > 2) return {};
        if (flags == 2 && !leb(p, section_end, x)) return {};
        if (flags != 1) {  // an active segment's offset: i32.const N end
          if (p >= section_end || *p++ != 0x41 || !leb(p, section_end, x) || p >= section_end || *p++ != 0x0b)
            return {};
        }
        if (!leb(p, section_end, size) || size > std::uint64_t(section_end - p)) return {};
        if (size == bytes)
          if (auto t = table_at<std::uint32_t>(p); !t.empty()) found = std::move(t), ++candidates;
        p += size;
      }
    }
    p = section_end;
  }
  return candidates == 1 ? found : std::vector<input_signal>{};
}

std::string listed(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + util::printable(n, 64);
  return util::printable(s, 400);
}

}  // namespace

std::uint64_t signal_hash(std::string_view name) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

std::vector<input_signal> read_input_signals(const witness_generator& g) {
  if (g.k == witness_generator::kind::wasm) return wasm_table(read_file(g.program));
  const auto dat = read_file(g.files()[1]);
  if (dat.size() < table_entries * 24) return {};
  return table_at<std::uint64_t>(dat.data());
}

void name_input_signals(std::vector<input_signal>& table, const fs::path& sym) {
  std::ifstream f(sym);
  if (!f) throw job_error("cannot read the symbols file " + sym.string());
  std::unordered_map<std::uint64_t, input_signal*> by_hash;
  for (auto& s : table) by_hash[s.hash] = &s;
  std::string line;
  while (std::getline(f, line)) {
    // labelIdx,varIdx,componentIdx,main.NAME[i]...
    std::size_t at = std::string::npos;
    for (std::size_t i = 0, commas = 0; i < line.size() && commas < 3; ++i)
      if (line[i] == ',' && ++commas == 3) at = i;
    if (at == std::string::npos || line.compare(at + 1, 5, "main.") != 0) continue;
    std::string name = line.substr(at + 6);
    name = name.substr(0, name.find('['));
    if (name.empty() || name.find('.') != std::string::npos) continue;
    if (auto it = by_hash.find(signal_hash(name)); it != by_hash.end()) it->second->name = name;
  }
}

void check_input_signals(const std::vector<input_signal>& table, const std::vector<circom_input>& given) {
  if (table.empty()) return;
  std::unordered_map<std::uint64_t, std::size_t> at;
  for (std::size_t i = 0; i < table.size(); ++i) at[table[i].hash] = i;
  const bool named = std::all_of(table.begin(), table.end(), [](const auto& s) { return !s.name.empty(); });
  std::vector<std::string> all;
  for (const auto& s : table) all.push_back(s.name);
  std::vector<bool> seen(table.size());
  for (const auto& g : given) {
    const auto it = at.find(signal_hash(g.name));
    if (it == at.end())
      throw job_error("the circuit has no input signal " + util::printable(g.name, 64) +
                      (named ? " (its inputs: " + listed(all) + ")"
                             : " (it has " + std::to_string(table.size()) + " input signals)"));
    const auto& s = table[it->second];
    if (g.values != s.size)
      throw job_error("input signal " + util::printable(g.name, 64) + " takes " + std::to_string(s.size) +
                      (s.size == 1 ? " value" : " values") + ", not " + std::to_string(g.values));
    seen[it->second] = true;
  }
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (!seen[i]) missing.push_back(table[i].name);
  if (missing.empty()) return;
  if (named)
    throw job_error("input signal" + std::string(missing.size() == 1 ? " " : "s ") + listed(missing) + " missing");
  throw job_error(std::to_string(missing.size()) + " of the circuit's " + std::to_string(table.size()) +
                  " input signals missing");
}

}  // namespace cuzk::job
