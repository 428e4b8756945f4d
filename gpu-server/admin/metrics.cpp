#include "admin/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace cuzk::server::metrics {

histogram::histogram(std::span<const double> bounds)
    : bounds_(bounds.begin(), bounds.end()), buckets_(bounds.size() + 1, 0) {}

void histogram::observe(double v) noexcept {
  if (!(v >= 0)) return;
  const auto i = std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin();  // first bound >= v
  ++buckets_[static_cast<std::size_t>(i)];
  ++count_;
  sum_ += v;
}

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::trunc(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // the shortest text that reads back as v
  return std::string(buf, r.ptr);
}

std::string escape_label(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

void writer::family(std::string_view name, std::string_view type, std::string_view help) {
  out_ += "# HELP ";
  out_ += name;
  out_ += ' ';
  for (char c : help) out_ += c == '\n' ? "\\n" : c == '\\' ? "\\\\" : std::string(1, c);
  out_ += "\n# TYPE ";
  out_ += name;
  out_ += ' ';
  out_ += type;
  out_ += '\n';
}

void writer::line(std::string_view name, const labels& l, double value) {
  out_ += name;
  if (!l.empty()) {
    out_ += '{';
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (i) out_ += ',';
      out_ += l[i].first + "=\"" + escape_label(l[i].second) + '"';
    }
    out_ += '}';
  }
  out_ += ' ';
  out_ += format_value(value);
  out_ += '\n';
}

void writer::sample(std::string_view name, const labels& l, double value) { line(name, l, value); }

void writer::sample(std::string_view name, const labels& l, const histogram& h) {
  const std::string n(name);
  std::uint64_t cumulative = 0;
  auto with_le = l;
  with_le.emplace_back("le", "");
  for (std::size_t i = 0; i < h.buckets().size(); ++i) {
    cumulative += h.buckets()[i];
    with_le.back().second = i < h.bounds().size() ? format_value(h.bounds()[i]) : "+Inf";
    line(n + "_bucket", with_le, static_cast<double>(cumulative));
  }
  line(n + "_sum", l, h.sum());
  line(n + "_count", l, static_cast<double>(h.count()));
}

}  // namespace cuzk::server::metrics
