// shm_probe: opens and maps a pool, its lock file or an SRS region the way the
// service does, for tests that run it as another user (setpriv).
//   shm_probe pool NAME | lock NAME | srs POOL KEY_ID
// Exit 0: opened and mapped; 3: refused (the reason on stderr); 2: usage.
#include <cstdio>
#include <string>

#include "shm/lock_file.hpp"
#include "shm/region.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

int main(int argc, char** argv) {
  using namespace cuzk::shm;
  const std::string what = argc > 2 ? argv[1] : "";
  std::string why;
  bool ok = false;
  if (what == "pool" && argc == 3) {
    auto r = region::open(region_location{argv[2], {}}, &why);
    ok = r && r->header().magic.load() == region_magic;
  } else if (what == "lock" && argc == 3) {
    int fd = detail::open_lock_file(shm_path(std::string(argv[2]) + ".lock"), &why);
    ok = fd >= 0;
    detail::close_fd(fd);
  } else if (what == "srs" && argc == 4) {
    auto s = srs_region::open(argv[2], argv[3], &why);
    ok = s && s->verify();
    if (s && !ok) why = "content does not hash to its key id";
  } else {
    std::fprintf(stderr, "usage: shm_probe pool NAME | lock NAME | srs POOL KEY_ID\n");
    return 2;
  }
  if (!ok) {
    std::fprintf(stderr, "shm_probe: %s\n", why.c_str());
    return 3;
  }
  std::printf("ok\n");
  return 0;
}
