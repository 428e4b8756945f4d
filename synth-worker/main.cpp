// cuzk-synth-worker --pool NAME --endpoint E [--name worker@N]
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <csignal>
#include <exception>

#include "worker.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk-synth-worker: synthesizes assigned jobs into shared-memory slots"};
  cuzk::worker::worker_options o;
  app.add_option("--pool", o.pool, "pool region name")->required();
  app.add_option("--hugepages", o.hugepage_dir, "hugetlbfs directory the pool was created in");
  app.add_option("--endpoint", o.endpoint, "the server's ZeroMQ endpoint")->required();
  app.add_option("--name", o.name, "name shown in status (e.g. worker@3)");
  app.add_flag("--checksum", o.checksum, "store an XXH3 checksum of every filled payload");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [" + o.name + "] [%l] %v");
  struct sigaction sa {};
  sa.sa_handler = [](int) { cuzk::worker::worker::stop_flag().store(true); };
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  try {
    cuzk::worker::worker w(o);
    return w.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
