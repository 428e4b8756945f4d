#include "shm/slot_table.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "pool_guard.hpp"
#include "seed.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

class SlotTable : public ::testing::Test {
 protected:
  pool_guard g{"slots"};
  region r = region::create(g.small()).value();
  slot_table t{r};
  static constexpr std::uint32_t worker = 1, server = 2, other = 3;

  slot_word w(std::uint64_t s) { return *t.word(s); }
  /* Drives slot 0 to `st` (generation 0). */
  void drive(slot_state st) {
    if (st == slot_state::free) return;
    ASSERT_TRUE(t.assign(0, 0, worker, 7, 1, 2));
    if (st == slot_state::assigned) return;
    ASSERT_TRUE(t.fill(0, 0, worker, {10, 16, 5, 0, true}));
    if (st == slot_state::filled) return;
    ASSERT_TRUE(t.start_proving(0, 0, server));
  }
};

TEST_F(SlotTable, ANewSlotIsFreeAtGenerationZeroWithoutOwner) {
  EXPECT_EQ(t.size(), 3u);
  for (std::uint64_t s = 0; s < 3; ++s) EXPECT_EQ(w(s), (slot_word{slot_state::free, no_lease, 0}));
  EXPECT_EQ(t.word(3).error(), error::no_such_slot);
  EXPECT_EQ(t.entry(3).error(), error::no_such_slot);
  EXPECT_EQ(t.payload(3).error(), error::no_such_slot);
}

TEST_F(SlotTable, TheFullCycleBumpsTheGenerationOnceAndStoresTheBindingAndSizes) {
  auto a = t.assign(0, 0, worker, 7, 11, 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, (slot_word{slot_state::assigned, worker, 0}));
  const slot_entry& e = **t.entry(0);
  EXPECT_EQ(e.job, 7u);
  EXPECT_EQ(e.job_generation, 11u);
  EXPECT_EQ(e.partition, 2u);
  auto p = t.payload(0);
  ASSERT_TRUE(p);
  std::memset(p->a.data(), 1, 10 * 32);
  auto f = t.fill(0, 0, worker, {10, 16, 5, 123, true});
  ASSERT_TRUE(f);
  EXPECT_EQ(*f, (slot_word{slot_state::filled, no_lease, 0}));
  EXPECT_EQ(e.n_constraints, 10u);
  EXPECT_EQ(e.domain, 16u);
  EXPECT_EQ(e.n_witness, 5u);
  EXPECT_EQ(e.synth_ns, 123u);
  EXPECT_NE(e.checksum, 0u);
  EXPECT_TRUE(t.verify_checksum(0));
  auto pr = t.start_proving(0, 0, server);
  ASSERT_TRUE(pr);
  EXPECT_EQ(*pr, (slot_word{slot_state::proving, server, 0}));
  auto rel = t.release(0, 0, server);
  ASSERT_TRUE(rel);
  EXPECT_EQ(*rel, (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(w(0), *rel);
}

TEST_F(SlotTable, PayloadSpansAreDomainSizedAndDisjoint) {
  auto p = t.payload(2);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->domain, 4096u);
  EXPECT_EQ(p->witness, 5000u);
  EXPECT_EQ(p->a.size(), 4096u * 32);
  EXPECT_EQ(p->b.data(), p->a.data() + p->a.size());
  EXPECT_EQ(p->c.data(), p->b.data() + p->b.size());
  EXPECT_EQ(p->z.data(), p->c.data() + p->c.size());
  EXPECT_EQ(p->z.size(), 5000u * 32);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p->a.data()) % payload_alignment,
            reinterpret_cast<std::uintptr_t>(r.base()) % payload_alignment);
  auto q = t.payload(1);
  EXPECT_LE(q->z.data() + q->z.size(), p->a.data());
}

TEST_F(SlotTable, ClassLookupPicksTheSmallestThatFits) {
  EXPECT_EQ(t.class_of(0), 0u);
  EXPECT_EQ(t.class_of(1), 0u);
  EXPECT_EQ(t.class_of(2), 1u);
  EXPECT_EQ(t.class_for(1024, 1024), 0u);
  EXPECT_EQ(t.class_for(1024, 1025), 1u);
  EXPECT_EQ(t.class_for(2048, 10), 1u);
  EXPECT_EQ(t.class_for(8192, 1), std::nullopt);
  EXPECT_EQ(t.find_free(0), 0u);
  ASSERT_TRUE(t.assign(0, 0, worker, 0, 0, 0));
  ASSERT_TRUE(t.assign(1, 0, worker, 0, 0, 0));
  EXPECT_EQ(t.find_free(0), 2u);  // falls through to the larger class
  ASSERT_TRUE(t.assign(2, 0, worker, 0, 0, 0));
  EXPECT_EQ(t.find_free(0), std::nullopt);
  EXPECT_EQ(t.find_free(7), std::nullopt);
}

/* Every operation from every state: exactly the legal one succeeds, and a
   refused one leaves the word alone. */
struct op {
  const char* name;
  slot_state legal_from;  // the one state it leaves
  std::function<result<slot_word>(slot_table&, std::uint64_t gen)> run;
};

TEST_F(SlotTable, EveryOperationIsRefusedFromEveryOtherState) {
  const std::vector<op> ops = {
      {"assign", slot_state::free, [](slot_table& t, std::uint64_t g) { return t.assign(0, g, worker, 1, 1, 0); }},
      {"fill", slot_state::assigned,
       [](slot_table& t, std::uint64_t g) {
         return t.fill(0, g, worker, {1, 1, 1, 0, false});
       }},
      {"start_proving", slot_state::filled,
       [](slot_table& t, std::uint64_t g) { return t.start_proving(0, g, server); }},
      {"release", slot_state::proving, [](slot_table& t, std::uint64_t g) { return t.release(0, g, server); }},
      {"discard", slot_state::filled, [](slot_table& t, std::uint64_t g) { return t.discard(0, g); }},
      {"reclaim_assigned", slot_state::assigned,
       [](slot_table& t, std::uint64_t g) { return t.reclaim_assigned(0, g, worker); }},
      {"reclaim_proving", slot_state::proving,
       [](slot_table& t, std::uint64_t g) { return t.reclaim_proving(0, g, server); }},
  };
  for (slot_state from : {slot_state::free, slot_state::assigned, slot_state::filled, slot_state::proving}) {
    for (const op& o : ops) {
      pool_guard g2("illegal");
      region r2 = region::create(g2.small()).value();
      slot_table t2(r2);
      // drive r2's slot 0 to `from`
      if (from != slot_state::free) {
        ASSERT_TRUE(t2.assign(0, 0, worker, 7, 1, 2));
      }
      if (from == slot_state::filled || from == slot_state::proving) {
        ASSERT_TRUE(t2.fill(0, 0, worker, {1, 1, 1, 0, false}));
      }
      if (from == slot_state::proving) {
        ASSERT_TRUE(t2.start_proving(0, 0, server));
      }
      slot_word before = *t2.word(0);
      auto res = o.run(t2, 0);
      if (from == o.legal_from) {
        EXPECT_TRUE(res) << o.name << " from " << int(from);
      } else {
        ASSERT_FALSE(res) << o.name << " from " << int(from);
        EXPECT_EQ(res.error(), error::wrong_state) << o.name << " from " << int(from);
        EXPECT_EQ(*t2.word(0), before);
      }
    }
  }
}

TEST_F(SlotTable, AStaleGenerationIsRefusedByEveryTransition) {
  drive(slot_state::proving);
  ASSERT_TRUE(t.release(0, 0, server));  // now FREE at generation 1
  EXPECT_EQ(t.assign(0, 0, worker, 1, 1, 0).error(), error::stale_generation);
  ASSERT_TRUE(t.assign(0, 1, worker, 1, 1, 0));
  EXPECT_EQ(t.fill(0, 0, worker, {1, 1, 1, 0, false}).error(), error::stale_generation);
  EXPECT_EQ(t.reclaim_assigned(0, 0, worker).error(), error::stale_generation);
  EXPECT_EQ(t.abandon(0, 0, worker).error(), error::stale_generation);
  ASSERT_TRUE(t.fill(0, 1, worker, {1, 1, 1, 0, false}));
  EXPECT_EQ(t.start_proving(0, 0, server).error(), error::stale_generation);
  EXPECT_EQ(t.discard(0, 0).error(), error::stale_generation);
  ASSERT_TRUE(t.start_proving(0, 1, server));
  EXPECT_EQ(t.release(0, 0, server).error(), error::stale_generation);
  EXPECT_EQ(t.reclaim_proving(0, 0, server).error(), error::stale_generation);
  EXPECT_EQ(w(0), (slot_word{slot_state::proving, server, 1}));
}

TEST_F(SlotTable, OnlyTheOwnerMovesItsSlot) {
  drive(slot_state::assigned);
  EXPECT_EQ(t.fill(0, 0, other, {1, 1, 1, 0, false}).error(), error::wrong_owner);
  EXPECT_EQ(t.abandon(0, 0, other).error(), error::wrong_owner);
  EXPECT_EQ(t.reclaim_assigned(0, 0, other).error(), error::wrong_owner);
  ASSERT_TRUE(t.fill(0, 0, worker, {1, 1, 1, 0, false}));
  ASSERT_TRUE(t.start_proving(0, 0, server));
  EXPECT_EQ(t.release(0, 0, other).error(), error::wrong_owner);
  EXPECT_EQ(t.reclaim_proving(0, 0, other).error(), error::wrong_owner);
  EXPECT_EQ(t.abandon(0, 0, other).error(), error::wrong_owner);
  EXPECT_EQ(w(0), (slot_word{slot_state::proving, server, 0}));
  EXPECT_EQ(t.assign(1, 0, no_lease, 1, 1, 0).error(), error::wrong_owner);  // not a lease index
}

TEST_F(SlotTable, AbandonFreesAnAssignedOrProvingSlotWithTheNextGeneration) {
  drive(slot_state::assigned);
  ASSERT_TRUE(t.abandon(0, 0, worker));
  EXPECT_EQ(w(0), (slot_word{slot_state::free, no_lease, 1}));
  ASSERT_TRUE(t.assign(0, 1, worker, 1, 1, 0));
  ASSERT_TRUE(t.fill(0, 1, worker, {1, 1, 1, 0, false}));
  EXPECT_EQ(t.abandon(0, 1, worker).error(), error::wrong_state);  // FILLED is nobody's
  ASSERT_TRUE(t.start_proving(0, 1, server));
  ASSERT_TRUE(t.abandon(0, 1, server));
  EXPECT_EQ(w(0), (slot_word{slot_state::free, no_lease, 2}));
}

TEST_F(SlotTable, ReclaimStepsFreeAssignedAndRefillProving) {
  drive(slot_state::assigned);
  ASSERT_TRUE(t.reclaim_assigned(0, 0, worker));
  EXPECT_EQ(w(0), (slot_word{slot_state::free, no_lease, 1}));
  ASSERT_TRUE(t.assign(0, 1, worker, 1, 1, 0));
  ASSERT_TRUE(t.fill(0, 1, worker, {1, 1, 1, 0, false}));
  ASSERT_TRUE(t.start_proving(0, 1, server));
  ASSERT_TRUE(t.reclaim_proving(0, 1, server));
  EXPECT_EQ(w(0), (slot_word{slot_state::filled, no_lease, 1}));  // same generation: the work is kept
  ASSERT_TRUE(t.discard(0, 1));
  EXPECT_EQ(w(0), (slot_word{slot_state::free, no_lease, 2}));
}

TEST_F(SlotTable, FillRefusesSizesBeyondTheSlot) {
  drive(slot_state::assigned);
  EXPECT_EQ(t.fill(0, 0, worker, {1025, 0, 1, 0, false}).error(), error::too_large);
  EXPECT_EQ(t.fill(0, 0, worker, {10, 2048, 1, 0, false}).error(), error::too_large);
  EXPECT_EQ(t.fill(0, 0, worker, {10, 12, 1, 0, false}).error(), error::too_large);  // not a power of two
  EXPECT_EQ(t.fill(0, 0, worker, {10, 16, 1025, 0, false}).error(), error::too_large);
  EXPECT_EQ(t.fill(0, 0, worker, {10, 8, 1, 0, false}).error(), error::too_large);  // domain < rows
  auto f = t.fill(0, 0, worker, {1024, 0, 1024, 0, false});                         // domain 0: the slot's
  ASSERT_TRUE(f);
  EXPECT_EQ((*t.entry(0))->domain, 1024u);
}

TEST_F(SlotTable, AChangedPayloadByteFailsTheChecksum) {
  drive(slot_state::assigned);
  auto p = *t.payload(0);
  auto rng = test::rng(1);
  for (auto* s : {&p.a, &p.b, &p.c})
    for (std::size_t i = 0; i < 100 * 32; ++i) (*s)[i] = static_cast<std::uint8_t>(rng());
  for (std::size_t i = 0; i < 50 * 32; ++i) p.z[i] = static_cast<std::uint8_t>(rng());
  ASSERT_TRUE(t.fill(0, 0, worker, {100, 128, 50, 0, true}));
  EXPECT_TRUE(t.verify_checksum(0));
  p.c[99 * 32 + 31] ^= 0x80;
  EXPECT_EQ(t.verify_checksum(0).error(), error::checksum_mismatch);
  p.c[99 * 32 + 31] ^= 0x80;
  p.z[50 * 32] ^= 1;  // past the written witness: not covered
  EXPECT_TRUE(t.verify_checksum(0));
  p.z[49 * 32] ^= 1;
  EXPECT_EQ(t.verify_checksum(0).error(), error::checksum_mismatch);
}

TEST_F(SlotTable, NoChecksumRequestedVerifiesTriviallyButOnlyWhenFilled) {
  EXPECT_EQ(t.verify_checksum(0).error(), error::wrong_state);
  drive(slot_state::assigned);
  EXPECT_EQ(t.verify_checksum(0).error(), error::wrong_state);
  ASSERT_TRUE(t.fill(0, 0, worker, {1, 1, 1, 0, false}));
  EXPECT_EQ((*t.entry(0))->checksum, 0u);
  EXPECT_TRUE(t.verify_checksum(0));
}

}  // namespace
}  // namespace cuzk::shm
