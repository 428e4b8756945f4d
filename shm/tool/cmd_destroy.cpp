#include <cstdio>

#include "commands.hpp"
#include "shm/region.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm::tool {

int cmd_destroy(const destroy_args& a) {
  std::string why;
  auto r = region::destroy(region_location{a.name, a.hugepages}, a.force, &why);
  std::vector<std::string> keys = list_srs(a.name);
  if (!r && !(r.error() == error::not_found && !keys.empty()))
    return fail(why.empty() ? std::string(to_string(r.error())) : why);
  for (const std::string& k : keys) (void)srs_region::destroy(a.name, k);
  std::printf("destroyed pool '%s'%s (%zu SRS region%s)\n", a.name.c_str(), r ? "" : " (region was already gone)",
              keys.size(), keys.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace cuzk::shm::tool
