// cuzk trace: the server's GPU timeline (its last minutes of phase spans) as
// Chrome trace-event JSON for Perfetto or chrome://tracing, or as the
// /timeline page. It is the operator's: it comes from the metrics endpoint
// (--metrics, or [metrics] address of --config), not the clients' socket.
#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "config/config_file.hpp"

namespace cuzk::cli {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;

/* [metrics] address of a cuzk TOML file, or "" when it has none */
std::string address_in(const std::string& file) {
  const auto a = config::read(file, {{"metrics", {{"address", {"--metrics"}}}}});
  for (std::size_t i = 0; i + 1 < a.args.size(); ++i)
    if (a.args[i] == "--metrics") return a.args[i + 1];
  return "";
}

struct reply {
  unsigned status;
  std::string body;
};

reply get(const std::string& address, const std::string& target, double timeout_s) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw std::invalid_argument("metrics address \"" + address + "\" is not HOST:PORT (e.g. 127.0.0.1:9464)");
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  asio::io_context io;
  beast::tcp_stream s(io);
  const auto limit = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  beast::error_code ec;
  asio::ip::tcp::resolver resolver(io);
  const auto found = resolver.resolve(host, address.substr(colon + 1), ec);
  if (ec) throw std::runtime_error("cannot resolve " + host + ": " + ec.message());
  s.expires_after(limit);
  s.connect(found, ec);
  if (ec) throw std::runtime_error(ec.message());
  http::request<http::empty_body> rq(http::verb::get, target, 11);
  rq.set(http::field::host, host);
  rq.set(http::field::user_agent, "cuzk trace");
  s.expires_after(limit);
  http::write(s, rq, ec);
  if (ec) throw std::runtime_error("sending the request: " + ec.message());
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t(1) << 30);
  http::read(s, buf, parser, ec);
  if (ec) throw std::runtime_error("reading the reply: " + ec.message());
  return {parser.get().result_int(), parser.get().body()};
}

std::optional<double> duration_seconds(std::string_view v) {
  double x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || !std::isfinite(x) || x <= 0) return std::nullopt;
  const std::string_view unit(end, static_cast<std::size_t>(v.data() + v.size() - end));
  if (unit.empty() || unit == "s") return x;
  if (unit == "m" || unit == "min") return x * 60;
  if (unit == "h") return x * 3600;
  return std::nullopt;
}

}  // namespace

int run_trace(const trace_args& a) {
  std::string address = a.metrics;
  if (address.empty() && !a.config.empty()) {
    try {
      address = address_in(a.config);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuzk trace: %s\n", e.what());
      return client::exit_bad_input;
    }
    if (address.empty()) {
      std::fprintf(stderr,
                   "cuzk trace: %s has no [metrics] address: the server serves no timeline; give --metrics HOST:PORT\n",
                   a.config.c_str());
      return client::exit_bad_input;
    }
  }
  if (address.empty()) {
    std::fprintf(stderr,
                 "cuzk trace: where is the server's metrics endpoint? Give --metrics HOST:PORT (the server's "
                 "--metrics) or --config FILE (its [metrics] address)\n");
    return client::exit_bad_input;
  }
  const auto since = duration_seconds(a.since);
  if (!since) {
    std::fprintf(stderr, "cuzk trace: --since %s: give seconds (300) or a duration (90s, 5m, 1h)\n", a.since.c_str());
    return client::exit_bad_input;
  }
  char target[64];
  std::snprintf(target, sizeof target, "%s?since=%.3f", a.html ? "/timeline" : "/trace.json", *since);
  reply r;
  try {
    r = get(address, target, a.timeout);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "cuzk trace: %s\n", e.what());
    return client::exit_bad_input;
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "cuzk trace: cannot reach the metrics endpoint at %s: %s (is cuzk-gpu-server running with "
                 "--metrics %s, and may this user connect to it?)\n",
                 address.c_str(), e.what(), address.c_str());
    return client::exit_unreachable;
  }
  if (r.status != 200) {
    std::fprintf(stderr, "cuzk trace: %s%s answered %u: %s", address.c_str(), target, r.status, r.body.c_str());
    if (r.status == 404) std::fprintf(stderr, "(a server older than the timeline?)\n");
    return r.status >= 500 ? client::exit_unreachable : client::exit_bad_input;
  }
  if (a.out.empty() || a.out == "-") {
    std::fwrite(r.body.data(), 1, r.body.size(), stdout);
    return client::exit_ok;
  }
  std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
  f.write(r.body.data(), static_cast<std::streamsize>(r.body.size()));
  f.close();
  if (!f) {
    std::fprintf(stderr, "cuzk trace: cannot write %s\n", a.out.c_str());
    return client::exit_bad_input;
  }
  std::fprintf(stderr, "cuzk trace: wrote %s (%zu bytes, the last %g s)\n", a.out.c_str(), r.body.size(), *since);
  return client::exit_ok;
}

}  // namespace cuzk::cli
