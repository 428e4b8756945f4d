#include "gateway/webhooks.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <charconv>
#include <thread>

#include "client/lib/errors.hpp"
#include "gateway/deadlines.hpp"
#include "gateway/gateway_metrics.hpp"
#include "gateway/proof_json.hpp"
#include "net/api_keys.hpp"

namespace cuzk::gateway {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

struct url_parts {
  bool tls = false;
  std::string host;
  unsigned short port = 0;
  std::string target;
};

std::variant<url_parts, std::string> parse_url(const std::string& url) {
  url_parts u;
  std::string_view rest = url;
  if (rest.starts_with("https://")) {
    u.tls = true;
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return std::string("a callback URL is http:// or https://");
  }
  if (url.size() > 2048) return std::string("a callback URL is at most 2048 characters");
  for (char ch : url)
    if (static_cast<unsigned char>(ch) <= 0x20 || ch == 0x7f)
      return std::string("a callback URL has no spaces or controls");
  const auto slash = rest.find('/');
  const auto authority = rest.substr(0, slash);
  u.target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.find('@') != std::string_view::npos) return std::string("a callback URL carries no user name");
  std::string_view host = authority, port;
  if (authority.starts_with("[")) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::string("a callback URL's [address] is not closed");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::string("a callback URL's port follows a colon");
      port = authority.substr(close + 2);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::string("a callback URL names a host");
  u.host = std::string(host);
  unsigned p = u.tls ? 443 : 80;
  if (!port.empty()) {
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc() || end != port.data() + port.size() || p == 0 || p > 65535)
      return std::string("a callback URL's port is 1 to 65535");
  }
  u.port = static_cast<unsigned short>(p);
  return u;
}

struct cidr {
  asio::ip::address net;
  int bits;
  bool contains(const asio::ip::address& a) const {
    if (a.is_v4() != net.is_v4()) return false;
    auto bytes = [](const asio::ip::address& x) {
      std::array<unsigned char, 16> b{};
      if (x.is_v4()) {
        const auto v = x.to_v4().to_bytes();
        std::copy(v.begin(), v.end(), b.begin());
      } else {
        b = x.to_v6().to_bytes();
      }
      return b;
    };
    const auto x = bytes(a), n = bytes(net);
    for (int i = 0; i < bits; ++i)
      if (((x[i / 8] ^ n[i / 8]) >> (7 - i % 8)) & 1) return false;
    return true;
  }
};

std::optional<cidr> parse_cidr(const std::string& s) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) return std::nullopt;
  boost::system::error_code ec;
  const auto a = asio::ip::make_address(s.substr(0, slash), ec);
  if (ec) return std::nullopt;
  int bits = -1;
  const auto [end, e2] = std::from_chars(s.data() + slash + 1, s.data() + s.size(), bits);
  if (e2 != std::errc() || end != s.data() + s.size() || bits < 0 || bits > (a.is_v4() ? 32 : 128)) return std::nullopt;
  return cidr{a, bits};
}

/* Not a private, loopback, link-local, shared, multicast or unspecified address. */
bool is_public(asio::ip::address a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  static const std::vector<cidr> reserved = [] {
    std::vector<cidr> r;
    for (const char* s : {"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
                          "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/3", "::/127", "fc00::/7",
                          "fe80::/10", "ff00::/8", "64:ff9b::/96", "2001:db8::/32"})
      r.push_back(*parse_cidr(s));
    return r;
  }();
  return std::ranges::none_of(reserved, [&](const cidr& c) { return c.contains(a); });
}

enum class outcome { delivered, retry, give_up };

void count_expiry(const char*) { metrics().refused("webhook_timeout"); }

deadlines& delivery_deadlines() {
  static deadlines d(count_expiry);
  return d;
}

}  // namespace

std::string webhook_signature_with(const std::string& secret_hex, const std::string& body, long long t) {
  unsigned char secret[crypto_hash_sha256_BYTES], mac[crypto_auth_hmacsha256_BYTES];
  std::size_t n = 0;
  if (sodium_hex2bin(secret, sizeof secret, secret_hex.data(), secret_hex.size(), nullptr, &n, nullptr) != 0 ||
      n != sizeof secret)
    throw std::invalid_argument("a webhook secret is 64 hex digits");
  const std::string message = std::to_string(t) + "." + body;
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, secret, sizeof secret);
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(message.data()), message.size());
  crypto_auth_hmacsha256_final(&st, mac);
  char hex[2 * sizeof mac + 1];
  sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
  return "t=" + std::to_string(t) + ",v1=" + hex;
}

std::string webhook_signature(const std::string& token, const std::string& body, long long t) {
  return webhook_signature_with(net::api_key_hash(token).substr(7), body, t);  // "sha256:" + hex
}

webhooks::webhooks(webhook_options o, node_endpoints& nodes, key_limits& limits, unsigned per_key)
    : o_(std::move(o)), nodes_(nodes), limits_(limits), per_key_(per_key), store_(o_.state_dir) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
  for (const auto& a : o_.allow)
    if (a.find('/') != std::string::npos && !parse_cidr(a))
      throw std::invalid_argument("--webhook-allow " + a + ": not a host name or an address range (10.0.0.0/8)");
  for (auto& w : store_.load()) {  // each its place, even past the key's bound: they were taken before
    auto r = limits_.take(key_limits::kind::webhook, w.key, ~0u);
    deliver(std::move(r), std::move(w));
    ++resumed_;
  }
}

std::optional<std::string> webhooks::check_url(const std::string& url) const {
  const auto parsed = parse_url(url);
  if (const auto* why = std::get_if<std::string>(&parsed)) return *why;
  const auto& u = std::get<url_parts>(parsed);
  boost::system::error_code ec;
  const auto literal = asio::ip::make_address(u.host, ec);
  for (const auto& a : o_.allow) {
    if (const auto c = parse_cidr(a)) {
      if (!ec && c->contains(literal)) return std::nullopt;
    } else if (ec && beast::iequals(a, u.host)) {
      return std::nullopt;
    }
  }
  return "the callback host " + u.host + " is not on this gateway's allow-list";
}

namespace {

/* One attempt: resolve (every address allowed), connect to a checked address, POST, read the answer. */
outcome deliver_once(const webhook_options& o, const url_parts& u, const std::string& body, const std::string& sig,
                     const std::string& job_id, std::string& why) {
  asio::io_context io;
  boost::system::error_code ec;
  tcp::resolver resolver(io);
  const auto found = resolver.resolve(u.host, std::to_string(u.port), ec);
  if (ec) {
    why = "cannot resolve " + u.host + ": " + ec.message();
    return outcome::retry;
  }
  std::vector<cidr> ranges;
  for (const auto& a : o.allow)
    if (auto c = parse_cidr(a)) ranges.push_back(*c);
  std::optional<tcp::endpoint> to;
  for (const auto& e : found) {
    const auto a = e.endpoint().address();
    if (!is_public(a) && std::ranges::none_of(ranges, [&](const cidr& c) { return c.contains(a); })) {
      why = u.host + " resolves to " + a.to_string() + ", a private address not on the allow-list";
      return outcome::give_up;
    }
    if (!to) to = e.endpoint();
  }
  if (!to) {
    why = "no address for " + u.host;
    return outcome::retry;
  }
  tcp::socket sock(io);
  sock.open(to->protocol());
  const timeval tv{static_cast<time_t>(o.timeout.count()), 0};
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);  // bounds connect() too
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  deadlines::armed d(delivery_deadlines(), sock.native_handle());
  d.arm(o.timeout, "webhook");
  sock.connect(*to, ec);
  if (ec) {
    why = "connect to " + to->address().to_string() + ": " + ec.message();
    return outcome::retry;
  }
  http::request<http::string_body> req{http::verb::post, u.target, 11};
  req.set(http::field::host, u.host);
  req.set(http::field::user_agent, "cuzk-gateway");
  req.set(http::field::content_type, "application/json");
  req.set("Cuzk-Signature", sig);
  req.set("Cuzk-Webhook-Id", job_id);
  req.body() = body;
  req.prepare_payload();
  http::response_parser<http::string_body> res;
  res.body_limit(64 * 1024);
  beast::flat_buffer buf;
  auto exchange = [&](auto& stream) {
    http::write(stream, req, ec);
    if (!ec) http::read(stream, buf, res, ec);
  };
  if (u.tls) {
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_default_verify_paths();
    if (!o.ca_file.empty()) ctx.load_verify_file(o.ca_file.string());
    ctx.set_verify_mode(asio::ssl::verify_peer);
    asio::ssl::stream<tcp::socket&> ts(sock, ctx);
    SSL_set_tlsext_host_name(ts.native_handle(), u.host.c_str());
    ts.set_verify_callback(asio::ssl::host_name_verification(u.host));
    ts.handshake(asio::ssl::stream_base::client, ec);
    if (!ec) exchange(ts);
  } else {
    exchange(sock);
  }
  if (ec) {
    why = (d.expired() ? "no answer within " + std::to_string(o.timeout.count()) + " s" : ec.message());
    return outcome::retry;
  }
  const unsigned status = res.get().result_int();
  if (status >= 200 && status < 300) return outcome::delivered;
  why = "the receiver answered " + std::to_string(status);
  if (status >= 300 && status < 400) {
    why += " (redirects are not followed)";
    return outcome::give_up;
  }
  return outcome::retry;
}

}  // namespace

void webhooks::watch(reservation r, const std::string& key, const std::string& token, const std::string& job_id,
                     const std::string& url) {
  pending_webhook w{key, job_id, url, net::api_key_hash(token).substr(7)};
  store_.save(w);
  deliver(std::move(r), std::move(w));
}

void webhooks::deliver(reservation r, pending_webhook w) {
  std::thread([this, r = std::move(r), w = std::move(w)]() mutable {
    const auto& [key, job_id, url, secret] = w;
    const auto parsed = parse_url(url);
    if (!std::holds_alternative<url_parts>(parsed)) {
      spdlog::warn("webhook for {} of {}: {}", job_id, key, std::get<std::string>(parsed));
      store_.remove(w);
      return;
    }
    const auto u = std::get<url_parts>(parsed);
    client::options co;
    co.on_behalf_of = key;
    co.attempts = 1;
    std::string body;
    for (;;) {  // until the job ends
      try {
        const auto o = nodes_.call(co, [&](client::connection& c) { return c.wait(job_id, std::chrono::seconds(60)); });
        if (finished(o)) {
          body = outcome_json(o).dump();
          break;
        }
      } catch (const client::server_error& e) {
        if (e.code() == proto::error_code::unknown_job) {
          spdlog::warn("webhook for {} of {}: {}", job_id, key, e.what());
          metrics().webhook("failed");
          store_.remove(w);
          return;
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
      } catch (const std::exception&) {  // the node is away: wait for it
        std::this_thread::sleep_for(std::chrono::seconds(1));
      }
    }
    auto delay = o_.backoff;
    for (int attempt = 1;; ++attempt) {
      std::string why;
      outcome out = outcome::retry;
      try {
        const auto t =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        out = deliver_once(o_, u, body, webhook_signature_with(secret, body, t), job_id, why);
      } catch (const std::exception& e) {
        why = e.what();
      }
      if (out == outcome::delivered) {
        metrics().webhook("delivered");
        spdlog::info("webhook for {} of {} delivered to {} (attempt {})", job_id, key, u.host, attempt);
        store_.remove(w);
        return;
      }
      if (out == outcome::give_up || attempt >= o_.attempts) {
        metrics().webhook(out == outcome::give_up ? "refused" : "failed");
        spdlog::warn("webhook for {} of {} to {}: {}; given up after {} attempt(s)", job_id, key, u.host, why, attempt);
        store_.remove(w);
        return;
      }
      metrics().webhook("retried");
      spdlog::info("webhook for {} of {} to {}: {}; again in {} ms", job_id, key, u.host, why, delay.count());
      std::this_thread::sleep_for(delay);
      delay *= 2;
    }
  }).detach();
}

}  // namespace cuzk::gateway
