// cuda::ntt against common/poly, bit for bit: the four transforms in every
// order combination for 2^0 .. 2^16 and 2^20 (2^24 in Large, filterable),
// both root families; inverse ∘ forward; compute_h in both conventions, with
// a, b, c checked unchanged.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cuda/memory.hpp"
#include "cuda/ntt/ntt.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"
#include "seed.hpp"

namespace cuzk::cuda::ntt::test {
namespace {

using poly::root_family;

std::vector<fr_t> on_device(const std::vector<fr_t>& in, const std::function<void(ff::fr_t*, cudaStream_t)>& fn) {
  stream s;
  device_buffer<fr_t> d(in.size(), "ntt test data");
  d.upload(in, s);
  fn(d.data(), s);
  std::vector<fr_t> out(in.size());
  d.download(out, s);
  s.sync();
  return out;
}

const char* order_name(order o) { return o == order::natural ? "natural" : "bit_reversed"; }

void check_transforms(unsigned log_n, root_family f, std::mt19937_64& rng) {
  const poly::domain d(log_n, f);
  const auto a = random_vector(rng, d.size());
  const fr_t g = coset_shift(rng);
  for (kind k : {kind::forward, kind::inverse, kind::coset_forward, kind::coset_inverse}) {
    const auto want = expected(k, d, a, g);
    for (order in : {order::natural, order::bit_reversed})
      for (order out : {order::natural, order::bit_reversed}) {
        const auto input = in == order::natural ? a : bit_reversed(a, log_n);
        const auto got = on_device(input, [&](ff::fr_t* p, cudaStream_t s) {
          switch (k) {
            case kind::forward: forward(p, log_n, f, in, out, s); break;
            case kind::inverse: inverse(p, log_n, f, in, out, s); break;
            case kind::coset_forward: coset_forward(p, log_n, f, g, in, out, s); break;
            case kind::coset_inverse: coset_inverse(p, log_n, f, g, in, out, s); break;
          }
        });
        const auto expect = out == order::natural ? want : bit_reversed(want, log_n);
        ASSERT_TRUE(got == expect) << name(k) << " 2^" << log_n << " " << order_name(in) << " -> "
                                   << order_name(out);
      }
  }
}

class NttSizes : public ::testing::TestWithParam<unsigned> {};

TEST_P(NttSizes, TransformsMatchPolyInEveryOrder) {
  CUZK_REQUIRE_GPU();
  auto rng = cuzk::test::rng(910 + GetParam());
  for (auto f : {root_family::bellman, root_family::snarkjs}) check_transforms(GetParam(), f, rng);
}

TEST_P(NttSizes, InverseUndoesForward) {
  CUZK_REQUIRE_GPU();
  const unsigned log_n = GetParam();
  auto rng = cuzk::test::rng(950 + log_n);
  const auto a = random_vector(rng, std::size_t{1} << log_n);
  const fr_t g = coset_shift(rng);
  for (auto f : {root_family::bellman, root_family::snarkjs}) {
    const auto plain = on_device(a, [&](ff::fr_t* p, cudaStream_t s) {
      forward(p, log_n, f, order::natural, order::bit_reversed, s);
      inverse(p, log_n, f, order::bit_reversed, order::natural, s);
    });
    ASSERT_TRUE(plain == a);
    const auto coset = on_device(a, [&](ff::fr_t* p, cudaStream_t s) {
      coset_forward(p, log_n, f, g, order::bit_reversed, order::natural, s);
      coset_inverse(p, log_n, f, g, order::natural, order::bit_reversed, s);
    });
    ASSERT_TRUE(coset == a);
  }
}

std::vector<unsigned> sizes() {
  std::vector<unsigned> v;
  for (unsigned k = 0; k <= 16; ++k) v.push_back(k);
  v.push_back(20);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Ntt, NttSizes, ::testing::ValuesIn(sizes()),
                         [](const auto& info) { return "2to" + std::to_string(info.param); });

TEST(NttLarge, TransformsMatchPolyAt2To24) {
  CUZK_REQUIRE_GPU();
  auto rng = cuzk::test::rng(940);
  check_transforms(24, root_family::snarkjs, rng);
}

/* compute_h from device a, b, c; also returns a, b, c as they are afterwards */
struct h_run {
  std::vector<ec::scalar_limbs_t> out;
  std::vector<fr_t> a, b, c;
  order ord;
};

h_run device_h(const poly::domain& d, poly::h_convention conv, const std::vector<fr_t>& a,
               const std::vector<fr_t>& b, const std::vector<fr_t>& c) {
  const std::size_t n = d.size();
  stream s;
  device_buffer<fr_t> da(n, "a"), db(n, "b"), dc(n, "c"), scratch(2 * n, "scratch");
  device_buffer<ec::scalar_limbs_t> out(n, "h");
  da.upload(a, s);
  db.upload(b, s);
  dc.upload(c, s);
  const h_params p{conv, d.log_size(), d.family(), h_shift(d, conv), h_z_inv(d, conv)};
  h_run r{std::vector<ec::scalar_limbs_t>(n), std::vector<fr_t>(n), std::vector<fr_t>(n), std::vector<fr_t>(n),
          compute_h(da.data(), db.data(), dc.data(), out.data(), scratch.data(), p, s)};
  out.download(r.out, s);
  da.download(r.a, s);
  db.download(r.b, s);
  dc.download(r.c, s);
  s.sync();
  return r;
}

TEST(NttComputeH, MatchesPolyInBothConventionsWithInputsUnchanged) {
  CUZK_REQUIRE_GPU();
  auto rng = cuzk::test::rng(960);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 5u, 10u, 11u, 12u, 13u, 16u, 20u})
    for (auto f : {root_family::bellman, root_family::snarkjs})
      for (auto conv : {poly::h_convention::odd_coset, poly::h_convention::coefficients}) {
        const poly::domain d(log_n, f);
        const bool coeffs = conv == poly::h_convention::coefficients;
        const std::string what = "2^" + std::to_string(log_n) + (coeffs ? " coefficients" : " odd_coset");
        const auto a = random_vector(rng, d.size()), b = random_vector(rng, d.size());
        auto c = random_vector(rng, d.size());  // Z does not divide AB − C: coefficient n − 1 is not 0
        auto r = device_h(d, conv, a, b, c);
        EXPECT_EQ(r.ord, coeffs ? order::bit_reversed : order::natural);
        ASSERT_TRUE(r.out == expected_h(d, a, b, c, conv)) << what;
        ASSERT_TRUE(r.a == a && r.b == b && r.c == c) << what << ": an input was written";
        if (coeffs && log_n > 0) {
          ASSERT_NE(r.out[d.size() - 1], ec::scalar_limbs_t{}) << what;  // rev(n − 1) = n − 1
        }
        for (std::size_t i = 0; i < d.size(); ++i) c[i] = a[i] * b[i];  // Z | AB − C
        r = device_h(d, conv, a, b, c);
        ASSERT_TRUE(r.out == expected_h(d, a, b, c, conv)) << what << ", Z | AB - C";
        if (coeffs) {
          ASSERT_EQ(r.out[d.size() - 1], ec::scalar_limbs_t{}) << what;
        }
      }
}

}  // namespace
}  // namespace cuzk::cuda::ntt::test
