// cuzk-shm: creates, inspects and destroys a cuzk pool's shared-memory
// regions and loads proving keys into SRS regions (DESIGN §2, §3).
#include <CLI/CLI.hpp>

#include <cstdio>

#include "commands.hpp"
#include "config/config_file.hpp"
#include "config/range.hpp"
#include "shm/layout.hpp"

namespace cuzk::shm::tool {
int fail(const std::string& msg) {
  std::fprintf(stderr, "cuzk-shm: error: %s\n", msg.c_str());
  return 1;
}
}  // namespace cuzk::shm::tool

int main(int argc, char** argv) {
  using namespace cuzk::shm::tool;
  using cuzk::config::range;
  CLI::App app{"cuzk-shm: create, inspect and destroy a cuzk shared-memory pool"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // flags override --config
  app.require_subcommand(1);

  create_args ca;
  auto pool_options = [&ca](CLI::App* c) {
    c->add_option("--name", ca.name,
                  "pool name (the file NAME in the service's directory, /dev/shm/cuzk or $CUZK_SHM_DIR)");
    c->add_option("--slots", ca.slots, "slot class COUNTxMAX_CONSTRAINTS[:w=WITNESS], repeatable (e.g. 4x65536)");
    c->add_option("--jobs", ca.jobs, "job table capacity (default 256)")->check(range(std::uint64_t{1}, max_jobs));
    c->add_option("--leases", ca.leases, "process lease entries (default 64)")->check(range(1u, cuzk::shm::max_leases));
    c->add_option("--hugepages", ca.hugepages, "hugetlbfs directory to back the region");
    c->add_option("--threads", ca.threads, "pre-touch threads (default: all cores)")->check(range(0u, max_threads));
    c->add_option("--group", ca.group,
                  "service group: the pool, its lock file and its SRS regions are mode 0660 with this group "
                  "(default: 0600, only the creating user)");
    c->add_option("--config", ca.config,
                  "the cuzk TOML configuration (its [pool]), or a JSON file with the same keys (name, slots, jobs, "
                  "leases, hugepages, threads, group); command-line values win")
        ->check(CLI::ExistingFile);
    c->add_option("--plan", ca.plan,
                  "a node plan (cuzk plan --json --out FILE): its pool's name, slot classes, jobs, leases and huge "
                  "pages; command-line values win")
        ->check(CLI::ExistingFile);
  };
  auto* create = app.add_subcommand("create", "create a pool region (fails if the name exists)");
  pool_options(create);
  auto* ensure = app.add_subcommand(
      "ensure", "create the pool if absent; if present, check that its layout is the configured one (never destroys)");
  pool_options(ensure);

  status_args sa;
  auto* status = app.add_subcommand("status", "show slots, leases and jobs");
  status->add_option("--name", sa.name)->required();
  status->add_option("--hugepages", sa.hugepages, "hugetlbfs directory the region lives in");
  status->add_flag("--json", sa.json, "machine-readable output");
  status
      ->add_option("--hung-after", sa.hung_after_s,
                   "seconds without heartbeat before a live lease counts as hung (default: the gpu-server's "
                   "--hung-timeout, recorded in the pool; 60 when no server has run)")
      ->check(range(0.0, 24.0 * 3600));

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

  /* create/ensure --config FILE.toml: the file's [pool] keys go right after the subcommand, before its flags */
  std::vector<std::string> args(argv, argv + argc);
  cuzk::config::arguments from_file;
  const auto path = cuzk::config::config_path(argc, argv);
  if (argc > 1 && (args[1] == "create" || args[1] == "ensure") && path && path->ends_with(".toml")) {
    try {
      from_file = cuzk::config::read(*path, {{"pool",
                                              {{"name", {"--name"}},
                                               {"slots", {"--slots"}},
                                               {"jobs", {"--jobs"}},
                                               {"leases", {"--leases"}},
                                               {"hugepages", {"--hugepages"}},
                                               {"threads", {"--threads"}},
                                               {"group", {"--group"}}}}});
    } catch (const cuzk::config::error& e) {
      return fail(e.what());
    }
    args.insert(args.begin() + 2, from_file.args.begin(), from_file.args.end());
  }
  std::vector<const char*> av;
  for (const auto& a : args) av.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(av.size()), av.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(cuzk::config::explain(e.what(), from_file));
  }
  if (path && path->ends_with(".toml")) ca.config.clear();  // applied above; the JSON reader is for .json files
  try {
    if (*create) return cmd_create(ca);
    if (*ensure) return cmd_ensure(ca);
    if (*status) return cmd_status(sa);
    if (*destroy) return cmd_destroy(da);
    if (*load) return cmd_load_srs(la);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 1;
}
