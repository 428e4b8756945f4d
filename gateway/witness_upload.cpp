#include "gateway/witness_upload.hpp"

#include <cstring>
#include <stdexcept>

#include "proto/limits.hpp"

namespace cuzk::gateway {

namespace {
template <class T>
T le(std::string_view s, std::size_t at) {
  T v{};
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}
}  // namespace

// "wtns" u32 version u32 n_sections | u32 type=1 u64 size1 | u32 n8, prime (n8 bytes), u32 count
//   | u32 type=2 u64 size2 (= n8·count): total = 12 + 12 + size1 + 12 + size2.
std::optional<std::uint64_t> wtns_declared_size(std::string_view head) {
  if (head.size() < 28 || head.substr(0, 4) != "wtns" || le<std::uint32_t>(head, 12) != 1) return std::nullopt;
  const auto size1 = le<std::uint64_t>(head, 16);
  const auto n8 = le<std::uint32_t>(head, 24);
  if (n8 == 0 || n8 > 64 || size1 != 4 + std::uint64_t(n8) + 4 || head.size() < 24 + size1 + 12) return std::nullopt;
  const auto count = le<std::uint32_t>(head, 24 + 4 + n8);
  if (le<std::uint32_t>(head, 24 + size1) != 2 || le<std::uint64_t>(head, 24 + size1 + 4) != std::uint64_t(n8) * count)
    return std::nullopt;
  return 24 + size1 + 12 + std::uint64_t(n8) * count;
}

void stream_witness(client::connection& c, const std::string& upload_id, const std::string& key_id,
                    const http_request& r, std::uint64_t max_bytes) {
  if (r.content_length && *r.content_length > max_bytes)
    throw std::length_error("a witness is at most " + std::to_string(max_bytes) + " bytes");
  auto fill = [&](std::string& chunk) {  // up to one whole chunk from the body
    std::size_t n = 0;
    while (n < chunk.size()) {
      const auto got = r.read_body(std::span(chunk.data() + n, chunk.size() - n));
      if (got == 0) break;
      n += got;
    }
    chunk.resize(n);
  };
  std::string chunk(proto::max_upload_chunk_bytes, '\0');
  fill(chunk);
  const auto size = r.content_length ? r.content_length : wtns_declared_size(chunk);
  if (!size) throw std::invalid_argument("the body is not a .wtns file (its header declares no witness)");
  if (*size > max_bytes) throw std::length_error("a witness is at most " + std::to_string(max_bytes) + " bytes");
  std::uint64_t offset = 0;
  for (;;) {
    if (chunk.empty()) break;
    if (offset + chunk.size() > *size)
      throw std::invalid_argument("the body is longer than the " + std::to_string(*size) +
                                  " bytes its witness declares");
    proto::upload u{upload_id, proto::upload_kind::wtns, *size, offset, chunk, offset == 0 ? key_id : std::string()};
    c.upload_chunk(u);
    offset += chunk.size();
    chunk.assign(proto::max_upload_chunk_bytes, '\0');
    fill(chunk);
  }
  if (offset != *size)
    throw std::invalid_argument("the body ended after " + std::to_string(offset) + " of the " + std::to_string(*size) +
                                " bytes its witness declares");
}

}  // namespace cuzk::gateway
