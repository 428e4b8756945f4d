#include "backend/fault.hpp"

#include <charconv>
#include <cstdlib>
#include <variant>

#include "backend/backend.hpp"

namespace cuzk::server {

namespace {

std::optional<std::uint64_t> number(std::string_view s) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v == 0) return std::nullopt;
  return v;
}

class faulty_backend final : public prover_backend {
 public:
  faulty_backend(std::unique_ptr<prover_backend> inner, fault_plan plan) : inner_(std::move(inner)), plan_(plan) {}
  std::string_view name() const override { return inner_->name(); }
  void attach_pool(std::span<const std::span<std::uint8_t>> chunks) override { inner_->attach_pool(chunks); }

 private:
  any_output prove_any(any_input in) override {
    switch (plan_.next()) {
      case fault_plan::kind::transient:
        throw device_fault("injected transient device error (CUZK_CUDA_FAULT)", false);
      case fault_plan::kind::sticky:
        throw device_fault("injected sticky device error (CUZK_CUDA_FAULT)", true);
      case fault_plan::kind::none:
        break;
    }
    return std::visit([&](auto* p) -> any_output { return inner_->prove(*p); }, in);
  }

  std::unique_ptr<prover_backend> inner_;
  fault_plan plan_;
};

}  // namespace

std::optional<fault_plan> fault_plan::parse(std::string_view text) {
  fault_plan f;
  const auto c1 = text.find(':');
  if (c1 == std::string_view::npos) return std::nullopt;
  const auto what = text.substr(0, c1);
  auto rest = text.substr(c1 + 1);
  std::string_view count = "1";
  if (const auto c2 = rest.find(':'); c2 != std::string_view::npos) {
    count = rest.substr(c2 + 1);
    rest = rest.substr(0, c2);
  }
  if (what == "transient")
    f.what_ = kind::transient;
  else if (what == "sticky" && count == "1")
    f.what_ = kind::sticky;
  else
    return std::nullopt;
  const auto n = number(rest), k = number(count);
  if (!n || !k) return std::nullopt;
  f.first_ = *n;
  f.count_ = *k;
  return f;
}

fault_plan fault_plan::from_env() {
  const char* v = std::getenv("CUZK_CUDA_FAULT");
  if (!v || !*v) return {};
  auto f = parse(v);
  if (!f) throw std::invalid_argument("CUZK_CUDA_FAULT must be transient:N[:COUNT] or sticky:N (N, COUNT >= 1)");
  return *f;
}

fault_plan::kind fault_plan::next() {
  if (what_ == kind::none) return kind::none;
  ++seen_;
  return seen_ >= first_ && seen_ - first_ < count_ ? what_ : kind::none;
}

std::unique_ptr<prover_backend> with_faults(std::unique_ptr<prover_backend> backend, fault_plan plan) {
  if (!plan.armed()) return backend;
  return std::make_unique<faulty_backend>(std::move(backend), plan);
}

}  // namespace cuzk::server
