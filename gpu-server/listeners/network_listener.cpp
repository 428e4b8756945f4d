#include "listeners/network_listener.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <spdlog/spdlog.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <optional>
#include <stdexcept>

#include "listeners/accept_loop.hpp"
#include "listeners/authorized_clients.hpp"
#include "listeners/session_table.hpp"
#include "listeners/zmtp_connection.hpp"
#include "net/curve_keys.hpp"
#include "net/curve_server.hpp"

namespace cuzk::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr const char* loopback_name = "loopback";  // every plaintext client's name

struct host_port {
  std::string host, port;
};

/* tcp://HOST:PORT: HOST an address, [v6], a name or * (any); PORT a number or * (any). */
host_port parse_endpoint(const std::string& endpoint) {
  if (endpoint.rfind("tcp://", 0) != 0)
    throw std::runtime_error("the network endpoint " + endpoint + " is not tcp://ADDR:PORT");
  const std::string rest = endpoint.substr(6);
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("the network endpoint " + endpoint + " names no port");
  std::string host = rest.substr(0, colon), port = rest.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (port == "*") port = "0";
  return {host, port};
}

tcp::endpoint resolve(asio::io_context& io, const std::string& endpoint) {
  const auto hp = parse_endpoint(endpoint);
  if (hp.host == "*" || hp.host.empty())
    return tcp::endpoint(tcp::v4(), static_cast<unsigned short>(std::stoul(hp.port)));
  tcp::resolver r(io);
  boost::system::error_code ec;
  const auto results = r.resolve(hp.host, hp.port, tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || results.empty())
    throw std::runtime_error("the network endpoint " + endpoint + ": " + (ec ? ec.message() : "no address"));
  return results.begin()->endpoint();
}

/* The address connections are counted by: an IPv4-mapped IPv6 address as the IPv4 one. */
std::string address_of(const tcp::endpoint& ep) {
  auto a = ep.address();
  if (a.is_v6() && a.to_v6().is_v4_mapped()) a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  return a.to_string();
}

}  // namespace

struct network_listener::impl
    : session_table<std::string, zmtp_connection<tcp::socket, network_listener::impl>, network_counters>,
      std::enable_shared_from_this<impl> {
  struct limits_t {
    std::chrono::milliseconds handshake{5000};
    std::size_t max_queued_bytes = 32u << 20;  // replies a connection has not read; beyond: closed
    unsigned messages_per_turn = 4;            // requests of one connection handled before others get a turn
    std::chrono::milliseconds idle{60000};     // handshaken and silent (no request, no heartbeat) this long: closed
  };
  using connection = zmtp_connection<tcp::socket, impl>;

  impl(asio::io_context& io, const network_options& opt, message_handler m, close_handler c)
      : session_table({opt.max_connections, opt.max_per_address},
                      {"network: ", "network connections", "address", &network_counters::refused_per_address},
                      std::move(c)),
        io(io),
        acceptor(io),
        retry(io),
        revoke(io),
        opt(opt),
        on_message(std::move(m)) {
    limits.handshake = opt.handshake;
  }
  asio::io_context& io;
  tcp::acceptor acceptor;
  asio::steady_timer retry, revoke;
  network_options opt;
  limits_t limits;
  message_handler on_message;
  std::optional<net::curve_server_keys> keys;
  std::optional<authorized_clients> clients;
  bool accepting = true;

  std::string describe(const connection& c) const {
    return "from " + c.address + (c.name.empty() ? "" : ", client " + c.name);
  }
  void message(connection& c, std::vector<std::vector<std::uint8_t>> frames) {
    on_message(c.id, c.name, std::move(frames));
  }
  std::optional<std::string> name_of(const net::curve_key& key) {
    return clients->name_of(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
  }
  std::optional<std::string> authorize(connection& c, const net::curve_key& key) {
    auto name = name_of(key);
    if (name)
      ++counters.admitted;
    else {
      ++counters.refused;
      warn("refused a CURVE key no file in the clients directory holds (" + describe(c) + ")");
    }
    return name;
  }
  void accept() { accept_next(shared_from_this(), "connection"); }

  void admit(tcp::socket s) {
    boost::system::error_code ec;
    const auto remote = s.remote_endpoint(ec);
    if (ec) return;  // already gone
    const auto addr = address_of(remote);
    auto c = session_table::admit(addr, "a connection from " + addr, [&](auto id) {
      s.set_option(tcp::no_delay(true), ec);
      return std::make_shared<connection>(shared_from_this(), std::move(s), id, keys ? &*keys : nullptr);
    });
    if (!c) return;
    c->address = addr;
    if (!keys) c->name = loopback_name;
    c->start();
  }

  // Once a second: a connection whose key is no longer authorized (its file removed or changed) is closed.
  void check_revoked() {
    revoke.expires_after(std::chrono::seconds(1));
    revoke.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (ec) return;
      std::vector<std::shared_ptr<connection>> gone;
      for (auto& [id, c] : self->sessions) {
        if (c->name.empty()) continue;  // still handshaking
        if (self->name_of(c->key) != c->name) gone.push_back(c);
      }
      for (auto& c : gone) {
        ++self->counters.revoked;
        spdlog::info("network: closed a connection of client {}: its key is no longer authorized", c->name);
        c->close();
      }
      self->check_revoked();
    });
  }
};

network_listener::network_listener(asio::io_context& io, const network_options& opt, message_handler on_message,
                                   close_handler on_close)
    : impl_(std::make_shared<impl>(io, opt, std::move(on_message), std::move(on_close))) {
  const auto ep = resolve(io, opt.endpoint);
  if (opt.insecure_loopback) {
    if (!ep.address().is_loopback())
      throw std::runtime_error(
          "--insecure-loopback serves plaintext TCP on a loopback address only (127.0.0.1, ::1), "
          "not " +
          opt.endpoint + "; give the server a key (--server-key) to serve other addresses");
    if (!opt.server_key.empty())
      throw std::runtime_error("--insecure-loopback and --server-key exclude each other: plaintext or CURVE");
  } else {
    if (opt.server_key.empty() || opt.clients_dir.empty())
      throw std::runtime_error(
          "a network endpoint needs --server-key (cuzk keygen) and --clients-dir (NAME.pub files), "
          "or --insecure-loopback for plaintext on a loopback address");
    impl_->clients.emplace(opt.clients_dir);
    const auto k = net::read_curve_secret(opt.server_key);
    try {
      impl_->keys = net::curve_server_keys_from_z85(k.public_key, k.secret_key);
    } catch (const std::exception& e) {
      throw std::runtime_error("the server key " + opt.server_key.string() + ": " + e.what());
    }
    spdlog::info("network clients: CURVE, server public key {} ({}), {} client key(s) in {}", k.public_key,
                 opt.server_key.string(), impl_->clients->size(), opt.clients_dir.string());
  }
  auto& a = impl_->acceptor;
  boost::system::error_code ec;
  a.open(ep.protocol(), ec);
  if (!ec) a.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) a.bind(ep, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot bind the network endpoint " + opt.endpoint + ": " + ec.message());
  spdlog::info("network connections: at most {} in total and {} per address; {} ms to prove a key", opt.max_connections,
               opt.max_per_address, opt.handshake.count());
  if (opt.insecure_loopback)
    spdlog::warn("network clients: plaintext TCP on {} (--insecure-loopback): every local process is client {}",
                 local_endpoint(), loopback_name);
}

network_listener::~network_listener() {
  impl_->accepting = false;
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  impl_->retry.cancel();
  impl_->revoke.cancel();
  impl_->close_all();
}

void network_listener::start() {
  impl_->accept();
  if (impl_->clients) impl_->check_revoked();
}

bool network_listener::send(std::uint64_t conn, std::span<const std::uint8_t> bytes) {
  auto s = impl_->find(conn);  // held: send may close it (and erase it from the table)
  return s && !s->name.empty() && s->send(bytes);
}

const network_counters& network_listener::counters() const { return impl_->counters; }
std::size_t network_listener::connections() const { return impl_->sessions.size(); }
bool network_listener::secure() const { return impl_->keys.has_value(); }

std::string network_listener::local_endpoint() const {
  boost::system::error_code ec;
  const auto ep = impl_->acceptor.local_endpoint(ec);
  if (ec) return {};
  const auto host = ep.address().to_string();
  return "tcp://" + (ep.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep.port());
}

}  // namespace cuzk::server
