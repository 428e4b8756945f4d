// cuzk-shm: creates, inspects and destroys a cuzk pool's shared-memory
// regions and loads proving keys into SRS regions (DESIGN §2, §3).
#include <CLI/CLI.hpp>

#include <cstdio>

#include "commands.hpp"

namespace cuzk::shm::tool {
int fail(const std::string& msg) {
  std::fprintf(stderr, "cuzk-shm: error: %s\n", msg.c_str());
  return 1;
}
}  // namespace cuzk::shm::tool

int main(int argc, char** argv) {
  using namespace cuzk::shm::tool;
  CLI::App app{"cuzk-shm: create, inspect and destroy a cuzk shared-memory pool"};
  app.require_subcommand(1);

  create_args ca;
  auto* create = app.add_subcommand("create", "create a pool region (fails if the name exists)");
  create->add_option("--name", ca.name, "pool name (the shm object /dev/shm/NAME)");
  create->add_option("--slots", ca.slots, "slot class COUNTxMAX_CONSTRAINTS[:w=WITNESS], repeatable (e.g. 4x65536)");
  create->add_option("--jobs", ca.jobs, "job table capacity (default 256)");
  create->add_option("--leases", ca.leases, "process lease entries (default 64)");
  create->add_option("--hugepages", ca.hugepages, "hugetlbfs directory to back the region");
  create->add_option("--threads", ca.threads, "pre-touch threads (default: all cores)");
  create->add_option("--group", ca.group,
                     "service group: the pool, its lock file and its SRS regions are mode 0660 with this group "
                     "(default: 0600, only the creating user)");
  create->add_option("--config", ca.config, "JSON file with the same keys (name, slots, jobs, leases, hugepages, threads, group)")
      ->check(CLI::ExistingFile);

  status_args sa;
  auto* status = app.add_subcommand("status", "show slots, leases and jobs");
  status->add_option("--name", sa.name)->required();
  status->add_option("--hugepages", sa.hugepages, "hugetlbfs directory the region lives in");
  status->add_flag("--json", sa.json, "machine-readable output");
  status->add_option("--hung-after", sa.hung_after_s,
                     "seconds without heartbeat before a live lease counts as hung (default: the gpu-server's "
                     "--hung-timeout, recorded in the pool; 60 when no server has run)");

  destroy_args da;
  auto* destroy = app.add_subcommand("destroy", "remove the pool region, its lock file and its SRS regions");
  destroy->add_option("--name", da.name)->required();
  destroy->add_option("--hugepages", da.hugepages, "hugetlbfs directory the region lives in");
  destroy->add_flag("--force", da.force, "even while processes hold leases");

  load_srs_args la;
  auto* load = app.add_subcommand("load-srs", "copy a proving key (.zkey) into an SRS region; prints its key id");
  load->add_option("--name", la.name)->required();
  load->add_option("--hugepages", la.hugepages, "hugetlbfs directory the pool region lives in");
  load->add_option("--zkey", la.zkey)->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  try {
    if (*create) return cmd_create(ca);
    if (*status) return cmd_status(sa);
    if (*destroy) return cmd_destroy(da);
    if (*load) return cmd_load_srs(la);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 1;
}
