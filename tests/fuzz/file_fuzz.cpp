// libFuzzer target for the .r1cs, .wtns and .zkey readers (built with clang
// by run_file_fuzz.sh); CUZK_FUZZ_READER names the reader. Besides "never
// crash, never trip a sanitizer", a refusal must be a format_error whose
// message quotes none of the file (no hex, no escapes, a fixed sentence for a
// bad magic), and whatever parses must survive writing and reading back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "io/zkey.hpp"
#include "r1cs/error.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"

namespace {

using namespace cuzk;

enum class reader { r1cs, wtns, zkey };

reader chosen() {
  const char* e = std::getenv("CUZK_FUZZ_READER");
  const std::string_view v = e ? e : "";
  if (v == "r1cs") return reader::r1cs;
  if (v == "wtns") return reader::wtns;
  if (v == "zkey") return reader::zkey;
  __builtin_trap();  // run_file_fuzz.sh always sets it
}

std::string_view kind(reader r) { return r == reader::r1cs ? "r1cs" : r == reader::wtns ? "wtns" : "zkey"; }

/* The refusal says why in printable text, with nothing that could be the file's bytes. */
void check_refusal(reader r, std::string_view message, const std::uint8_t* data, std::size_t size) {
  if (message.empty()) __builtin_trap();
  for (char c : message)
    if (c < 0x20 || c > 0x7e) __builtin_trap();
  if (message.find("0x") != std::string_view::npos || message.find("\\x") != std::string_view::npos ||
      message.find('"') != std::string_view::npos)
    __builtin_trap();
  const auto k = kind(r);
  if (size >= 12 && std::memcmp(data, k.data(), 4) != 0 &&
      message != std::string(k) + ": not a ." + std::string(k) + " file (bad magic)")
    __builtin_trap();
}

void r1cs_one(std::span<const std::uint8_t> b) {
  const auto f = r1cs::read_r1cs(b);
  const auto& m = f.m;
  if (m.n_wires != f.header.n_wires || m.a.rows() != f.header.n_constraints || m.b.rows() != m.a.rows() ||
      m.c.rows() != m.a.rows())
    __builtin_trap();
  for (const auto* rows : {&m.a, &m.b, &m.c})
    for (std::uint64_t i = 0; i < rows->rows(); ++i) {
      std::uint64_t prev = 0;
      bool first = true;
      for (const auto& t : rows->row(i)) {
        if (t.wire >= m.n_wires || t.coeff.is_zero() || (!first && t.wire <= prev)) __builtin_trap();
        prev = t.wire;
        first = false;
      }
    }
  const auto again = r1cs::read_r1cs(r1cs::write_r1cs(f));
  if (!(again.header == f.header) || !(again.m == f.m)) __builtin_trap();
}

void wtns_one(std::span<const std::uint8_t> b) {
  const std::uint64_t n = r1cs::wtns_size(b);
  std::vector<ff::fr_t> z(n);
  if (r1cs::read_wtns_into(b, z) != n) __builtin_trap();
  if (r1cs::read_wtns(r1cs::write_wtns(z)) != z) __builtin_trap();
  std::vector<ff::fr_t> small(n - 1);
  try {
    r1cs::read_wtns_into(b, small);
    __builtin_trap();
  } catch (const r1cs::capacity_error&) {
  }
}

void zkey_one(std::span<const std::uint8_t> b) {
  const auto pk = io::read_zkey(b);
  const auto back = io::read_zkey(io::write_zkey(pk));
  bool same = pk.n_vars == back.n_vars && pk.n_public == back.n_public && pk.domain_size == back.domain_size &&
              pk.h == back.h && pk.alpha1 == back.alpha1 && pk.beta1 == back.beta1 && pk.delta1 == back.delta1 &&
              pk.beta2 == back.beta2 && pk.gamma2 == back.gamma2 && pk.delta2 == back.delta2 && pk.ic == back.ic &&
              pk.a == back.a && pk.b1 == back.b1 && pk.b2 == back.b2 && pk.c == back.c && pk.h_query == back.h_query &&
              pk.coefs.size() == back.coefs.size();
  for (std::size_t i = 0; same && i < pk.coefs.size(); ++i)
    same = pk.coefs[i].matrix == back.coefs[i].matrix && pk.coefs[i].constraint == back.coefs[i].constraint &&
           pk.coefs[i].signal == back.coefs[i].signal && pk.coefs[i].value == back.coefs[i].value;
  if (!same) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const reader r = chosen();
  const std::span<const std::uint8_t> b{data, size};
  try {
    switch (r) {
      case reader::r1cs:
        r1cs_one(b);
        break;
      case reader::wtns:
        wtns_one(b);
        break;
      case reader::zkey:
        zkey_one(b);
        break;
    }
  } catch (const r1cs::format_error& e) {
    check_refusal(r, e.what(), data, size);
  }
  return 0;  // any other exception escapes and libFuzzer reports it as a crash
}
