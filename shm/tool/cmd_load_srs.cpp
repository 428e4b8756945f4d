#include <cstdio>

#include "commands.hpp"
#include "shm/region.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm::tool {

int cmd_load_srs(const load_srs_args& a) {
  std::string why;
  // The SRS region belongs to a pool: destroy removes it with the pool.
  if (auto r = region::open(region_location{a.name, a.hugepages}, &why); !r)
    return fail(why.empty() ? std::string(to_string(r.error())) : why);
  auto s = srs_region::load(a.name, a.zkey, &why);
  if (!s) return fail(why.empty() ? std::string(to_string(s.error())) : why);
  std::printf("%s\n", s->key_id().c_str());
  return 0;
}

}  // namespace cuzk::shm::tool
