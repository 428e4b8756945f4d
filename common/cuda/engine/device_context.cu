#include "cuda/engine/device_context.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "curves/dispatch.hpp"
#include "sizing/key_dims_of.hpp"

namespace cuzk::cuda {

namespace {

using clock = std::chrono::steady_clock;

}  // namespace

device_context::device_context(const context_options& opt, std::shared_ptr<host_registry> registry)
    : opt_(opt), registry_(std::move(registry)) {
  if (opt_.device < 0 || opt_.device >= device_count())
    throw std::invalid_argument("no CUDA device " + std::to_string(opt_.device));
  CUZK_CUDA_OK(cudaSetDevice(opt_.device));
  const device_info d = info(opt_.device);
  name_ = d.name;
  cuda::budget& b = default_budget();
  b.set_reserve(std::max(b.reserve(), opt_.reserve));
  budget_ = sizing::device_budget(d.total_mem, opt_.reserve, opt_.budget, opt_.sharers);
  stream s;
  ref_.record(s);
  s.sync();
  ref_host_ = clock::now();
}

std::string device_context::id_of(std::string_view key_id, const void* pk) const {
  if (!key_id.empty()) return std::string(key_id);
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%p", pk);
  return buf;
}

template <class C>
bool device_context::register_mapped(const groth16::basic_proving_key<C>& pk) {
  return register_region(pk.mapped);
}

bool device_context::register_region(const groth16::mapped_bases& m) {
  if (!m.owner || !registry_ || points_released(m)) return false;
  /* the five sections lie in one mapping: register from the first to the end of the last */
  const std::uint8_t* lo = nullptr;
  const std::uint8_t* hi = nullptr;
  for (auto sec : {m.a, m.b1, m.b2, m.c, m.h}) {
    if (sec.empty()) continue;
    lo = lo ? std::min(lo, sec.data()) : sec.data();
    hi = hi ? std::max(hi, sec.data() + sec.size()) : sec.data() + sec.size();
  }
  if (!lo) return false;
  try {
    (void)registry_->add({lo, std::size_t(hi - lo)}, m.owner, true);
  } catch (const error& e) {  // uploads still work, from pageable memory
    std::lock_guard lk(register_mu_);
    if (register_error_.empty()) register_error_ = e.what();
    return false;
  }
  return true;
}

void device_context::forget_mapped(const groth16::mapped_bases& m) {
  if (!registry_) return;
  for (auto sec : {m.a, m.b1, m.b2, m.c, m.h})
    if (!sec.empty()) (void)registry_->remove(sec.data());
}

template <class C>
std::shared_ptr<const basic_device_key<C>> device_context::resident(std::string_view key_id,
                                                                    const groth16::basic_proving_key<C>& pk,
                                                                    cudaStream_t s) {
  using key_t = basic_device_key<C>;
  const std::string id = id_of(key_id, &pk);
  std::lock_guard lk(mu_);
  for (auto it = keys_.begin(); it != keys_.end(); ++it) {
    if (it->id != id) continue;
    if (it->curve == C::id && (!key_id.empty() || static_cast<const key_t*>(it->key.get())->holds(pk))) {
      keys_.splice(keys_.begin(), keys_, it);
      return std::static_pointer_cast<const key_t>(it->key);
    }
    if (it->key.use_count() > 1) return nullptr;  // another key at the same address, still in use: stream
    resident_bytes_ -= it->footprint;             // the old key at this address is gone
    keys_.erase(it);
    break;
  }
  const sizing::key_dims dims = sizing::dims_of(pk);
  const std::size_t need = sizing::resident_need(dims, opt_.workers);
  /* a key that is nowhere in host memory cannot be streamed */
  auto cannot_stream = [&](const std::string& why) -> std::shared_ptr<const key_t> {
    if (!points_released(pk.mapped)) return nullptr;
    throw std::runtime_error("key " + id + ": its points left host memory (host_copy = drop) and it " + why +
                             " on CUDA device " + std::to_string(opt_.device) + ", so it cannot be streamed either");
  };
  if (need > budget_) return cannot_stream("does not fit the budget");
  /* least recently used first out, among the keys no proof holds */
  while (resident_bytes_ + need > budget_) {
    auto victim = keys_.end();
    for (auto it = keys_.begin(); it != keys_.end(); ++it)
      if (it->key.use_count() == 1 && !points_released(it->mapped)) victim = it;
    if (victim == keys_.end()) return cannot_stream("finds no room beside the keys in use");
    resident_bytes_ -= victim->footprint;
    keys_.erase(victim);
    ++evictions_;
  }
  CUZK_CUDA_OK(cudaSetDevice(opt_.device));
  register_mapped(pk);
  /* copies only from what is free now, in the budget and on the device (other
     processes' allocations too): they never evict another key */
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) (void)cudaGetLastError(), free = 0;
  /* with a margin (sizing::copies_allowance): a copy fewer costs a few percent of an MSM */
  const std::size_t left = sizing::copies_allowance(dims, opt_.workers, budget_, resident_bytes_, free, opt_.reserve);
  key_shifts sh = plan_key_shifts(pk, left, opt_.msm_copies);
  std::shared_ptr<const key_t> key;
  try {
    key = std::make_shared<const key_t>(pk, s, sh);
  } catch (const out_of_memory&) {
    if (!sh.total()) throw;
    sh = {}; /* the estimate fell short: the key without copies, as before them */
    key = std::make_shared<const key_t>(pk, s, sh);
  }
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  resident_bytes_ += key->footprint_bytes();
  keys_.push_front({id, C::id, key, key->footprint_bytes(), sh.describe(), key->shifted_bytes(), pk.mapped});
  ++uploads_;
  return key;
}

#define CUZK_CONTEXT_INSTANCES(C)                                               \
  template std::shared_ptr<const basic_device_key<C>> device_context::resident( \
      std::string_view, const groth16::basic_proving_key<C>&, cudaStream_t);    \
  template bool device_context::register_mapped(const groth16::basic_proving_key<C>&);
CUZK_CURVES(CUZK_CONTEXT_INSTANCES)
#undef CUZK_CONTEXT_INSTANCES

bool device_context::could_hold(const sizing::key_dims& k) const {
  std::size_t pinned = 0;
  std::lock_guard lk(mu_);
  for (const auto& e : keys_)
    if (points_released(e.mapped)) pinned += e.footprint;
  return pinned + sizing::resident_need(k, opt_.workers) <= budget_;
}

void device_context::note_streamed() {
  std::lock_guard lk(mu_);
  ++streamed_;
}

double device_context::now_s() const { return std::chrono::duration<double>(clock::now() - ref_host_).count(); }

void device_context::trim_intervals(double now) {
  while (!busy_.empty() && busy_.front().second < now - 600) busy_.pop_front();
  busy_union_.forget_before(now - 600);  // a proof's span is shorter
}

void device_context::note_busy(const event& a, const event& b) {
  const double from = event::ms(ref_, a) / 1e3, to = event::ms(ref_, b) / 1e3;
  std::lock_guard lk(busy_mu_);
  busy_.emplace_back(from, std::max(from, to));
  busy_total_ += busy_union_.add(from, to);
  trim_intervals(now_s());
}

double device_context::busy_ratio(std::chrono::seconds window) const {
  const double now = now_s();
  const double w0 = std::max(0.0, now - double(window.count()));
  if (now <= w0) return 0;
  std::vector<std::pair<double, double>> v;
  {
    std::lock_guard lk(busy_mu_);
    v.assign(busy_.begin(), busy_.end());
  }
  std::sort(v.begin(), v.end());
  /* the union of the intervals, clipped to [w0, now] */
  double busy = 0, end = w0;
  for (auto [a, b] : v) {
    a = std::max(a, end);
    b = std::min(b, now);
    if (b > a) {
      busy += b - a;
      end = b;
    }
  }
  return std::min(1.0, busy / (now - w0));
}

context_status device_context::status() const {
  context_status st;
  st.device = opt_.device;
  st.name = name_;
  st.workers = opt_.workers;
  st.busy_ratio = busy_ratio();
  {
    std::lock_guard lk(busy_mu_);
    st.busy_seconds = busy_total_;
  }
  st.budget = budget_;
  if (cudaSetDevice(opt_.device) == cudaSuccess) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) {
      st.mem_free = free;
      st.mem_total = total;
    } else {
      (void)cudaGetLastError();
    }
  }
  std::lock_guard lk(mu_);
  st.resident_bytes = resident_bytes_;
  for (const auto& e : keys_) {
    st.resident_keys.push_back(e.id);
    st.resident_shifts.push_back(e.shifts);
    st.resident_key_bytes.push_back(e.footprint);
    st.shifted_bytes += e.shifted_bytes;
  }
  st.uploads = uploads_;
  st.evictions = evictions_;
  st.streamed = streamed_;
  std::lock_guard rk(register_mu_);
  st.register_error = register_error_;
  return st;
}

}  // namespace cuzk::cuda
