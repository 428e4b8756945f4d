#include <cstdio>
#include <filesystem>

#include "commands.hpp"
#include "shm/region.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm::tool {

int cmd_destroy(const destroy_args& a) {
  std::string why;
  auto r = region::destroy(region_location{a.name, a.hugepages}, a.force, &why);
  std::vector<std::string> keys = list_srs(a.name);
  if (!r && !(r.error() == error::not_found && !keys.empty()))
    return fail(why.empty() ? std::string(to_string(r.error())) : why);
  for (const std::string& k : keys) (void)srs_region::destroy(a.name, k);
  // The circuits installed in it and its jobs' inputs (job/circuit_store.hpp): NAME.circuit.* and NAME.inputs.*;
  // its API keys' uids (the server's listeners/http_identities): NAME.identities.
  std::size_t others = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(shm_dir(), ec)) {
    const std::string f = e.path().filename().string();
    if ((f.starts_with(a.name + ".circuit.") || f.starts_with(a.name + ".inputs.") || f == a.name + ".identities") &&
        e.is_regular_file(ec))
      others += std::filesystem::remove(e.path(), ec);
  }
  std::printf("destroyed pool '%s'%s (%zu SRS region%s, %zu circuit and inputs file%s)\n", a.name.c_str(),
              r ? "" : " (region was already gone)", keys.size(), keys.size() == 1 ? "" : "s", others,
              others == 1 ? "" : "s");
  return 0;
}

}  // namespace cuzk::shm::tool
