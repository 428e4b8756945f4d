#include "poly/domain.hpp"

#include <array>
#include <mutex>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

namespace cuzk::poly {

struct domain::tables {
  std::once_flag once;
  std::vector<fr_t> full;   // ω^i, i in [0, n/2]
  std::vector<fr_t> block;  // ω_B^i, i in [0, B/2], when B < n
};

domain::domain(unsigned log_n, root_family family)
    : log_n_(log_n), family_(family), tables_(std::make_shared<tables>()) {
  if (log_n > max_log_size) throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) + " exceeds 2^32");
  omega_ = primitive_root(log_n, family);
  omega_inv_ = omega_.inverse();
  size_inv_ = fr_t::from_u64(1).dbl().pow(std::uint64_t(log_n)).inverse();  // (2^k)^-1
}

const domain& domain::cached(unsigned log_n, root_family family) {
  if (log_n > max_log_size) throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) + " exceeds 2^32");
  static std::mutex mu;
  static std::array<std::array<std::unique_ptr<domain>, max_log_size + 1>, 2> table;
  std::lock_guard lock(mu);
  auto& slot = table[family == root_family::bellman ? 0 : 1][log_n];
  if (!slot) slot = std::make_unique<domain>(log_n, family);
  return *slot;
}

fr_t domain::odd_coset_shift() const {
  if (log_n_ >= max_log_size) throw std::invalid_argument("no 2n-th root of unity for n = 2^32");
  return primitive_root(log_n_ + 1, family_);
}

fr_t domain::vanishing_on_coset(const fr_t& g) const {
  fr_t gn = g;
  for (unsigned i = 0; i < log_n_; ++i) gn = gn.sqr();  // g^(2^k)
  return gn - fr_t::one();
}

const domain::tables& domain::built() const {
  std::call_once(tables_->once, [this] {
    const std::size_t half = size() / 2;
    auto& full = tables_->full;
    full.resize(half + 1);
    full[0] = fr_t::one();
    constexpr std::size_t chunk = std::size_t{1} << 12;
    /* each chunk starts at ω^begin and steps by ω */
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half + 1, chunk), [&](const auto& r) {
      fr_t w = omega_.pow(std::uint64_t(r.begin()));
      for (std::size_t i = r.begin(); i < r.end(); ++i, w *= omega_) full[i] = w;
    });
    if (log_n_ > block_log) {
      const std::size_t bhalf = std::size_t{1} << (block_log - 1);
      const std::size_t stride = half / bhalf;  // ω_B = ω^(n/B)
      tables_->block.resize(bhalf + 1);
      for (std::size_t i = 0; i <= bhalf; ++i) tables_->block[i] = full[i * stride];
    }
  });
  return *tables_;
}

std::span<const fr_t> domain::twiddles() const { return built().full; }

std::span<const fr_t> domain::block_twiddles() const {
  const tables& t = built();
  return log_n_ > block_log ? std::span<const fr_t>(t.block) : std::span<const fr_t>(t.full);
}

}  // namespace cuzk::poly
