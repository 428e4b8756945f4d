#include "admin/metrics_http.hpp"

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <algorithm>
#include <cstring>
#include <list>
#include <map>
#include <optional>
#include <stdexcept>

namespace cuzk::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

class http_session;

struct metrics_http::impl : std::enable_shared_from_this<metrics_http::impl> {
  impl(asio::io_context& io, handler h) : acceptor(io), retry(io), on_get(std::move(h)) {}
  ~impl() {
    if (diag >= 0) ::close(diag);
  }
  tcp::acceptor acceptor;
  asio::steady_timer retry;  // after a failed accept (EMFILE): the listening socket stays readable
  handler on_get;
  bool closed = false;
  std::list<http_session*> live;  // oldest first
  std::map<std::string, std::size_t> per_peer;
  counts n;
  int diag = -1;  // NETLINK_SOCK_DIAG, opened on first use
  std::uint32_t diag_seq = 0;

  void accept();
  void admit(tcp::socket s);
  /* Who is at the other end: ("uid N", N) for a local peer, ("address A", nullopt) otherwise. */
  std::pair<std::string, std::optional<std::uint32_t>> peer_of(const tcp::socket& s);
  std::optional<std::uint32_t> peer_uid(const tcp::endpoint& local, const tcp::endpoint& remote);
  void evict_oldest_of(const std::string& peer);
};

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  http_session(tcp::socket s, std::shared_ptr<metrics_http::impl> owner, std::string peer,
               std::optional<std::uint32_t> uid)
      : stream_(std::move(s)), owner_(std::move(owner)), peer_(std::move(peer)), uid_(uid) {
    pos_ = owner_->live.insert(owner_->live.end(), this);
    ++owner_->per_peer[peer_];
  }
  ~http_session() { forget(); }
  const std::string& peer() const { return peer_; }

  void read() {
    parser_.body_limit(4096);
    parser_.header_limit(8192);
    stream_.expires_after(metrics_http::read_timeout);  // for the whole request: trickled bytes do not extend it
    http::async_read(stream_, buffer_, parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec == beast::error::timeout) ++self->owner_->n.timed_out;
      if (ec) return self->close();
      self->answer();
    });
  }

  void close() {
    forget();
    stream_.close();
  }

 private:
  void answer() {
    const auto& rq = parser_.get();
    http_reply r;
    if (rq.method() != http::verb::get) {
      r = {405, "text/plain; charset=utf-8", "only GET is served\n"};
    } else {
      const std::string_view target(rq.target().data(), rq.target().size());
      const auto q = target.find('?');
      const auto path = target.substr(0, q),
                 query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
      try {
        r = owner_->closed ? http_reply{503, "text/plain; charset=utf-8", "stopping\n"}
                           : owner_->on_get(path, query, uid_);
      } catch (const std::exception& e) {
        r = {500, "text/plain; charset=utf-8", std::string(e.what()) + "\n"};
      }
    }
    res_.version(rq.version());
    res_.result(static_cast<http::status>(r.status));
    res_.set(http::field::server, "cuzk-gpu-server");
    res_.set(http::field::content_type, r.content_type);
    if (r.status == 405) res_.set(http::field::allow, "GET");
    res_.keep_alive(false);
    res_.body() = std::move(r.body);
    res_.prepare_payload();
    stream_.expires_after(metrics_http::write_timeout);
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec == beast::error::timeout) ++self->owner_->n.timed_out;
      self->close();
    });
  }

  /* Leaves the bounds' accounting (once): closed, evicted or destroyed. */
  void forget() {
    if (!counted_) return;
    counted_ = false;
    owner_->live.erase(pos_);
    if (auto it = owner_->per_peer.find(peer_); it != owner_->per_peer.end() && --it->second == 0)
      owner_->per_peer.erase(it);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request_parser<http::string_body> parser_;
  http::response<http::string_body> res_;
  std::shared_ptr<metrics_http::impl> owner_;
  std::string peer_;
  std::optional<std::uint32_t> uid_;
  std::list<http_session*>::iterator pos_;
  bool counted_ = true;
};

void metrics_http::impl::accept() {
  acceptor.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket s) {
    if (ec == asio::error::operation_aborted || self->closed) return;
    if (ec) {  // out of descriptors, most likely: try again shortly rather than spin the loop
      self->retry.expires_after(std::chrono::milliseconds(100));
      self->retry.async_wait([self](beast::error_code e) {
        if (!e && !self->closed) self->accept();
      });
      return;
    }
    self->admit(std::move(s));
    self->accept();
  });
}

void metrics_http::impl::admit(tcp::socket s) {
  auto [peer, uid] = peer_of(s);
  if (auto it = per_peer.find(peer); it != per_peer.end() && it->second >= max_per_peer) {
    evict_oldest_of(peer);
  } else if (live.size() >= max_connections) {
    const auto busiest = std::max_element(per_peer.begin(), per_peer.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    evict_oldest_of(busiest->first);
  }
  std::make_shared<http_session>(std::move(s), shared_from_this(), std::move(peer), uid)->read();
}

void metrics_http::impl::evict_oldest_of(const std::string& peer) {
  for (auto* c : live)
    if (c->peer() == peer) {
      c->close();
      ++n.evicted;
      return;
    }
}

/* Who is at the other end: "uid N" when the kernel knows the peer socket (a local
   connection; on loopback every peer is 127.0.0.1), else "address A". */
std::pair<std::string, std::optional<std::uint32_t>> metrics_http::impl::peer_of(const tcp::socket& s) {
  beast::error_code ec1, ec2;
  const auto local = s.local_endpoint(ec1), remote = s.remote_endpoint(ec2);
  if (ec1 || ec2) return {"unknown", std::nullopt};
  if (const auto uid = peer_uid(local, remote)) return {"uid " + std::to_string(*uid), uid};
  return {"address " + remote.address().to_string(), std::nullopt};
}

/* The owner of the socket whose local end is `remote` and remote end `local`: one
   exact lookup in the kernel's TCP table (sock_diag, as ss does), two system calls
   with no file I/O; /proc/net/tcp would mean reading and scanning every socket of the
   host on each accept. nullopt when the peer is not on this host. */
std::optional<std::uint32_t> metrics_http::impl::peer_uid(const tcp::endpoint& local, const tcp::endpoint& remote) {
  if (diag < 0) diag = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_SOCK_DIAG);
  if (diag < 0) return std::nullopt;
  auto plain = [](const asio::ip::address& a) {
    return a.is_v6() && a.to_v6().is_v4_mapped()
               ? asio::ip::address(asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6()))
               : a;
  };
  const auto src = plain(remote.address()), dst = plain(local.address());
  if (src.is_v4() != dst.is_v4()) return std::nullopt;
  struct {
    nlmsghdr h;
    inet_diag_req_v2 r;
  } rq{};
  rq.h.nlmsg_len = sizeof rq;
  rq.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  rq.h.nlmsg_flags = NLM_F_REQUEST;
  rq.h.nlmsg_seq = ++diag_seq;
  rq.r.sdiag_family = src.is_v4() ? AF_INET : AF_INET6;
  rq.r.sdiag_protocol = IPPROTO_TCP;
  rq.r.idiag_states = ~0u;
  rq.r.id.idiag_sport = htons(remote.port());
  rq.r.id.idiag_dport = htons(local.port());
  rq.r.id.idiag_cookie[0] = rq.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
  if (src.is_v4()) {
    const auto a = src.to_v4().to_bytes(), b = dst.to_v4().to_bytes();
    std::memcpy(rq.r.id.idiag_src, a.data(), a.size());
    std::memcpy(rq.r.id.idiag_dst, b.data(), b.size());
  } else {
    const auto a = src.to_v6().to_bytes(), b = dst.to_v6().to_bytes();
    std::memcpy(rq.r.id.idiag_src, a.data(), a.size());
    std::memcpy(rq.r.id.idiag_dst, b.data(), b.size());
  }
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (::sendto(diag, &rq, sizeof rq, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) != sizeof rq)
    return std::nullopt;
  // The kernel answers within sendto: the reply is queued already (and a late one is skipped by its seq).
  alignas(nlmsghdr) char buf[4096];
  for (;;) {
    const auto got = ::recv(diag, buf, sizeof buf, MSG_DONTWAIT);
    if (got <= 0) return std::nullopt;
    auto len = static_cast<unsigned>(got);
    for (auto* h = reinterpret_cast<nlmsghdr*>(buf); NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
      if (h->nlmsg_seq != rq.h.nlmsg_seq) continue;
      if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY || h->nlmsg_len < NLMSG_LENGTH(sizeof(inet_diag_msg)))
        return std::nullopt;
      const auto* m = static_cast<const inet_diag_msg*>(NLMSG_DATA(h));
      if (m->id.idiag_sport != rq.r.id.idiag_sport || m->id.idiag_dport != rq.r.id.idiag_dport) return std::nullopt;
      return m->idiag_uid;
    }
  }
}

namespace {

std::pair<std::string, std::string> split_address(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size())
    throw std::runtime_error("metrics address \"" + address + "\" is not HOST:PORT (e.g. 127.0.0.1:9464)");
  std::string host = address.substr(0, colon), port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty() || port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoul(port) > 65535)
    throw std::runtime_error("metrics address \"" + address + "\" is not HOST:PORT (e.g. 127.0.0.1:9464)");
  return {host, port};
}

}  // namespace

metrics_http::metrics_http(asio::io_context& io, const std::string& address, handler h)
    : impl_(std::make_shared<impl>(io, std::move(h))) {
  const auto [host, port] = split_address(address);
  beast::error_code ec;
  tcp::resolver resolver(io);
  const auto found = resolver.resolve(host, port, tcp::resolver::numeric_service, ec);
  if (ec || found.empty())
    throw std::runtime_error("metrics address " + address + ": cannot resolve " + host + ": " + ec.message());
  const tcp::endpoint ep = *found.begin();
  auto& a = impl_->acceptor;
  if (a.open(ep.protocol(), ec); !ec) a.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(ep, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot serve metrics on " + address + ": " + ec.message() +
                             (ec == asio::error::address_in_use ? " (another process uses the port; pick another "
                                                                  "with --metrics or [metrics] address)"
                                                                : ""));
}

metrics_http::~metrics_http() {
  impl_->closed = true;
  beast::error_code ec;
  impl_->acceptor.close(ec);
  impl_->retry.cancel();
  while (!impl_->live.empty()) impl_->live.front()->close();  // the handler answers no more
}

void metrics_http::start() { impl_->accept(); }

tcp::endpoint metrics_http::local_endpoint() const { return impl_->acceptor.local_endpoint(); }

metrics_http::counts metrics_http::stats() const {
  auto c = impl_->n;
  c.open = impl_->live.size();
  return c;
}

}  // namespace cuzk::server
