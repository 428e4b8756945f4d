// cuzk plan: a node's sizing (client/plan/node_plan.hpp) from its keys, GPUs
// and host RAM, as a table or as the JSON cuzk-shm create --plan reads.
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <thread>

#include "client/plan/key_source.hpp"
#include "client/plan/plan_output.hpp"
#include "commands.hpp"
#include "io/snarkjs_json.hpp"
#include "engines/select.hpp"
#include "util/host_memory.hpp"

namespace cuzk::cli {

namespace {

std::uint64_t gib_bytes(double g) { return static_cast<std::uint64_t>(g * double(plan::GiB)); }

std::uint64_t this_host_ram() { return util::host_memory_total(); }

std::vector<plan::gpu_input> gpus_of(const plan_args& a, std::vector<std::string>& notes) {
  std::vector<plan::gpu_input> out;
  if (a.gpus == "auto") {
    for (const auto& d : engines::cuda_device_list())
      out.push_back({d.name, a.gpu_memory > 0 ? gib_bytes(a.gpu_memory) : d.total_mem});
    if (!engines::cuda_built())
      notes.push_back(
          "--gpus auto: this cuzk was built without CUDA, so it sees no device: planned for the CPU backend");
    else if (out.empty())
      notes.push_back("--gpus auto found no CUDA device: planned for the CPU backend");
    return out;
  }
  std::size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(a.gpus, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != a.gpus.size() || n > 64)
    throw std::invalid_argument("--gpus must be a count (0 to 64) or auto, not '" + a.gpus + "'");
  if (n && a.gpu_memory <= 0)
    throw std::invalid_argument("--gpus " + a.gpus + " needs --gpu-memory GiB (an H200: 139.8)");
  for (unsigned long g = 0; g < n; ++g) out.push_back({a.gpu_name, gib_bytes(a.gpu_memory)});
  return out;
}

}  // namespace

int run_plan(const plan_args& a) {
  plan::node_inputs in;
  std::vector<std::string> notes;
  try {
    for (const std::string& k : a.keys) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(k, ec))
        in.keys.push_back(plan::key_from_file(k));
      else
        in.keys.push_back(plan::key_from_pool(a.pool, k));
    }
    for (const std::string& c : a.circuits) in.keys.push_back(plan::key_from_circuit(c, curve_option(a.curve)));
  } catch (const plan::key_error& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  in.gpus = gpus_of(a, notes);
  if (a.host_ram > 0) {
    in.host_ram = gib_bytes(a.host_ram);
  } else {
    in.host_ram = this_host_ram();
    if (in.host_ram)
      notes.push_back("host RAM: this machine's (" + plan::gib(in.host_ram) + "); --host-ram GiB plans another");
  }
  in.shm_size = a.shm_size > 0 ? gib_bytes(a.shm_size) : 0;
  in.cpu_cores = a.cores ? a.cores : std::max(1u, std::thread::hardware_concurrency());
  in.workers_per_gpu = a.workers_per_gpu;
  in.synth_workers = a.synth_workers;
  in.slots_per_class = a.slots;
  in.reserve = gib_bytes(a.device_reserve);
  in.budget = gib_bytes(a.device_budget);
  in.msm_copies = a.msm_copies;
  in.pool_name = a.pool;
  in.hugepages = a.hugepages;
  in.host_copy_drop = a.host_copy == "drop";
  plan::node_plan p = plan::plan_node(in);
  p.notes.insert(p.notes.begin(), notes.begin(), notes.end());
  if (a.json) {
    const std::string s = plan::to_json(p).dump(1) + "\n";
    if (a.out.empty())
      std::fputs(s.c_str(), stdout);
    else
      io::write_json_file(a.out, plan::to_json(p));
  } else {
    std::fputs(plan::to_text(p).c_str(), stdout);
    if (!a.out.empty()) io::write_json_file(a.out, plan::to_json(p));
  }
  return p.does_not_fit.empty() ? 0 : 1;
}

}  // namespace cuzk::cli
