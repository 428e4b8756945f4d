// Random valid messages of every kind, for round trips (unit tests) and for
// the fuzzer's seed corpus. Text fields mix ASCII with multi-byte UTF-8 so the
// decoder's UTF-8 check sees what real names and errors look like.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <variant>

#include "proto/limits.hpp"
#include "proto/message.hpp"

namespace cuzk::test {

class message_gen {
 public:
  explicit message_gen(std::mt19937_64& rng) : rng_(rng) {}

  static constexpr std::size_t kinds = std::variant_size_v<proto::body>;

  proto::message any() { return of_kind(below(kinds)); }

  proto::message of_kind(std::size_t kind) {
    proto::message m;
    m.request_id = rng_();
    m.body = body(kind);
    return m;
  }

  std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_); }
  bool coin() { return below(2) == 1; }
  std::optional<std::uint32_t> owner() {
    return coin() ? std::optional(static_cast<std::uint32_t>(below(1ULL << 32))) : std::nullopt;
  }

  /* 1..max visible ASCII bytes other than '/'. */
  std::string job_id(std::size_t max = proto::max_job_id_bytes) {
    std::string s(1 + below(max), 'x');
    for (auto& c : s) do
        c = static_cast<char>(0x21 + below(0x7e - 0x21 + 1));
      while (c == '/');
    return s;
  }
  std::string token(std::size_t max) {
    std::string s(1 + below(max), 'x');
    for (auto& c : s) c = static_cast<char>(0x21 + below(0x7e - 0x21 + 1));
    return s;
  }
  /* Up to max bytes of UTF-8 text: ASCII, é, 中, 𝔽; newlines when multiline. */
  std::string text(std::size_t max, bool multiline = false) {
    static constexpr std::array<const char*, 4> wide{"\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9d\x94\xbd", " "};
    std::string s;
    const std::size_t want = below(max + 1);
    while (s.size() < want) {
      std::string piece;
      switch (below(8)) {
        case 0:
          piece = wide[below(wide.size())];
          break;
        case 1:
          piece = multiline ? "\n" : "-";
          break;
        default:
          piece = std::string(1, static_cast<char>(0x20 + below(0x7f - 0x20)));
      }
      if (s.size() + piece.size() > want) break;
      s += piece;
    }
    return s;
  }
  std::string path() {
    std::string p = "/" + text(60);
    return p;
  }
  std::string decimal() {
    std::string s(1 + below(proto::max_decimal_digits), '0');
    for (auto& c : s) c = static_cast<char>('0' + below(10));
    return s;
  }

 private:
  template <class E>
  E pick(unsigned lo, unsigned hi) {
    return static_cast<E>(lo + below(hi - lo + 1));
  }
  std::uint32_t partitions() { return 1 + static_cast<std::uint32_t>(below(proto::max_partitions)); }

  proto::job_status job_status() {
    proto::job_status s;
    s.job_id = job_id();
    s.state = pick<proto::job_state>(1, 4);
    s.error = text(200, true);
    s.submitted_ns = rng_();
    s.finished_ns = rng_();
    s.priority = pick<proto::priority>(0, 3);
    s.client = text(proto::max_client_bytes);
    s.curve = pick<curves::curve_id>(1, 2);
    s.partitions.resize(partitions());
    for (auto& p : s.partitions) p = partition_status();
    return s;
  }

  proto::partition_status partition_status() {
    proto::partition_status p{pick<proto::partition_state>(1, 6),
                              rng_(),
                              rng_(),
                              rng_(),
                              rng_(),
                              static_cast<std::uint32_t>(rng_()),
                              static_cast<std::uint32_t>(rng_()),
                              std::nullopt,
                              static_cast<std::int32_t>(below(proto::max_gpus + 1)) - 1,
                              rng_()};
    if (coin())
      p.timings = proto::partition_timings{rng_(), rng_(), rng_(), rng_(), rng_(), rng_(),
                                           rng_(), rng_(), rng_(), rng_(), rng_()};
    return p;
  }

 public:
  proto::gpu_status gpu_status() {
    proto::gpu_status g{static_cast<std::int32_t>(below(proto::max_gpus)),
                        text(proto::max_gpu_name_bytes),
                        static_cast<std::uint32_t>(below(9)),
                        static_cast<double>(below(1001)) / 1000,
                        rng_(),
                        0,
                        rng_(),
                        {},
                        rng_(),
                        rng_(),
                        rng_(),
                        {},
                        0,
                        0,
                        {}};
    g.mem_free = below(g.mem_total == 0 ? 1 : g.mem_total);
    for (std::uint64_t i = below(5); i > 0; --i) g.resident_keys.push_back(token(proto::max_key_id_bytes));
    for (std::size_t i = below(g.resident_keys.size() + 1); i > 0; --i)
      g.resident_shifts.push_back(text(proto::max_shifts_text_bytes));
    g.shifted_bytes = below(g.resident_bytes == 0 ? 1 : g.resident_bytes);
    return g;
  }

 private:
  proto::body body(std::size_t kind) {
    using namespace proto;
    switch (kind) {
      case 0: {
        submit m;
        m.job_id = job_id();
        m.client = text(max_client_bytes);
        m.priority = pick<priority>(0, 3);
        m.partitions = partitions();
        m.zkey = path();
        if (coin()) {
          m.work = native_work{token(40), "{\"x\": \"" + text(100) + "\"}"};
        } else {
          circom_work c{coin() ? path() : std::string(upload_prefix) + job_id(), std::nullopt};
          if (coin()) c.r1cs = coin() ? path() : std::string(upload_prefix) + job_id();
          m.work = c;
        }
        if (coin()) m.blinding = proto::blinding{decimal(), decimal()};
        return m;
      }
      case 1: {
        status_request m{coin() ? std::optional(job_id()) : std::nullopt};
        if (m.job_id) m.owner_uid = owner();
        return m;
      }
      case 2:
        return fetch{job_id(), owner()};
      case 3:
        return wait_request{job_id(), static_cast<std::uint32_t>(below(max_wait_ms + 1)), owner()};
      case 4:
        return accepted{job_id(), coin(), pick<job_state>(1, 4)};
      case 5:
        return job_status();
      case 6: {
        proof_reply m{job_id(), {}};
        m.partitions.resize(partitions());
        for (auto& p : m.partitions) {
          p = {"{\"pi_a\": [\"" + decimal() + "\"]}\n", "[\"" + decimal() + "\"]", std::nullopt};
          if (coin()) p.phases = partition_status();
        }
        return m;
      }
      case 7: {
        status_reply m;
        for (std::uint64_t i = below(4); i > 0; --i) m.jobs.push_back(job_status());
        for (std::uint64_t i = below(8); i > 0; --i)
          m.slots.push_back({rng_(), static_cast<std::uint32_t>(below(8)), pick<slot_state>(1, 4), rng_(),
                             static_cast<std::uint32_t>(below(no_owner + 1))});
        for (std::uint64_t i = below(4); i > 0; --i)
          m.workers.push_back({static_cast<std::uint32_t>(below(max_lease + 1)), text(max_worker_name_bytes),
                               static_cast<std::int32_t>(rng_()), pick<worker_state>(1, 3), rng_()});
        m.jobs_omitted = static_cast<std::uint32_t>(below(1000));
        for (std::uint64_t i = below(4); i > 0; --i) m.gpus.push_back(gpu_status());
        m.hung_timeout_ms = static_cast<std::uint32_t>(rng_());
        return m;
      }
      case 8:
        return error_reply{pick<error_code>(1, 12), text(300, true), rng_()};
      case 9:
        return ready{static_cast<std::uint32_t>(below(max_lease + 1)), 1 + static_cast<std::int32_t>(below(1 << 22)),
                     token(max_worker_name_bytes), std::uint64_t{1} << below(64)};
      case 10:
        return assign{rng_(),
                      rng_(),
                      rng_(),
                      rng_(),
                      static_cast<std::uint32_t>(below(max_partitions)),
                      token(max_key_id_bytes),
                      "{\"circuit\": \"" + text(500) + "\"}"};
      case 11:
        return filled{rng_(), rng_(), rng_(), rng_(), rng_()};
      case 12:
        return synth_failed{rng_(), rng_(), "constraint " + text(300, true)};
      case 13:
        return heartbeat{static_cast<std::uint32_t>(below(max_lease + 1)), rng_(), rng_()};
      case 14: {
        upload m{job_id(), pick<upload_kind>(1, 2), 1 + below(max_upload_bytes), 0, {}, {}};
        m.offset = below(m.size);
        m.data = std::string(1 + below(std::min<std::uint64_t>(m.size - m.offset, 4096)), static_cast<char>(rng_()));
        m.zkey = m.kind == upload_kind::wtns && m.offset == 0 ? std::string(32, 'a') : (coin() ? path() : "");
        return m;
      }
      case 15:
        return upload_ack{job_id(), rng_()};
      case 17:
        return abort_synthesis{rng_(), rng_()};
      case 18:
        return synth_aborted{rng_(), rng_()};
      case 19:
        return cancel_request{job_id(), owner()};
      default:
        return bye{static_cast<std::uint32_t>(below(max_lease + 1))};
    }
  }

  std::mt19937_64& rng_;
};

}  // namespace cuzk::test
