// Names that become file names or identities (a network client's, an installed circuit's): 1–64 of
// [A-Za-z0-9._-], not starting with a dot, so never a path, a hidden file or a traversal.
#pragma once

#include <string_view>

namespace cuzk::util {

inline bool is_plain_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return false;
  return true;
}

}  // namespace cuzk::util
