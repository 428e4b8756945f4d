// Whose job a by-id request names (job_lookup.hpp): job ids are per uid.
#include "requests/job_lookup.hpp"

#include <gtest/gtest.h>

namespace cuzk::server {
namespace {

constexpr uid_t root = 0, alice = 1000, bob = 1001;

TEST(JobLookup, AClientGetsOnlyItsOwnJobWhateverOthersHave) {
  EXPECT_EQ(owner_of_job(alice, false, std::nullopt, {bob, alice}).uid, alice);
  EXPECT_FALSE(owner_of_job(alice, false, std::nullopt, {bob}).uid);
  EXPECT_TRUE(owner_of_job(alice, false, std::nullopt, {bob, root}).ambiguous.empty()) << "reveals other owners";
  EXPECT_FALSE(owner_of_job(alice, false, bob, {bob, alice}).uid) << "a client named another owner";
  EXPECT_EQ(owner_of_job(alice, false, alice, {bob, alice}).uid, alice);
}

TEST(JobLookup, AnOperatorsOwnJobWinsThenTheOnlyOwner) {
  EXPECT_EQ(owner_of_job(root, true, std::nullopt, {alice, root, bob}).uid, root);
  EXPECT_EQ(owner_of_job(root, true, std::nullopt, {bob}).uid, bob);
  EXPECT_FALSE(owner_of_job(root, true, std::nullopt, {}).uid);
  EXPECT_TRUE(owner_of_job(root, true, std::nullopt, {}).ambiguous.empty());
}

TEST(JobLookup, AnOperatorMustNameTheOwnerWhenSeveralUidsHaveTheId) {
  const auto o = owner_of_job(root, true, std::nullopt, {bob, alice, bob});
  EXPECT_FALSE(o.uid);
  EXPECT_EQ(o.ambiguous, (std::vector<uid_t>{alice, bob}));
  EXPECT_EQ(ambiguous_job("j", o.ambiguous), "job j exists for uids 1000, 1001; name the owner with --uid");
  EXPECT_EQ(owner_of_job(root, true, bob, {bob, alice}).uid, bob);
  EXPECT_EQ(owner_of_job(root, true, alice, {bob, alice, root}).uid, alice) << "a named owner beats the operator's own";
  EXPECT_FALSE(owner_of_job(root, true, 42, {bob, alice}).uid);
}

}  // namespace
}  // namespace cuzk::server
