#include "poly/domain.hpp"
#include "curves/dispatch.hpp"

#include <array>
#include <mutex>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

namespace cuzk::poly {
namespace {

template <class C>
void check_log_size(unsigned log_n) {
  constexpr unsigned s = max_log_size_of<C>;
  if (log_n > s)
    throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) + " exceeds 2^" + std::to_string(s) +
                                ", the largest power-of-two subgroup of " + std::string(curves::name(C::id)) + "'s Fr");
}

}  // namespace

template <class C>
struct basic_domain<C>::tables {
  std::once_flag once;
  std::vector<field_t> full;   // ω^i, i in [0, n/2]
  std::vector<field_t> block;  // ω_B^i, i in [0, B/2], when B < n
};

template <class C>
basic_domain<C>::basic_domain(unsigned log_n, root_family family)
    : log_n_(log_n), family_(family), tables_(std::make_shared<tables>()) {
  check_log_size<C>(log_n);
  omega_ = primitive_root<C>(log_n, family);
  omega_inv_ = omega_.inverse();
  size_inv_ = field_t::from_u64(1).dbl().pow(std::uint64_t(log_n)).inverse();  // (2^k)^-1
}

template <class C>
const basic_domain<C>& basic_domain<C>::cached(unsigned log_n, root_family family) {
  check_log_size<C>(log_n);
  static std::mutex mu;
  static std::array<std::array<std::unique_ptr<basic_domain>, max_log_size + 1>, 2> table;
  std::lock_guard lock(mu);
  auto& slot = table[family == root_family::bellman ? 0 : 1][log_n];
  if (!slot) slot = std::make_unique<basic_domain>(log_n, family);
  return *slot;
}

template <class C>
typename basic_domain<C>::field_t basic_domain<C>::odd_coset_shift() const {
  if (log_n_ >= max_log_size)
    throw std::invalid_argument("no 2n-th root of unity for n = 2^" + std::to_string(log_n_) + " in " +
                                std::string(curves::name(C::id)) + "'s Fr (two-adicity " +
                                std::to_string(max_log_size) + ")");
  return primitive_root<C>(log_n_ + 1, family_);
}

template <class C>
typename basic_domain<C>::field_t basic_domain<C>::vanishing_on_coset(const field_t& g) const {
  field_t gn = g;
  for (unsigned i = 0; i < log_n_; ++i) gn = gn.sqr();  // g^(2^k)
  return gn - field_t::one();
}

template <class C>
const typename basic_domain<C>::tables& basic_domain<C>::built() const {
  std::call_once(tables_->once, [this] {
    const std::size_t half = size() / 2;
    auto& full = tables_->full;
    full.resize(half + 1);
    full[0] = field_t::one();
    constexpr std::size_t chunk = std::size_t{1} << 12;
    /* each chunk starts at ω^begin and steps by ω */
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half + 1, chunk), [&](const auto& r) {
      field_t w = omega_.pow(std::uint64_t(r.begin()));
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

template <class C>
std::span<const typename basic_domain<C>::field_t> basic_domain<C>::twiddles() const {
  return built().full;
}

template <class C>
std::span<const typename basic_domain<C>::field_t> basic_domain<C>::block_twiddles() const {
  const tables& t = built();
  return log_n_ > block_log ? std::span<const field_t>(t.block) : std::span<const field_t>(t.full);
}

#define CUZK_INSTANTIATE(C) template class basic_domain<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
