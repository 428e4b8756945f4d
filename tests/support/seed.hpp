// The random seed of a test run: CUZK_TEST_SEED when set (to replay a
// failure), otherwise fresh from std::random_device. Printed once per binary.
#pragma once

#include <cstdint>
#include <random>

namespace cuzk::test {

std::uint64_t seed();

/* A generator seeded from seed() and a per-test salt, so tests stay independent. */
std::mt19937_64 rng(std::uint64_t salt = 0);

}  // namespace cuzk::test
