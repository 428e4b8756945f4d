#include "client/plan/node_plan.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <list>
#include <map>
#include <stdexcept>

#include "client/plan/phase_timings.hpp"
#include "groth16/keys.hpp"
#include "io/zkey_layout.hpp"
#include "shm/layout_plan.hpp"
#include "shm/region.hpp"
#include "shm/srs_region.hpp"
#include "sizing/host_memory.hpp"

namespace cuzk::plan {

/* A native circuit's key's A/B coefficients leave its region (job::key_cache, shm::srs_region::release). */
std::uint64_t key_input::resident_content(bool points_dropped) const {
  return sizing::srs_content_bytes(zkey_bytes, native ? n_coefs * io::zkey_coef_bytes : 0, sizing::bases_bytes(dims),
                                   points_dropped);
}

namespace {

constexpr std::uint64_t MiB = std::uint64_t(1) << 20;
constexpr std::uint64_t huge_page = 2 * MiB;
/* DESIGN §1: H2D from a registered shm mapping on the H200 (PCIe Gen5 x16) */
constexpr double pinned_h2d_bytes_per_s = 55.2e9;
/* The server's own private memory beside its keys: tests/integration/service/
   plan_service.sh measures it (RssAnon: 6 MiB serving a 2^12 key on the CPU
   backend, after a proof) and fails above the plan; this leaves room for
   its threads' stacks and its queues. */
constexpr std::uint64_t server_baseline = 128 * MiB;

template <class C>
std::uint64_t decoded_key_bytes(const key_input& k) {
  /* the CPU backend decodes the points and coefficients (io::read_zkey) */
  using pk = groth16::basic_proving_key<C>;
  const sizing::key_dims& d = k.dims;
  return (d.a + d.b1 + d.c + d.h + k.n_public + 1) * sizeof(typename pk::g1) + d.b2 * sizeof(typename pk::g2) +
         k.n_coefs * sizeof(groth16::basic_matrix_coef<C>);
}

std::uint64_t decoded_bytes(const key_input& k) {
  return k.dims.curve == curves::curve_id::bn254 ? decoded_key_bytes<curves::bn254>(k)
                                                 : decoded_key_bytes<curves::bls12_381>(k);
}

unsigned log2_of(std::uint64_t n) { return n ? unsigned(std::bit_width(n) - 1) : 0; }

/* device_context::resident, without a device: least recently used first out,
   copies from what the budget and the device leave (the device's free memory
   taken as its total less the resident keys: the CUDA context comes out of
   the reserve). */
void place_keys(const node_inputs& in, gpu_plan& g) {
  struct held {
    std::size_t key;
    std::uint64_t footprint;
  };
  std::list<held> lru;  // most recently used first
  std::uint64_t resident_bytes = 0;
  const unsigned workers = in.workers_per_gpu;
  for (std::size_t i = 0; i < in.keys.size(); ++i) {
    const key_input& k = in.keys[i];
    residency r;
    r.bases = sizing::bases_bytes(k.dims);
    r.working_each = sizing::working_bytes(k.dims);
    r.workers_fit = sizing::workers_that_fit(k.dims, g.budget);
    const std::uint64_t need = sizing::resident_need(k.dims, workers);
    r.footprint = sizing::key_footprint(k.dims);
    if (need > g.budget) {  // streamed for every proof
      g.keys.push_back(r);
      continue;
    }
    while (resident_bytes + need > g.budget && !lru.empty()) {
      r.evicted.push_back(in.keys[lru.back().key].name);
      resident_bytes -= lru.back().footprint;
      lru.pop_back();
    }
    const std::uint64_t free_now = g.gpu.memory > resident_bytes ? g.gpu.memory - resident_bytes : 0;
    const std::uint64_t allowance =
        sizing::copies_allowance(k.dims, workers, g.budget, resident_bytes, free_now, in.reserve);
    const sizing::key_copies copies = sizing::plan_key_copies(k.dims, allowance, in.msm_copies);
    r.resident = true;
    r.footprint = sizing::key_footprint(k.dims, copies);
    r.copies_bytes = sizing::shifted_bytes(k.dims, copies);
    r.copies = copies.describe();
    resident_bytes += r.footprint;
    lru.push_front({i, r.footprint});
    g.keys.push_back(r);
  }
  for (const held& h : lru) g.resident_at_end.push_back(in.keys[h.key].name);
}

}  // namespace

std::string gib(std::uint64_t bytes) {
  char buf[32];
  if (bytes < GiB)
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(MiB));
  else
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(GiB));
  return buf;
}

std::uint64_t synth_worker_bytes() {
  /* private memory (RssAnon: the pool's and SRS regions' pages it maps are
     counted with them): 1 MiB measured after a 2^12 synthesis by
     tests/integration/service/plan_service.sh, which fails above this; room
     for its threads' stacks and the 1–4 MiB read chunks of .wtns and .r1cs
     files (r1cs/input_file.hpp, binfile.hpp) */
  return 64 * MiB;
}

node_plan plan_node(const node_inputs& in) {
  if (in.keys.empty())
    throw std::invalid_argument("nothing to plan: name at least one key (--key ID or FILE, or --circuit SPEC)");
  node_plan p;
  p.in = in;
  const bool cpu = in.gpus.empty();
  const unsigned proving = cpu ? 1u : unsigned(in.gpus.size()) * std::max(1u, in.workers_per_gpu);
  p.synth_workers = in.synth_workers ? in.synth_workers : proving;
  const std::uint64_t per_class = in.slots_per_class ? in.slots_per_class : proving + p.synth_workers + 2;

  /* one class a domain, its witness room the largest key's of that domain */
  std::map<std::uint64_t, std::pair<std::uint64_t, std::vector<std::string>>> by_domain;
  for (const key_input& k : in.keys) {
    auto& [witness, names] = by_domain[k.dims.domain];
    witness = std::max(witness, k.dims.n_vars);
    names.push_back(k.name);
  }
  std::vector<shm::slot_class_config> cfg;
  for (const auto& [domain, w] : by_domain) cfg.push_back({per_class, domain, w.first});
  const shm::region_config defaults;
  p.leases = std::max<std::uint32_t>(defaults.lease_capacity, p.synth_workers + 16);
  p.jobs = defaults.job_capacity;
  std::string why;
  const auto layout = shm::detail::plan_layout(cfg, p.leases, p.jobs, &why);
  if (!layout) {
    p.does_not_fit.push_back("the pool cannot be laid out: " + why);
    return p;
  }
  for (std::uint32_t i = 0; i < layout->n_classes; ++i) {
    const shm::slot_class& c = layout->classes[i];
    class_plan cp{c.count, c.domain, c.witness, c.slot_bytes, by_domain[c.domain].second};
    p.classes.push_back(cp);
  }
  p.layout_hash = layout->hash;
  p.pool_bytes = in.hugepages.empty() ? layout->end : shm::detail::round_up(layout->end, huge_page);
  p.hugepages_2m = shm::detail::round_up(layout->end, huge_page) / huge_page;

  for (const gpu_input& g : in.gpus) {
    gpu_plan gp;
    gp.gpu = g;
    gp.budget = sizing::device_budget(g.memory, in.reserve, in.budget, 1);
    place_keys(in, gp);
    p.gpus.push_back(std::move(gp));
  }
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    const gpu_plan& gp = p.gpus[g];
    const std::string gpu = "GPU " + std::to_string(g) + (gp.gpu.name.empty() ? "" : " (" + gp.gpu.name + ")");
    for (std::size_t i = 0; i < in.keys.size(); ++i) {
      const residency& r = gp.keys[i];
      const std::string& name = in.keys[i].name;
      if (!r.resident) {
        std::string s = "key " + name + " does not stay resident on " + gpu + ": its bases and MSM temporaries (" +
                        gib(r.footprint) + ") and " + std::to_string(in.workers_per_gpu) + " workers' buffers (" +
                        gib(r.working_each) + " each) need " +
                        gib(r.footprint + std::uint64_t(in.workers_per_gpu) * r.working_each) + ", the budget is " +
                        gib(gp.budget) + "; its bases are streamed for every proof";
        if (r.workers_fit >= 1 && r.workers_fit < in.workers_per_gpu)
          s += " (with --workers-per-gpu " + std::to_string(r.workers_fit) + " it would stay resident)";
        p.does_not_fit.push_back(s);
      }
      for (const std::string& e : r.evicted)
        p.does_not_fit.push_back(
            "keys " + e + " and " + name + " do not stay resident together on " + gpu + " (" + gib(gp.budget) +
            " budget): making " + name + " resident evicts " + e +
            ", and every switch between them uploads a key again" +
            (in.msm_copies != 0 ? " (--msm-copies 0 leaves more room: copies fill what a key leaves)" : ""));
    }
  }

  for (std::size_t i = 0; i < in.keys.size(); ++i) {
    const key_input& k = in.keys[i];
    key_plan kp;
    for (std::size_t c = 0; c < p.classes.size(); ++c)
      if (p.classes[c].domain >= k.dims.domain && p.classes[c].witness >= k.dims.n_vars) {
        kp.slot_class = c;
        break;
      }
    const unsigned lg = log2_of(k.dims.domain);
    if (cpu) {
      const proof_time t = cpu_proof_time(k.dims.curve, lg, in.cpu_cores);
      kp.proof_seconds = t.seconds;
      kp.partitions_per_minute = t.seconds > 0 ? 60.0 / t.seconds : 0;
      kp.timings_source = t.source;
    } else {
      for (const gpu_plan& gp : p.gpus) {
        const residency& r = gp.keys[i];
        proof_time t = gpu_proof_time(k.dims.curve, lg, gp.gpu.name, r.copies_bytes > 0);
        if (t.seconds <= 0) continue;
        if (!r.resident) {
          t.seconds += double(r.bases) / pinned_h2d_bytes_per_s;
          t.source += "; plus its bases streamed at 55.2 GB/s";
        }
        if (!kp.proof_seconds) kp.proof_seconds = t.seconds, kp.timings_source = t.source;
        kp.partitions_per_minute += 60.0 / t.seconds;
      }
    }
    kp.host.srs_region = shm::srs_region_bytes(k.resident_content());
    /* drop (key_store::preload_key): a --key file whose every GPU keeps it resident */
    kp.host.srs_region_drop = kp.host.srs_region;
    if (cpu)
      kp.host.drop_refused = "the CPU backend proves from host memory";
    else if (k.source == "key id")
      kp.host.drop_refused = "installed in the pool: the server knows no file to read it back from";
    else if (std::any_of(p.gpus.begin(), p.gpus.end(), [&](const gpu_plan& gp) { return !gp.keys[i].resident; }))
      kp.host.drop_refused = "streamed: not resident on every GPU";
    else
      kp.host.srs_region_drop = shm::srs_region_bytes(k.resident_content(true));
    /* the CPU backend decodes the key and proves with host vectors of a proof's size */
    kp.host.server = cpu ? decoded_bytes(k) + sizing::working_bytes(k.dims) : 0;
    p.keys.push_back(kp);
  }

  p.srs_bytes = 0;
  p.server_bytes = server_baseline;
  std::uint64_t srs_drop = 0;
  for (const key_plan& kp : p.keys)
    p.srs_bytes += kp.host.srs_region, p.server_bytes += kp.host.server, srs_drop += kp.host.srs_region_drop;
  p.synth_worker_bytes = synth_worker_bytes();
  sizing::host_memory_use keep{p.pool_bytes, p.srs_bytes, std::uint64_t(p.synth_workers) * p.synth_worker_bytes,
                               p.server_bytes};
  sizing::host_memory_use drop = keep;
  drop.srs_regions = srs_drop;
  p.host_bytes = keep.total();
  p.host_bytes_drop = drop.total();
  if (in.host_copy_drop) p.srs_bytes = srs_drop;  // the regions the server will hold
  p.shm_bytes = (in.hugepages.empty() ? p.pool_bytes : 0) + p.srs_bytes;
  const std::uint64_t need = in.host_copy_drop ? p.host_bytes_drop : p.host_bytes;
  if (!(in.host_copy_drop ? drop : keep).fits(in.host_ram))
    p.does_not_fit.push_back("host RAM: the pool (" + gib(p.pool_bytes) + "), the SRS regions (" + gib(p.srs_bytes) +
                             (in.host_copy_drop ? ", host_copy = drop" : ", host_copy = keep") + "), " +
                             std::to_string(p.synth_workers) + " synth workers (" + gib(p.synth_worker_bytes) +
                             " each) and the server (" + gib(p.server_bytes) + ") need " + gib(need) +
                             ", the host has " + gib(in.host_ram) +
                             (!in.host_copy_drop && p.host_bytes_drop < p.host_bytes && drop.fits(in.host_ram)
                                  ? " (with host_copy = drop: " + gib(p.host_bytes_drop) + ", which fits)"
                                  : ""));
  if (in.shm_size && p.shm_bytes > in.shm_size)
    p.does_not_fit.push_back("/dev/shm: the " + std::string(in.hugepages.empty() ? "pool and the " : "") +
                             "SRS regions need " + gib(p.shm_bytes) + ", /dev/shm holds " + gib(in.shm_size) +
                             " (mount -o remount,size=" + std::to_string((p.shm_bytes + GiB - 1) / GiB) +
                             "G /dev/shm)");
  for (const key_input& k : in.keys)
    if (!k.installed)
      p.notes.push_back("key " + k.name + " is not in the pool yet: its SRS region (" +
                        gib(shm::srs_region_bytes(k.resident_content())) + ") is counted in /dev/shm");
  if (!cpu)
    p.notes.push_back(
        "synthesis is not timed: partitions per minute are the GPUs'; give enough synth workers to keep them fed (cuzk "
        "status shows FILLED slots waiting)");
  return p;
}

}  // namespace cuzk::plan
