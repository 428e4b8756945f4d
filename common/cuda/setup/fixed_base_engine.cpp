#include "cuda/setup/fixed_base_engine.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/memory.hpp"
#include "cuda/setup/fixed_base_kernel.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda {

namespace {

using setup::scalar_bytes;

/* page-locked host memory, so the copies run asynchronously to the host */
class pinned {
 public:
  pinned() = default;
  explicit pinned(std::size_t bytes) : n_(bytes) {
    CUZK_CUDA_OK(cudaHostAlloc(reinterpret_cast<void**>(&p_), bytes, cudaHostAllocPortable));
  }
  pinned(pinned&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  pinned& operator=(pinned&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~pinned() {
    if (p_) cudaFreeHost(p_);
  }
  std::byte* data() { return p_; }
  std::size_t size() const { return n_; }

 private:
  std::byte* p_ = nullptr;
  std::size_t n_ = 0;
};

/* A CPU field element from the device's bytes of the same Montgomery form */
template <class F>
F field_from(const std::byte* b) {
  static_assert(std::is_trivially_copyable_v<F>);
  F f;
  std::memcpy(&f, b, sizeof(F));
  return f;
}

/* The two groups of curve C: CPU types, device point size, launch */
template <class C>
struct g1_group {
  using curve = ec::g1_group<C>;
  using field = ff::fp<C>;
  static constexpr std::size_t point_bytes = setup::g1_point_bytes<C>;
  static void launch(const void* t, const void* k, void* out, std::size_t n, cudaStream_t s) {
    setup::launch_fixed_base_g1<C>(t, k, out, n, s);
  }
};
template <class C>
struct g2_group {
  using curve = ec::g2_group<C>;
  using field = ff::fp2<C>;
  static constexpr std::size_t point_bytes = setup::g2_point_bytes<C>;
  static void launch(const void* t, const void* k, void* out, std::size_t n, cudaStream_t s) {
    setup::launch_fixed_base_g2<C>(t, k, out, n, s);
  }
};

template <class G>
using affine_of = ec::affine_point<typename G::field>;

/* device layout: x, y (Montgomery, the CPU's bytes); infinity is (0, 0) */
template <class G>
void pack(const affine_of<G>& p, std::byte* out) {
  static_assert(2 * sizeof(typename G::field) == G::point_bytes);
  if (p.infinity) {
    std::memset(out, 0, G::point_bytes);
    return;
  }
  std::memcpy(out, &p.x, sizeof p.x);
  std::memcpy(out + sizeof p.x, &p.y, sizeof p.y);
}
template <class G>
affine_of<G> unpack(const std::byte* in) {
  using F = typename G::field;
  affine_of<G> p{field_from<F>(in), field_from<F>(in + sizeof(F)), false};
  if (p.x.is_zero() && p.y.is_zero()) return {};
  return p;
}

/* What one group keeps between calls: the table of its last base, and the
   chunk buffers (device: scalars, points; host: two pinned slots of each, so
   the host prepares and unpacks one chunk while the device computes the next). */
template <class G>
struct group_state {
  std::optional<affine_of<G>> base;
  device_buffer<std::byte> table;
  std::size_t chunk = 0;
  device_buffer<std::byte> k, out;
  pinned host_k[2], host_out[2];
};

template <class C>
class cuda_fixed_base_engine final : public groth16::basic_fixed_base_engine<C> {
  using fr = ff::fr<C>;

 public:
  explicit cuda_fixed_base_engine(const fixed_base_options& opt)
      : device_(opt.device), max_chunk_(std::max<std::size_t>(opt.chunk, 1)) {
    if (device_ < 0 || device_ >= device_count())
      throw error(cudaErrorInvalidDevice, "fixed-base engine: no CUDA device " + std::to_string(device_));
    CUZK_CUDA_OK(cudaSetDevice(device_));
    name_ = "cuda (" + info(device_).name + ")";
    q_.emplace();
  }

  std::string name() const override { return name_; }

 protected:
  void run_g1(const ec::g1_affine<C>& g, std::span<const fr> k, std::span<ec::g1_affine<C>> out) override {
    run(g1_, g, k, out);
  }
  void run_g2(const ec::g2_affine<C>& g, std::span<const fr> k, std::span<ec::g2_affine<C>> out) override {
    run(g2_, g, k, out);
  }

 private:
  template <class G>
  void upload_table(group_state<G>& st, const affine_of<G>& g) {
    if (st.base && *st.base == g) return;
    st.base.reset();
    groth16::fixed_base_table<typename G::curve> t(g);
    const auto pts = t.points();
    std::vector<std::byte> host(pts.size() * G::point_bytes);
    tbb::parallel_for(std::size_t{0}, pts.size(), [&](std::size_t i) { pack<G>(pts[i], &host[i * G::point_bytes]); });
    if (st.table.size() < host.size()) st.table = device_buffer<std::byte>(host.size(), "fixed-base table");
    st.table.upload(std::span<const std::byte>(host), q_->s);
    q_->s.sync();
    st.base = g;
  }

  /* device buffers for `want` scalars a launch, halving while the budget refuses */
  template <class G>
  void reserve(group_state<G>& st, std::size_t want) {
    if (st.chunk >= want) return;
    st.k = {};
    st.out = {};
    for (std::size_t c = want;; c = (c + 1) / 2) {
      try {
        st.k = device_buffer<std::byte>(c * scalar_bytes, "fixed-base scalars");
        st.out = device_buffer<std::byte>(c * G::point_bytes, "fixed-base products");
        st.chunk = c;
        break;
      } catch (const out_of_memory&) {
        st.k = {};
        if (c <= 1024) throw;
      }
    }
    for (int s = 0; s < 2; ++s) {
      st.host_k[s] = pinned();
      st.host_out[s] = pinned();
      st.host_k[s] = pinned(st.chunk * scalar_bytes);
      st.host_out[s] = pinned(st.chunk * G::point_bytes);
    }
  }

  template <class G>
  void run(group_state<G>& st, const affine_of<G>& g, std::span<const fr> k, std::span<affine_of<G>> out) {
    static_assert(sizeof(fr) == scalar_bytes);
    if (k.empty()) return;
    CUZK_CUDA_OK(cudaSetDevice(device_));
    upload_table(st, g);
    reserve(st, std::min(k.size(), max_chunk_));
    const std::size_t chunk = st.chunk, chunks = (k.size() + chunk - 1) / chunk;
    auto range = [&](std::size_t c) { return std::pair{c * chunk, std::min(k.size(), (c + 1) * chunk)}; };

    /* chunk c: scalars into pinned slot c % 2, H2D, kernel, D2H into the slot, event */
    auto submit = [&](std::size_t c) {
      const auto [lo, hi] = range(c);
      std::byte* hk = st.host_k[c % 2].data();
      tbb::parallel_for(tbb::blocked_range<std::size_t>(lo, hi, 1 << 14), [&](const auto& r) {
        std::memcpy(hk + (r.begin() - lo) * scalar_bytes, &k[r.begin()], r.size() * scalar_bytes);
      });
      CUZK_CUDA_OK(cudaMemcpyAsync(st.k.data(), hk, (hi - lo) * scalar_bytes, cudaMemcpyHostToDevice, q_->s));
      G::launch(st.table.data(), st.k.data(), st.out.data(), hi - lo, q_->s);
      CUZK_CUDA_OK(cudaMemcpyAsync(st.host_out[c % 2].data(), st.out.data(), (hi - lo) * G::point_bytes,
                                   cudaMemcpyDeviceToHost, q_->s));
      q_->done[c % 2].record(q_->s);
    };
    auto collect = [&](std::size_t c) {
      const auto [lo, hi] = range(c);
      q_->done[c % 2].sync();
      const std::byte* ho = st.host_out[c % 2].data();
      tbb::parallel_for(std::size_t{lo}, hi,
                        [&](std::size_t i) { out[i] = unpack<G>(ho + (i - lo) * G::point_bytes); });
    };
    /* the host unpacks chunk c − 2 while the device runs c − 1; slot c % 2 is free after it */
    for (std::size_t c = 0; c < chunks; ++c) {
      if (c >= 2) collect(c - 2);
      submit(c);
    }
    for (std::size_t c = chunks >= 2 ? chunks - 2 : 0; c < chunks; ++c) collect(c);
  }

  int device_;
  std::size_t max_chunk_;
  std::string name_;
  struct queue {
    stream s;
    event done[2]; /* chunk in pinned slot 0 / 1 is back on the host */
  };
  std::optional<queue> q_; /* created on device_ */
  group_state<g1_group<C>> g1_;
  group_state<g2_group<C>> g2_;
};

}  // namespace

template <class C>
std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base_engine(const fixed_base_options& opt) {
  return std::make_unique<cuda_fixed_base_engine<C>>(opt);
}

#define CUZK_INSTANTIATE(C) \
  template std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base_engine(const fixed_base_options&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda
