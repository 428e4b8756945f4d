#include "gateway/listener.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>
#include <thread>

#include "gateway/deadlines.hpp"
#include "gateway/gateway_metrics.hpp"
#include "gateway/tls_context.hpp"

namespace cuzk::gateway {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using std::chrono::milliseconds;

namespace {

void count_expiry(const char* phase) { metrics().refused(std::string(phase) + "_timeout"); }

milliseconds ms(std::chrono::seconds s) { return s; }

/* The token a request carries: Authorization: Bearer T, or x-api-key: T (zk-email's prover's header). */
std::string token_of(const http::request_header<>& h) {
  const auto auth = h[http::field::authorization];
  if (auth.starts_with("Bearer ")) return std::string(auth.substr(7));
  return std::string(h["x-api-key"]);
}

}  // namespace

struct listener::impl {
  impl(const listener_options& lo, const api_context& c, net::api_key_store& k) : o(lo), ctx(c), keys(k) {}
  listener_options o;
  api_context ctx;
  net::api_key_store& keys;
  asio::io_context io;
  std::optional<asio::ssl::context> tls;
  tcp::acceptor acceptor{io};
  deadlines dl{count_expiry};

  /* Writes a reply under the write deadline; whether the connection may serve another request. */
  template <class Stream>
  bool send(Stream& s, deadlines::armed& d, http_reply out, bool keep, std::chrono::steady_clock::time_point t0) {
    http::response<http::string_body> res{static_cast<http::status>(out.status), 11};
    if (!out.content_type.empty()) res.set(http::field::content_type, out.content_type);
    res.set(http::field::server, "cuzk-gateway");
    for (const auto& [k, v] : out.headers) res.set(k, v);
    res.keep_alive(keep);
    res.body() = std::move(out.body);
    res.prepare_payload();
    metrics().request(out.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    d.arm(ms(ctx.bounds.write_timeout), "write");
    beast::error_code ec;
    http::write(s, res, ec);
    d.disarm();
    return !ec && keep;
  }

  template <class Stream>
  void serve(Stream& s, deadlines::armed& d, bool loopback_peer) {
    const auto& b = ctx.bounds;
    beast::flat_buffer buf;
    std::string conn_key;
    key_limits::lease conn_lease;
    for (bool first = true;; first = false) {
      beast::error_code ec;
      if (buf.size() == 0) {  // waiting for a request: the idle deadline (the header's for the first)
        d.arm(ms(first ? b.header_timeout : b.idle_timeout), first ? "header" : "idle");
        const auto n = s.read_some(buf.prepare(4096), ec);
        if (ec) return;
        buf.commit(n);
      }
      d.arm(ms(b.header_timeout), "header");
      http::request_parser<http::empty_body> hp;
      hp.header_limit(static_cast<std::uint32_t>(b.header_bytes));
      hp.body_limit(std::numeric_limits<std::uint64_t>::max());  // a Content-Length is checked below, against the bound
                                                                 // of its route
      http::read_header(s, buf, hp, ec);
      const auto t0 = std::chrono::steady_clock::now();
      if (d.expired()) return;
      auto refuse = [&](unsigned status, const std::string& bound, const std::string& detail) {
        metrics().refused(bound);
        send(s, d, problem(status, status == 429 ? "too many requests" : "bad request", detail), false, t0);
      };
      if (ec) {
        if (ec == http::error::header_limit)
          return refuse(431, "header_bytes",
                        "the request's header is over " + std::to_string(b.header_bytes) + " bytes");
        metrics().refused("malformed");
        send(s, d, problem(400, "bad request", "the request could not be read: " + ec.message()), false, t0);
        return;
      }
      const auto& h = hp.get();
      if (std::distance(h.begin(), h.end()) > static_cast<std::ptrdiff_t>(b.header_fields))
        return refuse(431, "header_fields",
                      "the request has over " + std::to_string(b.header_fields) + " header fields");
      http_request r;
      r.method = std::string(h.method_string());
      r.target = std::string(h.target());
      r.content_type = std::string(h[http::field::content_type]);
      r.idempotency_key = std::string(h["Idempotency-Key"]);
      r.loopback_peer = loopback_peer;
      if (hp.content_length()) r.content_length = *hp.content_length();
      const bool keep = h.keep_alive();
      const bool streamed = streams_body(r.method, r.target, r.content_type);
      if (!streamed && r.content_length && *r.content_length > b.body_bytes)
        return refuse(413, "body_bytes", "a request body is at most " + std::to_string(b.body_bytes) + " bytes");

      auto read_string_body = [&]() -> bool {
        http::request_parser<http::string_body> bp{std::move(hp)};
        bp.body_limit(b.body_bytes);
        d.arm(ms(b.body_timeout), "body");
        http::read(s, buf, bp, ec);
        d.disarm();
        if (ec == http::error::body_limit) {
          refuse(413, "body_bytes", "a request body is at most " + std::to_string(b.body_bytes) + " bytes");
          return false;
        }
        if (ec) {
          if (!d.expired()) refuse(400, "malformed", "the request's body could not be read: " + ec.message());
          return false;
        }
        r.body = std::move(bp.get().body());
        return true;
      };

      if (auto open = handle_open(r)) {
        if (!read_string_body()) return;
        if (!send(s, d, std::move(*open), keep, t0)) return;
        continue;
      }
      r.token = token_of(h);
      std::optional<std::string> key;
      if (!r.token.empty())
        key = keys.name_of(r.token);
      else if (o.anonymous_key)
        key = *o.anonymous_key;
      if (!key) {
        metrics().refused("api_key");
        send(s, d,
             problem(
                 401, "unauthorized",
                 r.token.empty() ? "an API key is needed: Authorization: Bearer TOKEN" : "unknown or revoked API key"),
             false, t0);
        return;
      }
      r.key = *key;
      if (r.key != conn_key) {
        conn_lease = {};
        conn_lease = ctx.limits.take(key_limits::kind::connection, r.key, b.connections_per_key);
        conn_key = r.key;
        if (!conn_lease)
          return refuse(429, "connections_per_key",
                        "key " + r.key + " holds " + std::to_string(b.connections_per_key) + " connections already");
      }
      if (!ctx.limits.admit(r.key)) {
        metrics().refused("requests_per_second");
        auto out = problem(429, "too many requests",
                           "key " + r.key + " is over " + std::to_string(b.requests_per_second) + " requests a second");
        out.headers.emplace_back("Retry-After", "1");
        send(s, d, std::move(out), false, t0);
        return;
      }
      if (beast::iequals(h[http::field::expect], "100-continue")) {
        http::response<http::empty_body> cont{http::status::continue_, 11};
        d.arm(ms(b.write_timeout), "write");
        http::write(s, cont, ec);
        if (ec) return;
      }
      if (streamed) {
        http::request_parser<http::buffer_body> bp{std::move(hp)};
        bp.body_limit(b.witness_bytes);
        r.read_body = [&](std::span<char> out) -> std::size_t {
          if (bp.is_done()) return 0;
          bp.get().body().data = out.data();
          bp.get().body().size = out.size();
          d.arm(ms(b.body_timeout), "body");
          beast::error_code rec;
          http::read(s, buf, bp, rec);
          d.disarm();
          if (rec == http::error::need_buffer) rec = {};
          if (rec == http::error::body_limit)
            throw std::length_error("a witness is at most " + std::to_string(b.witness_bytes) + " bytes");
          if (rec) throw std::runtime_error("the witness could not be read: " + rec.message());
          return out.size() - bp.get().body().size;
        };
        auto out = handle(ctx, std::move(r));
        const bool whole = bp.is_done();  // a reply before the body's end closes the connection
        if (!send(s, d, std::move(out), keep && whole, t0)) return;
        continue;
      }
      if (!read_string_body()) return;
      if (!send(s, d, handle(ctx, std::move(r)), keep, t0)) return;
    }
  }
};

listener::listener(const listener_options& o, const api_context& ctx, net::api_key_store& keys)
    : p_(std::make_unique<impl>(o, ctx, keys)) {
  const auto colon = o.listen.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--listen expects HOST:PORT");
  auto host = o.listen.substr(0, colon);
  if (host.size() > 1 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto address = asio::ip::make_address(host);
  const auto port = static_cast<unsigned short>(std::stoul(o.listen.substr(colon + 1)));
  if (o.tls_cert.empty() != o.tls_key.empty()) throw std::invalid_argument("--tls-cert and --tls-key go together");
  if (!o.tls_cert.empty()) {
    p_->tls.emplace(make_tls_context(o.tls_cert, o.tls_key));
  } else {
    if (!address.is_loopback())
      throw std::invalid_argument("--listen " + o.listen +
                                  " is not a loopback address: it needs --tls-cert and --tls-key");
    if (!o.insecure_loopback)
      throw std::invalid_argument("plaintext HTTP needs --insecure-loopback (or give --tls-cert and --tls-key)");
  }
  p_->acceptor.open(address.is_v6() ? tcp::v6() : tcp::v4());
  p_->acceptor.set_option(asio::socket_base::reuse_address(true));
  p_->acceptor.bind({address, port});
  p_->acceptor.listen(1024);
}

listener::~listener() = default;

std::string listener::url() const {
  const auto ep = p_->acceptor.local_endpoint();
  const auto a = ep.address().to_string();
  return std::string(p_->tls ? "https" : "http") + "://" + (ep.address().is_v6() ? "[" + a + "]" : a) + ":" +
         std::to_string(ep.port());
}

void listener::run() {
  auto& p = *p_;
  const auto& b = p.ctx.bounds;
  for (;;) {
    tcp::socket sock(p.io);
    beast::error_code ec;
    p.acceptor.accept(sock, ec);
    if (ec) {  // out of descriptors, a connection reset before it was taken: the gateway goes on
      spdlog::warn("accept: {}", ec.message());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto peer = sock.remote_endpoint(ec);
    if (ec) continue;
    if (metrics().connections.load() >= static_cast<long>(b.connections)) {
      metrics().refused("connections");
      continue;  // closed by its destructor
    }
    auto addr_lease =
        p.ctx.limits.take(key_limits::kind::address, peer.address().to_string(), b.connections_per_address);
    if (!addr_lease) {
      metrics().refused("connections_per_address");
      continue;
    }
    ++metrics().connections;
    std::thread([&p, s = std::move(sock), lease = std::move(addr_lease),
                 loopback = peer.address().is_loopback()]() mutable {
      try {
        deadlines::armed d(p.dl, s.native_handle());
        if (p.tls) {
          asio::ssl::stream<tcp::socket> ts(std::move(s), *p.tls);
          d.arm(ms(p.ctx.bounds.handshake_timeout), "handshake");
          beast::error_code ec;
          ts.handshake(asio::ssl::stream_base::server, ec);
          if (ec) {
            metrics().tls_handshake_failed();
          } else {
            p.serve(ts, d, loopback);
          }
        } else {
          p.serve(s, d, loopback);
        }
      } catch (const std::exception& e) {
        spdlog::warn("connection: {}", e.what());
      }
      --metrics().connections;
    }).detach();
  }
}

}  // namespace cuzk::gateway
