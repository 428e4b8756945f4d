// cuda::ntt against common/poly, bit for bit, over the Fr of both curves: the
// four transforms in every order combination for 2^0 .. 2^16 and 2^20 (2^24
// in NttLarge, filterable, and BN254's largest domain, 2^28), both root
// families; inverse ∘ forward; compute_h in both conventions, with a, b, c
// checked unchanged.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <tbb/parallel_for.h>

#include "cuda/memory.hpp"
#include "cuda/ntt/ntt.hpp"
#include "curves/dispatch.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"
#include "seed.hpp"

namespace cuzk::cuda::ntt::test {
namespace {

using cuzk::test::curve_name;
using poly::root_family;

template <class C>
std::vector<ff::fr<C>> on_device(const std::vector<ff::fr<C>>& in,
                                 const std::function<void(ff::fr<C>*, cudaStream_t)>& fn) {
  stream s;
  device_buffer<ff::fr<C>> d(in.size(), "ntt test data");
  d.upload(in, s);
  fn(d.data(), s);
  std::vector<ff::fr<C>> out(in.size());
  d.download(out, s);
  s.sync();
  return out;
}

const char* order_name(order o) { return o == order::natural ? "natural" : "bit_reversed"; }

template <class C>
void check_transforms(unsigned log_n, root_family f, std::mt19937_64& rng) {
  const poly::basic_domain<C> d(log_n, f);
  const auto a = random_vector<C>(rng, d.size());
  const ff::fr<C> g = coset_shift<C>(rng);
  for (kind k : {kind::forward, kind::inverse, kind::coset_forward, kind::coset_inverse}) {
    const auto want = expected(k, d, a, g);
    for (order in : {order::natural, order::bit_reversed})
      for (order out : {order::natural, order::bit_reversed}) {
        const auto input = in == order::natural ? a : bit_reversed(a, log_n);
        const auto got = on_device<C>(input, [&](ff::fr<C>* p, cudaStream_t s) {
          switch (k) {
            case kind::forward:
              forward<C>(p, log_n, f, in, out, s);
              break;
            case kind::inverse:
              inverse<C>(p, log_n, f, in, out, s);
              break;
            case kind::coset_forward:
              coset_forward<C>(p, log_n, f, g, in, out, s);
              break;
            case kind::coset_inverse:
              coset_inverse<C>(p, log_n, f, g, in, out, s);
              break;
          }
        });
        const auto expect = out == order::natural ? want : bit_reversed(want, log_n);
        ASSERT_TRUE(got == expect) << curve_name<C> << " " << name(k) << " 2^" << log_n << " " << order_name(in)
                                   << " -> " << order_name(out);
      }
  }
}

template <class C>
void check_round_trips(unsigned log_n, std::mt19937_64& rng) {
  const auto a = random_vector<C>(rng, std::size_t{1} << log_n);
  const ff::fr<C> g = coset_shift<C>(rng);
  for (auto f : {root_family::bellman, root_family::snarkjs}) {
    const auto plain = on_device<C>(a, [&](ff::fr<C>* p, cudaStream_t s) {
      forward<C>(p, log_n, f, order::natural, order::bit_reversed, s);
      inverse<C>(p, log_n, f, order::bit_reversed, order::natural, s);
    });
    ASSERT_TRUE(plain == a) << curve_name<C>;
    const auto coset = on_device<C>(a, [&](ff::fr<C>* p, cudaStream_t s) {
      coset_forward<C>(p, log_n, f, g, order::bit_reversed, order::natural, s);
      coset_inverse<C>(p, log_n, f, g, order::natural, order::bit_reversed, s);
    });
    ASSERT_TRUE(coset == a) << curve_name<C>;
  }
}

/* (curve, log n) */
class NttSizes : public ::testing::TestWithParam<std::tuple<curves::curve_id, unsigned>> {};

TEST_P(NttSizes, TransformsMatchPolyInEveryOrder) {
  CUZK_REQUIRE_GPU();
  const auto [curve, log_n] = GetParam();
  auto rng = cuzk::test::rng(910 + log_n);
  curves::visit(curve, [&](auto c) {
    for (auto f : {root_family::bellman, root_family::snarkjs}) check_transforms<decltype(c)>(log_n, f, rng);
  });
}

TEST_P(NttSizes, InverseUndoesForward) {
  CUZK_REQUIRE_GPU();
  const auto [curve, log_n] = GetParam();
  auto rng = cuzk::test::rng(950 + log_n);
  curves::visit(curve, [&](auto c) { check_round_trips<decltype(c)>(log_n, rng); });
}

std::vector<std::tuple<curves::curve_id, unsigned>> sizes() {
  std::vector<std::tuple<curves::curve_id, unsigned>> v;
  for (auto curve : {curves::curve_id::bls12_381, curves::curve_id::bn254}) {
    for (unsigned k = 0; k <= 16; ++k) v.emplace_back(curve, k);
    v.emplace_back(curve, 20);
  }
  return v;
}

/* Bls12_381_2to16, Bn254_2to20, ... */
std::string size_name(const ::testing::TestParamInfo<NttSizes::ParamType>& info) {
  const curves::curve_id curve = std::get<0>(info.param);
  return std::string(curve == curves::curve_id::bn254 ? curve_name<curves::bn254> : curve_name<curves::bls12_381>) +
         "_2to" + std::to_string(std::get<1>(info.param));
}
INSTANTIATE_TEST_SUITE_P(Ntt, NttSizes, ::testing::ValuesIn(sizes()), size_name);

TEST(NttLarge, TransformsMatchPolyAt2To24) {
  CUZK_REQUIRE_GPU();
  auto rng = cuzk::test::rng(940);
  check_transforms<curves::bls12_381>(24, root_family::snarkjs, rng);
}

TEST(NttLarge, Bn254TransformsMatchPolyAt2To24) {
  CUZK_REQUIRE_GPU();
  auto rng = cuzk::test::rng(941);
  check_transforms<curves::bn254>(24, root_family::snarkjs, rng);
}

/* BN254's largest domain, 2^28 (its Fr's two-adicity): a forward transform
   checked at a few outputs A_i = Σ_j a_j ω^(ij) by Horner on the CPU, then
   the inverse back to the input. */
TEST(NttLarge, Bn254LargestDomain2To28) {
  CUZK_REQUIRE_GPU();
  using C = curves::bn254;
  using fr = ff::fr<C>;
  constexpr unsigned log_n = 28;
  ASSERT_EQ(poly::max_log_size_of<C>, log_n);
  auto rng = cuzk::test::rng(942);
  const std::size_t n = std::size_t{1} << log_n;
  const auto a = random_vector<C>(rng, n);
  const fr omega = poly::primitive_root<C>(log_n, root_family::bellman);
  std::vector<fr> out(n);
  const auto back = on_device<C>(a, [&](fr* p, cudaStream_t s) {
    forward<C>(p, log_n, root_family::bellman, order::natural, order::natural, s);
    CUZK_CUDA_OK(cudaMemcpyAsync(out.data(), p, n * sizeof(fr), cudaMemcpyDeviceToHost, s));
    inverse<C>(p, log_n, root_family::bellman, order::natural, order::natural, s);
  });
  /* a(x) = Σ_k x^(k m) a_k(x), a_k(x) = Σ_{j<m} a_{km+j} x^j by Horner, the chunks in parallel */
  const auto evaluate = [&](const fr& x) {
    constexpr std::size_t chunks = 256;
    const std::size_t m = n / chunks;
    std::vector<fr> part(chunks);
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t k) {
      fr acc = fr::zero();
      for (std::size_t j = m; j-- > 0;) acc = acc * x + a[k * m + j];
      part[k] = acc * x.pow(std::uint64_t(k * m));
    });
    fr sum = fr::zero();
    for (const fr& p : part) sum += p;
    return sum;
  };
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, n - 1, std::size_t(rng() % n)})
    EXPECT_TRUE(out[i] == evaluate(omega.pow(std::uint64_t(i)))) << "A_" << i << " = a(ω^" << i << ")";
  EXPECT_TRUE(back == a);
}

/* compute_h from device a, b, c; also returns a, b, c as they are afterwards */
template <class C>
struct h_run {
  std::vector<ec::scalar_limbs_t> out;
  std::vector<ff::fr<C>> a, b, c;
  order ord;
};

template <class C>
h_run<C> device_h(const poly::basic_domain<C>& d, poly::h_convention conv, const std::vector<ff::fr<C>>& a,
                  const std::vector<ff::fr<C>>& b, const std::vector<ff::fr<C>>& c) {
  const std::size_t n = d.size();
  stream s;
  device_buffer<ff::fr<C>> da(n, "a"), db(n, "b"), dc(n, "c"), scratch(2 * n, "scratch");
  device_buffer<ec::scalar_limbs_t> out(n, "h");
  da.upload(a, s);
  db.upload(b, s);
  dc.upload(c, s);
  const basic_h_params<C> p{conv, d.log_size(), d.family(), h_shift(d, conv), h_z_inv(d, conv)};
  h_run<C> r{std::vector<ec::scalar_limbs_t>(n), std::vector<ff::fr<C>>(n), std::vector<ff::fr<C>>(n),
             std::vector<ff::fr<C>>(n), compute_h(da.data(), db.data(), dc.data(), out.data(), scratch.data(), p, s)};
  out.download(r.out, s);
  da.download(r.a, s);
  db.download(r.b, s);
  dc.download(r.c, s);
  s.sync();
  return r;
}

template <class C>
class NttComputeH : public ::testing::Test {};
TYPED_TEST_SUITE(NttComputeH, cuzk::test::curves_under_test, cuzk::test::curve_names);

TYPED_TEST(NttComputeH, MatchesPolyInBothConventionsWithInputsUnchanged) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  auto rng = cuzk::test::rng(960);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 5u, 10u, 11u, 12u, 13u, 16u, 20u})
    for (auto f : {root_family::bellman, root_family::snarkjs})
      for (auto conv : {poly::h_convention::odd_coset, poly::h_convention::coefficients}) {
        const poly::basic_domain<C> d(log_n, f);
        const bool coeffs = conv == poly::h_convention::coefficients;
        const std::string what = "2^" + std::to_string(log_n) + (coeffs ? " coefficients" : " odd_coset");
        const auto a = random_vector<C>(rng, d.size()), b = random_vector<C>(rng, d.size());
        auto c = random_vector<C>(rng, d.size());  // Z does not divide AB − C: coefficient n − 1 is not 0
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
