// cuzk-synth-worker --pool NAME --endpoint E [--name worker@N] [--synth-deadline S] [--stop-timeout S]
//                   [--generator-memory GIB] [--generator-output GIB]
// Exit statuses: 0 stopped (SIGTERM/SIGINT), 1 cannot start, 3 a synthesis
// passed its deadline (its slot was given back and its partition requeued).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <csignal>
#include <exception>

#include "config/config_file.hpp"
#include "config/range.hpp"
#include "log/log_setup.hpp"
#include "worker.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk-synth-worker: synthesizes assigned jobs into shared-memory slots", "cuzk-synth-worker"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // flags override --config
  std::string config;
  app.add_option("--config", config, "TOML configuration ([pool], [server] worker_endpoint, [worker]; flags win)");
  cuzk::worker::worker_options o;
  app.add_option("--pool", o.pool, "pool region name")->required();
  app.add_option("--hugepages", o.hugepage_dir, "hugetlbfs directory the pool was created in");
  app.add_option("--endpoint", o.endpoint, "the server's ZeroMQ endpoint")->required();
  app.add_option("--name", o.name, "name shown in status (e.g. worker@3)");
  app.add_flag("--checksum", o.checksum, "store an XXH3 checksum of every filled payload");
  double deadline_s = 0, stop_s = 10, grace_s = 10;
  constexpr double day = 24 * 3600;  // every duration bounded: an absurd one is refused, naming the option
  using cuzk::config::range;
  app.add_option("--synth-deadline", deadline_s,
                 "seconds a synthesis may take before the worker gives its slot back and exits 3 "
                 "(0: 60 s + 20 us per element of the key's domain)")
      ->check(range(0.0, 7 * day));
  app.add_option("--stop-timeout", stop_s,
                 "seconds to wait for the synthesis in hand after SIGTERM before giving its slot back")
      ->check(range(0.0, day));
  app.add_option("--progress-grace", grace_s,
                 "seconds a synthesis may go without progress before the worker stops heartbeating")
      ->check(range(0.001, day));
  double generator_memory_gib = 8, generator_output_gib = 1;
  app.add_option("--generator-memory", generator_memory_gib,
                 "GiB an installed circuit's witness generator may allocate (RLIMIT_DATA; its wall and CPU time are "
                 "nine tenths of the synthesis deadline)")
      ->check(range(0.001, 1024.0));
  app.add_option("--generator-output", generator_output_gib,
                 "GiB of the largest file an installed circuit's witness generator may write (RLIMIT_FSIZE)")
      ->check(range(0.001, 64.0));
  const std::vector<cuzk::config::section> sections = {
      {"pool", {{"name", {"--pool"}}, {"hugepages", {"--hugepages"}}}},
      {"server", {{"worker_endpoint", {"--endpoint"}}}},
      {"worker",
       {{"checksum", {"--checksum", true}},
        {"synth_deadline", {"--synth-deadline"}},
        {"stop_timeout", {"--stop-timeout"}},
        {"progress_grace", {"--progress-grace"}},
        {"generator_memory_gib", {"--generator-memory"}},
        {"generator_output_gib", {"--generator-output"}}}},
  };
  if (auto rc = cuzk::config::parse(app, argc, argv, sections)) return *rc;
  const auto ms = [](double s) { return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000)); };
  o.synth_deadline = ms(deadline_s);
  o.stop_timeout = ms(stop_s);
  o.progress_grace = ms(grace_s);
  const auto gib = [](double g) { return static_cast<std::uint64_t>(g * double(1ULL << 30)); };
  o.generator.memory_bytes = gib(generator_memory_gib);
  o.generator.output_bytes = gib(generator_output_gib);
  cuzk::log::setup(o.name);
  struct sigaction sa {};
  sa.sa_handler = [](int) { cuzk::worker::worker::on_signal(); };
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  try {
    cuzk::worker::worker w(o);
    return w.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return cuzk::worker::exit_error;
  }
}
