// A uniquely named pool for one test, destroyed (with its SRS regions) when
// the guard goes out of scope, pass or fail, so /dev/shm does not fill up.
// The service's directory is made if absent, as tmpfiles does on a node, so
// that SRS regions can be loaded without a pool.
#pragma once

#include <unistd.h>

#include <atomic>
#include <string>

#include "shm/region.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::test {

struct pool_guard {
  std::string name;

  explicit pool_guard(const std::string& tag) {
    static std::atomic<unsigned> counter{0};
    name = "cuzk-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    (void)shm::make_shm_dir({});
    cleanup();
  }
  ~pool_guard() { cleanup(); }
  pool_guard(const pool_guard&) = delete;
  pool_guard& operator=(const pool_guard&) = delete;

  void cleanup() const {
    (void)shm::region::destroy(shm::region_location{name, {}}, true);
    for (const std::string& k : shm::list_srs(name)) (void)shm::srs_region::destroy(name, k);
  }
  shm::region_location where() const { return {name, {}}; }
  /* 2 small slots (domain 1024) and 1 larger (domain 4096, witness 5000). */
  shm::region_config small() const {
    return shm::region_config{}
        .with_name(name)
        .with_slots({2, 1000, 0})
        .with_slots({1, 4096, 5000})
        .with_leases(8)
        .with_jobs(4)
        .with_touch_threads(1);
  }
};

}  // namespace cuzk::test
