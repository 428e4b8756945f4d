// cuzk wait: waits for a job and writes its proof and public signals as the
// server sent them (snarkjs JSON). Partition 0 goes to the paths given;
// partition i > 0 to the same names with ".i" before the extension
// (proof.json, proof.1.json, proof.2.json, ...).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "client/lib/connection.hpp"
#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::cli {

std::string partition_path(const std::string& path, std::size_t i) {
  if (i == 0) return path;
  std::filesystem::path p(path);
  std::filesystem::path name = p.stem();
  name += "." + std::to_string(i);
  name += p.extension();
  return (p.parent_path() / name).string();
}

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!text.empty() && text.back() != '\n') f << '\n';
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int run_wait(const wait_args& a) {
  return client::with_exit_codes([&] {
    client::connection c(a.server.endpoint, connection_options(a.server));
    const auto timeout = std::chrono::milliseconds(static_cast<long long>(a.timeout * 1000));
    const auto r = c.wait(a.job_id, timeout, a.owner);
    if (const auto* st = std::get_if<proto::job_status>(&r)) {
      if (st->state == proto::job_state::failed) {
        std::fprintf(stderr, "cuzk: job %s failed: %s\n", util::escape_for_terminal(st->job_id).c_str(),
                     util::escape_for_terminal(st->error, true).c_str());
        return client::exit_job_failed;
      }
      std::fprintf(stderr, "cuzk: job %s still %s after %g s\n", util::escape_for_terminal(st->job_id).c_str(),
                   std::string(proto::name(st->state)).c_str(), a.timeout);
      return client::exit_unreachable;
    }
    const auto& p = std::get<proto::proof_reply>(r);
    for (std::size_t i = 0; i < p.partitions.size(); ++i) {
      write_text(partition_path(a.proof, i), p.partitions[i].proof_json);
      write_text(partition_path(a.public_path, i), p.partitions[i].public_json);
    }
    std::fprintf(stderr, "[cuzk] %s done: %zu proof%s written\n", util::escape_for_terminal(p.job_id).c_str(),
                 p.partitions.size(),
                 p.partitions.size() == 1 ? "" : "s");
    return client::exit_ok;
  });
}

}  // namespace cuzk::cli
