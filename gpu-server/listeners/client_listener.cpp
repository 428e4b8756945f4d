#include "listeners/client_listener.hpp"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <deque>
#include <stdexcept>

#include "listeners/accept_loop.hpp"
#include "listeners/session_table.hpp"
#include "listeners/zmtp_connection.hpp"
#include "net/endpoint.hpp"

namespace cuzk::server {

namespace asio = boost::asio;
using local = asio::local::stream_protocol;

struct client_listener::impl
    : session_table<uid_t, zmtp_connection<local::socket, client_listener::impl>, client_counters>,
      std::enable_shared_from_this<impl> {
  using session = zmtp_connection<local::socket, impl>;
  impl(asio::io_context& io, client_limits l, message_handler m, close_handler c)
      : session_table({l.total, l.per_uid}, {"", "connections", "client", &client_counters::refused_per_uid},
                      [this, c = std::move(c)](std::uint64_t id) {
                        creds.erase(id);
                        if (c) c(id);
                      }),
        io(io),
        acceptor(io),
        retry(io),
        limits(l),
        on_message(std::move(m)) {}
  asio::io_context& io;
  local::acceptor acceptor;
  asio::steady_timer retry;
  client_limits limits;
  message_handler on_message;
  std::map<std::uint64_t, net::peer_credentials> creds;
  bool accepting = true;

  void accept() { accept_next(shared_from_this(), "client connection"); }
  void admit(local::socket s);
  std::string describe(const session& s) const { return "uid " + std::to_string(creds.at(s.id).uid); }
  void message(session& s, std::vector<std::vector<std::uint8_t>> frames) {
    on_message(s.id, creds.at(s.id), std::move(frames));
  }
  std::optional<std::string> authorize(session&, const net::curve_key&) { return std::nullopt; }  // NULL: never asked
};

void client_listener::impl::admit(local::socket s) {
  ucred uc{};
  socklen_t len = sizeof uc;
  if (::getsockopt(s.native_handle(), SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0) return;  // closed with s
  const net::peer_credentials cred{uc.uid, uc.gid, uc.pid};
  auto sess = session_table::admit(cred.uid, "a client connection of uid " + std::to_string(cred.uid), [&](auto id) {
    creds.emplace(id, cred);
    return std::make_shared<session>(shared_from_this(), std::move(s), id, nullptr);
  });
  if (sess) sess->start();
}

namespace {

local::endpoint endpoint_of(const std::string& endpoint) {
  constexpr std::string_view scheme = "ipc://";
  if (!endpoint.starts_with(scheme))
    throw std::runtime_error("the client endpoint " + endpoint +
                             " is not ipc://: the server serves only local clients, whose credentials it can read");
  const std::string path = endpoint.substr(scheme.size());
  if (path.empty()) throw std::runtime_error("the client endpoint " + endpoint + " names no socket");
  if (path.front() == '@') return local::endpoint(std::string(1, '\0') + path.substr(1));  // abstract
  return local::endpoint(path);
}

}  // namespace

client_listener::client_listener(asio::io_context& io, const std::string& endpoint, mode_t mode,
                                 std::optional<gid_t> group, client_limits limits, message_handler on_message,
                                 close_handler on_close)
    : impl_(std::make_shared<impl>(io, limits, std::move(on_message), std::move(on_close))) {
  const auto ep = endpoint_of(endpoint);
  auto& a = impl_->acceptor;
  net::bind_socket_file(endpoint, mode, group, [&] {
    a.open(ep.protocol());
    boost::system::error_code ec;
    a.bind(ep, ec);
    if (ec) throw std::runtime_error("cannot bind " + endpoint + ": " + ec.message());
  });
  a.listen(asio::socket_base::max_listen_connections);
}

client_listener::~client_listener() {
  impl_->accepting = false;
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  impl_->close_all();
}

void client_listener::start() { impl_->accept(); }

void client_listener::stop_accepting() {
  impl_->accepting = false;
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  impl_->retry.cancel();
}

bool client_listener::send(std::uint64_t conn, std::span<const std::uint8_t> bytes) {
  auto s = impl_->find(conn);  // held: send may close it (and erase it from the table)
  return s && s->send(bytes);
}

void client_listener::close(std::uint64_t conn) {
  if (auto s = impl_->find(conn)) s->close();
}

std::size_t client_listener::connections() const { return impl_->sessions.size(); }

std::uint32_t client_listener::connections_of(uid_t uid) const { return impl_->connections_of(uid); }

const client_counters& client_listener::counters() const { return impl_->counters; }
const client_limits& client_listener::limits() const { return impl_->limits; }

std::uint32_t fit_descriptor_limit(std::uint32_t wanted, std::uint32_t reserve) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return wanted;
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max == RLIM_INFINITY ? 1048576 : rl.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  const std::uint64_t soft = rl.rlim_cur == RLIM_INFINITY ? 1048576 : rl.rlim_cur;
  const std::uint64_t fit = soft > 2ull * reserve ? (soft - reserve) / 2 : 1;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(wanted, fit));
}

}  // namespace cuzk::server
