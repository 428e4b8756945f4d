#include "requests/request_digest.hpp"

#include <string>
#include <string_view>

#include "shm/srs_region.hpp"

namespace cuzk::server {

namespace {

void field(std::string& out, std::string_view v) {
  out += std::to_string(v.size());
  out += ':';
  out += v;
}

}  // namespace

std::array<std::uint8_t, 16> request_digest(const proto::submit& s) {
  std::string buf;
  field(buf, s.zkey);
  if (const auto* n = std::get_if<proto::native_work>(&s.work)) {
    field(buf, "native");
    field(buf, n->circuit);
    field(buf, n->inputs_json);
  } else {
    const auto& c = std::get<proto::circom_work>(s.work);
    field(buf, "circom");
    field(buf, c.wtns);  // not the .r1cs: it only names a failing constraint, the proof is the same
  }
  field(buf, std::to_string(s.partitions));
  field(buf, s.blinding ? s.blinding->r + "," + s.blinding->s : "");
  const std::string hex = shm::content_hash({reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size()});
  std::array<std::uint8_t, 16> out{};
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

}  // namespace cuzk::server
