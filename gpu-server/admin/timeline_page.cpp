// /timeline: the spans as one HTML page with an inline SVG, readable with no
// script: a lane a worker, a row a phase, idle time left blank.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <tuple>

#include "admin/timeline.hpp"

namespace cuzk::server {

namespace {

constexpr int page_width = 1280, label_width = 240, plot_x0 = label_width, plot_width = page_width - plot_x0 - 30;
constexpr int lanes_y0 = 112, lane_gap = 6, row_height = 6, lane_pad = 3, synth_lane_height = 24;

constexpr std::array<const char*, n_span_kinds> colours = {
    "#b8cde6",  // proof: the whole prove call, behind its phases
    "#9467bd",  // synthesis
    "#c5b0d5",  // witness (over its synthesis)
    "#17becf",  // split
    "#e6a000",  // h2d
    "#2ca02c",  // ntt
    "#1f77b4",  // msm_a
    "#3d5afe",  // msm_b_g1
    "#00897b",  // msm_l
    "#d62728",  // msm_b_g2
    "#8c564b",  // msm_h
    "#ff69b4",  // batch_add (over its MSM)
    "#bcbd22",  // assemble
};

static_assert(colours.back() != nullptr, "a colour for every span kind");

/* The proof first, a witness generation over its synthesis, then the phases in their order, each batch addition
   last (over its MSM). */
constexpr std::array<span_kind, n_span_kinds> draw_order = [] {
  std::array<span_kind, n_span_kinds> o{span_kind::proof, span_kind::synthesis, span_kind::witness};
  std::size_t n = 3;
  for (std::size_t p = 0; p < groth16::n_phases; ++p)
    if (p != std::size_t(groth16::phase::batch_add)) o[n++] = kind_of(groth16::phase(p));
  o[n] = kind_of(groth16::phase::batch_add);
  return o;
}();

/* The row of a prover lane's track: batch_add has none (it is drawn on its MSM's). */
int row_of(std::uint8_t track) {
  const int phase = int(track) - 1;
  const int batch = int(groth16::phase::batch_add);
  return phase < batch ? phase : phase - 1;
}
constexpr int prover_rows = int(groth16::n_phases) - 1;
constexpr int prover_lane_height = 2 * lane_pad + prover_rows * row_height;

std::string xml_escaped(std::string_view s) {
  std::string out;
  for (const unsigned char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c < 0x20 ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

std::string utc(std::uint64_t ns) {
  const std::time_t t = static_cast<std::time_t>(ns / 1'000'000'000ULL);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

/* 1, 2 or 5 times a power of ten: about ten ticks over the window */
double tick_step(double seconds) {
  const double raw = std::max(seconds, 1e-6) / 10;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string tick_label(double s, double step) {
  char buf[32];
  if (step < 0.1)
    std::snprintf(buf, sizeof buf, "%g ms", std::round(s * 1e6) / 1e3);
  else if (step < 60)
    std::snprintf(buf, sizeof buf, "%g s", std::round(s * 1e3) / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%g min", std::round(s / 60 * 1e3) / 1e3);
  return buf;
}

struct bar {
  double x0, x1;
  std::uint64_t start_ns, end_ns;
  std::size_t n;
  const timeline_span* first;
};

}  // namespace

std::string timeline_page(const timeline& t, std::uint64_t from_ns, std::uint64_t to_ns) {
  if (to_ns <= from_ns) to_ns = from_ns + 1'000'000'000ULL;
  const auto spans = t.since(from_ns);
  const auto lanes = lanes_in(t, spans);
  const double window_s = double(to_ns - from_ns) / 1e9;
  auto x_of = [&](std::uint64_t ns) {
    const double x = double(std::int64_t(ns - from_ns)) / double(to_ns - from_ns) * plot_width;
    return plot_x0 + std::clamp(x, 0.0, double(plot_width));
  };

  int height = lanes_y0;
  for (auto l : lanes)
    height += (timeline::is_synth_lane(t.lane_name(l)) ? synth_lane_height : prover_lane_height) + lane_gap;
  height += lanes.empty() ? 40 : 20;

  std::string svg;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                "font-family=\"sans-serif\" font-size=\"12\" data-x0=\"%d\" data-width=\"%d\" data-from-ns=\"%llu\" "
                "data-to-ns=\"%llu\">\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
                page_width, height, page_width, height, plot_x0, plot_width, (unsigned long long)from_ns,
                (unsigned long long)to_ns, page_width, height);
  svg += buf;
  std::snprintf(buf, sizeof buf,
                "<text x=\"10\" y=\"24\" font-size=\"18\" font-weight=\"bold\" fill=\"#222\">cuzk GPU timeline</text>\n"
                "<text x=\"10\" y=\"44\" fill=\"#444\">%s to %s (%.1f s), %zu spans on %zu lanes; blank: idle</text>\n",
                utc(from_ns).c_str(), utc(to_ns).c_str(), window_s, spans.size(), lanes.size());
  svg += buf;

  /* the legend: a swatch a kind */
  int lx = 10;
  for (std::size_t k = 0; k < n_span_kinds; ++k) {
    const auto nm = name(static_cast<span_kind>(k));
    std::snprintf(buf, sizeof buf,
                  "<g class=\"legend\" data-kind=\"%.*s\" data-color=\"%s\"><rect x=\"%d\" y=\"58\" width=\"14\" "
                  "height=\"14\" fill=\"%s\" shape-rendering=\"crispEdges\"/><text x=\"%d\" y=\"70\" fill=\"#333\">%.*s"
                  "</text></g>\n",
                  int(nm.size()), nm.data(), colours[k], lx, colours[k], lx + 18, int(nm.size()), nm.data());
    svg += buf;
    lx += 32 + int(nm.size()) * 8;
  }

  /* the time axis, with a light line through the lanes at each tick */
  const double step = tick_step(window_s);
  std::snprintf(buf, sizeof buf, "<line x1=\"%d\" y1=\"104\" x2=\"%d\" y2=\"104\" stroke=\"#888\"/>\n", plot_x0,
                plot_x0 + plot_width);
  svg += buf;
  for (int i = 0; i * step <= window_s + 1e-9 && i < 1000; ++i) {
    const double s = i * step;
    const double x = plot_x0 + s / window_s * plot_width;
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"100\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"96\" "
                  "text-anchor=\"middle\" fill=\"#555\" font-size=\"11\">%s</text>\n",
                  x, x, height - 10, x, tick_label(s, step).c_str());
    svg += buf;
  }
  if (lanes.empty()) {
    std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\" fill=\"#444\">no spans in this window</text>\n", plot_x0,
                  lanes_y0 + 16);
    svg += buf;
  }

  /* one pass over the spans: by (lane, track, kind), each group by start */
  std::map<std::tuple<std::uint32_t, std::uint8_t, span_kind>, std::vector<const timeline_span*>> groups;
  for (const auto& s : spans) groups[{s.lane, s.track, s.kind}].push_back(&s);
  for (auto& [k, v] : groups) std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->start_ns < b->start_ns; });
  auto group = [&](std::uint32_t lane, std::uint8_t tr, span_kind k) -> const std::vector<const timeline_span*>* {
    const auto it = groups.find({lane, tr, k});
    return it == groups.end() ? nullptr : &it->second;
  };

  int y = lanes_y0;
  for (const auto lane : lanes) {
    const auto& lane_name = t.lane_name(lane);
    const bool synth = timeline::is_synth_lane(lane_name);
    const int h = synth ? synth_lane_height : prover_lane_height;

    /* busy: the union of the lane's proofs (or syntheses) inside the window */
    std::vector<std::pair<std::uint64_t, std::uint64_t>> top;
    if (const auto* g = group(lane, 0, synth ? span_kind::synthesis : span_kind::proof))
      for (const auto* s : *g) top.emplace_back(std::max(s->start_ns, from_ns), std::min(s->end_ns, to_ns));
    std::uint64_t busy = 0, reach = from_ns;
    for (auto [a, b] : top) {
      a = std::max(a, reach);
      if (b > a) busy += b - a, reach = b;
    }
    std::snprintf(buf, sizeof buf,
                  "<g class=\"lane\" data-lane=\"%s\" data-y0=\"%d\" data-y1=\"%d\">\n<rect x=\"%d\" y=\"%d\" "
                  "width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n<text x=\"10\" y=\"%d\" fill=\"#222\">%s</text>"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#666\" font-size=\"11\">busy %.0f%%</text>\n",
                  xml_escaped(lane_name).c_str(), y, y + h, plot_x0, y, plot_width, h, y + std::min(h / 2 + 5, 18),
                  xml_escaped(lane_name).c_str(), plot_x0 - 8, y + std::min(h / 2 + 5, 18),
                  100.0 * double(busy) / double(to_ns - from_ns));
    svg += buf;

    /* bars: per track and kind (the proof first, each batch addition after its MSM), spans closer than half a
       pixel merged into one bar so that the page stays small over long windows */
    for (std::uint8_t tr = 0; tr < n_tracks; ++tr) {
      for (const span_kind k : draw_order) {
        const auto* mine = group(lane, tr, k);
        if (!mine) continue;
        std::vector<bar> bars;
        for (const auto* s : *mine) {
          const double x0 = x_of(s->start_ns), x1 = std::max(x_of(s->end_ns), x0 + 1);
          if (!bars.empty() && x0 <= bars.back().x1 + 0.5) {
            auto& b = bars.back();
            b.x1 = std::max(b.x1, x1), b.end_ns = std::max(b.end_ns, s->end_ns), ++b.n;
          } else {
            bars.push_back({x0, x1, s->start_ns, s->end_ns, 1, s});
          }
        }
        const int by = tr == 0 ? y + (synth ? 3 : 0) : y + lane_pad + row_of(tr) * row_height;
        const int bh = tr == 0 ? h - (synth ? 6 : 0) : row_height - 1;
        const auto nm = name(k);
        for (const auto& b : bars) {
          const double ms = double(b.end_ns - b.start_ns) / 1e6;
          if (b.n == 1)
            std::snprintf(buf, sizeof buf, "%.*s job %llu partition %u: %.3f ms", int(nm.size()), nm.data(),
                          (unsigned long long)b.first->job, b.first->partition, ms);
          else
            std::snprintf(buf, sizeof buf, "%zu %.*s spans over %.3f ms", b.n, int(nm.size()), nm.data(), ms);
          const std::string tip = buf;
          std::snprintf(
              buf, sizeof buf,
              "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" shape-rendering=\"crispEdges\">"
              "<title>%s</title></rect>\n",
              b.x0, by, b.x1 - b.x0, bh, colours[static_cast<std::size_t>(k)], tip.c_str());
          svg += buf;
        }
      }
    }
    svg += "</g>\n";
    y += h + lane_gap;
  }
  svg += "</svg>\n";

  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cuzk GPU timeline</title>"
         "<style>body{margin:0;background:#fff}svg{display:block}</style></head>\n<body>\n" +
         svg + "</body></html>\n";
}

}  // namespace cuzk::server
