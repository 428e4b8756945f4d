#include "listeners/network_identity.hpp"

#include <cstdint>

namespace cuzk::server {

uid_t network_uid(std::string_view name) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  const auto u = static_cast<uid_t>((1ULL << 31) | (h & 0x7fffffffULL));
  return u == static_cast<uid_t>(-1) ? u - 1 : u;  // -1 is nobody's uid
}

bool is_client_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return false;
  return true;
}

}  // namespace cuzk::server
