// Device faults as the server sees them, and their injection for tests:
//   CUZK_CUDA_FAULT=transient:N[:COUNT]  proofs N .. N+COUNT−1 (1-based, per
//   CUZK_CUDA_FAULT=sticky:N             process; COUNT 1) fail as a CUDA error
//                                        would: transient (the partition is
//                                        retried) or sticky (the context is
//                                        lost: the server exits with
//                                        exit_device_lost)
// The CUDA backend raises an injected fault as a cuda::error, so it takes the
// path a real one takes; the CPU backend raises device_fault directly, so the
// server's recovery is tested without a GPU too.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cuzk::server {

/* sysexits' EX_TEMPFAIL: a sticky device error ended the server; systemd restarts it (Restart=on-failure)
   and the slot it was proving is FILLED again, so the next server proves it without a new synthesis. */
inline constexpr int exit_device_lost = 75;

/* A proof the device could not compute. sticky: the device context is unusable until the process ends. */
class device_fault : public std::runtime_error {
 public:
  device_fault(const std::string& what, bool sticky) : std::runtime_error(what), sticky_(sticky) {}
  bool sticky() const noexcept { return sticky_; }

 private:
  bool sticky_;
};

class fault_plan {
 public:
  enum class kind { none, transient, sticky };

  /* "transient:N[:COUNT]" or "sticky:N"; nullopt when malformed. */
  static std::optional<fault_plan> parse(std::string_view text);
  /* CUZK_CUDA_FAULT, or none; std::invalid_argument with a sentence when it is malformed. */
  static fault_plan from_env();

  /* Counts one proof; the fault it must raise (kind::none: none). */
  kind next();
  bool armed() const { return what_ != kind::none; }

 private:
  kind what_ = kind::none;
  std::uint64_t first_ = 0, count_ = 0, seen_ = 0;
};

class prover_backend;
/* backend, raising device_fault where the plan says (for backends that have no device of their own) */
std::unique_ptr<prover_backend> with_faults(std::unique_ptr<prover_backend> backend, fault_plan plan);

}  // namespace cuzk::server
