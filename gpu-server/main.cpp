// cuzk-gpu-server --pool NAME --endpoint E [--backend cpu|cuda|auto]
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <exception>

#include "server.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk-gpu-server: schedules jobs, hands slots to synthesis workers, proves filled slots"};
  cuzk::server::server_options o;
  app.add_option("--pool", o.pool, "pool region name (created by cuzk-shm create)")->required();
  app.add_option("--hugepages", o.hugepage_dir, "hugetlbfs directory the pool was created in");
  app.add_option("--endpoint", o.endpoint, "ZeroMQ endpoint to bind, e.g. ipc:///run/cuzk/cuzk.sock")->required();
  app.add_option("--backend", o.backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  app.add_option("--threads", o.threads, "CPU backend threads (0: all cores)");
  app.add_option("--key", o.keys, "a .zkey to load into its SRS region and parse before serving (repeatable)")
      ->check(CLI::ExistingFile);
  double hung_s = 60;
  app.add_option("--hung-timeout", hung_s, "seconds without a heartbeat after which a worker holding a slot is killed")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  o.hung_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(hung_s * 1000));
  spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [gpu-server] [%l] %v");
  try {
    cuzk::server::server s(o);
    return s.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
