#include "network_listener.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <zmq.h>

#include <array>
#include <boost/asio/ip/address.hpp>
#include <set>
#include <zmq_addon.hpp>
#include <stdexcept>

#include "net/curve_keys.hpp"
#include "network_identity.hpp"
#include "net/options.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

constexpr const char* zap_endpoint = "inproc://zeromq.zap.01";  // RFC 27: the handler's fixed address
constexpr const char* loopback_name = "loopback";                 // every plaintext client's name

std::string binary_key(const std::string& z85) {
  std::array<std::uint8_t, 32> bin{};
  if (!zmq_z85_decode(bin.data(), z85.c_str())) throw std::runtime_error("not a Z85 key");
  return std::string(reinterpret_cast<const char*>(bin.data()), bin.size());
}

/* The host of tcp://HOST:PORT, without brackets. */
std::string host_of(const std::string& endpoint) {
  const std::string rest = endpoint.substr(6);
  const auto colon = rest.rfind(':');
  std::string host = colon == std::string::npos ? rest : rest.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return host;
}

}  // namespace

authorized_clients::authorized_clients(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir_, ec))
    throw std::runtime_error("the clients directory " + dir_.string() + " does not exist (it holds NAME.pub files)");
  std::lock_guard lk(mu_);
  reload_if_changed();
}

// Called with mu_ held. A directory that cannot be read, or a file that is
// not a public key, keeps the last good set: a typo never opens the door.
void authorized_clients::reload_if_changed() {
  // Read again when an entry was added or removed, and at most once a second
  // anyway (a key file rewritten in place does not touch the directory).
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(dir_, ec);
  const auto now = std::chrono::steady_clock::now();
  if (ec || (t == seen_ && seen_ != std::filesystem::file_time_type{} && now - loaded_ < std::chrono::seconds(1))) return;
  loaded_ = now;
  std::map<std::string, std::string> next;
  std::map<uid_t, std::string> uids;
  try {
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      const auto& p = e.path();
      if (p.extension() != ".pub" || !e.is_regular_file()) continue;
      const auto name = p.stem().string();
      if (!is_client_name(name))
        throw std::runtime_error(p.string() + ": a client name is 1-64 of A-Z a-z 0-9 . _ - (not starting with a dot)");
      const auto key = binary_key(net::read_curve_public(p));
      if (auto it = next.find(key); it != next.end())
        throw std::runtime_error(p.string() + " holds the key of client " + it->second + " too");
      if (auto [it, fresh] = uids.emplace(network_uid(name), name); !fresh)
        throw std::runtime_error("clients " + it->second + " and " + name + " map to one uid; rename one");
      next[key] = name;
    }
  } catch (const std::exception& ex) {
    if (seen_ == std::filesystem::file_time_type{}) throw;
    if (t != seen_)  // once a change, not once a second
      spdlog::error("clients directory {}: {}; keeping the {} clients authorized before", dir_.string(),
                    util::printable(ex.what()), by_key_.size());
    seen_ = t;
    return;
  }
  if (next != by_key_ && (seen_ != std::filesystem::file_time_type{} || !next.empty()))
    spdlog::info("clients directory {}: {} client key(s) authorized", dir_.string(), next.size());
  by_key_ = std::move(next);
  seen_ = t;
}

std::optional<std::string> authorized_clients::name_of(std::string_view public_key) {
  std::lock_guard lk(mu_);
  reload_if_changed();
  auto it = by_key_.find(std::string(public_key));
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}

std::size_t authorized_clients::size() {
  std::lock_guard lk(mu_);
  return by_key_.size();
}

network_listener::network_listener(boost::asio::io_context& io, const network_options& opt, message_handler on_message)
    : io_(io),
      on_message_(std::move(on_message)),
      insecure_(opt.insecure_loopback),
      zap_(ctx_, zmq::socket_type::rep),
      router_(ctx_, zmq::socket_type::router),
      reader_(io, router_, [this](const net::routed& r) { on_frame(r); }) {
  if (opt.endpoint.rfind("tcp://", 0) != 0)
    throw std::runtime_error("the network endpoint " + opt.endpoint + " is not tcp://ADDR:PORT");
  if (insecure_) {
    boost::system::error_code ec;
    const auto a = boost::asio::ip::make_address(host_of(opt.endpoint), ec);
    if (ec || !a.is_loopback())
      throw std::runtime_error("--insecure-loopback serves plaintext TCP on a loopback address only (127.0.0.1, ::1), "
                               "not " + opt.endpoint + "; give the server a key (--server-key) to serve other addresses");
    if (!opt.server_key.empty())
      throw std::runtime_error("--insecure-loopback and --server-key exclude each other: plaintext or CURVE");
  } else {
    if (opt.server_key.empty() || opt.clients_dir.empty())
      throw std::runtime_error("a network endpoint needs --server-key (cuzk keygen) and --clients-dir (NAME.pub files), "
                               "or --insecure-loopback for plaintext on a loopback address");
    clients_.emplace(opt.clients_dir);
    const auto keys = net::read_curve_secret(opt.server_key);
    const auto secret = binary_key(keys.secret_key);
    zap_.set(zmq::sockopt::linger, 0);
    zap_.bind(zap_endpoint);  // before the ROUTER binds: no handshake may go unchecked
    zap_thread_ = std::thread([this] { zap_loop(); });
    router_.set(zmq::sockopt::curve_server, true);
    if (zmq_setsockopt(router_.handle(), ZMQ_CURVE_SECRETKEY, secret.data(), secret.size()) != 0)
      throw std::runtime_error(std::string("the server key: ") + zmq_strerror(zmq_errno()));
    router_.set(zmq::sockopt::zap_domain, "cuzk");
    spdlog::info("network clients: CURVE, server public key {} ({}), {} client key(s) in {}", keys.public_key,
                 opt.server_key.string(), clients_->size(), opt.clients_dir.string());
  }
  net::set_router_mandatory(router_);
  net::set_heartbeat(router_, {});
  net::set_max_message_size(router_, static_cast<std::int64_t>(proto::zmq_max_message_bytes));
  net::set_linger(router_, std::chrono::milliseconds(0));
  router_.set(zmq::sockopt::handshake_ivl, static_cast<int>(opt.handshake.count()));
  try {
    router_.bind(opt.endpoint);
  } catch (const zmq::error_t& e) {
    throw std::runtime_error("cannot bind the network endpoint " + opt.endpoint + ": " + e.what());
  }
  if (insecure_) spdlog::warn("network clients: plaintext TCP on {} (--insecure-loopback): every local process is client {}",
                              local_endpoint(), loopback_name);
}

network_listener::~network_listener() {
  stop_ = true;
  if (zap_thread_.joinable()) zap_thread_.join();
}

std::string network_listener::local_endpoint() const { return router_.get(zmq::sockopt::last_endpoint); }

// RFC 27: [version, request id, domain, address, routing id, mechanism,
// credentials…] → [version, request id, status, text, user id, metadata].
void network_listener::zap_loop() {
  while (!stop_) {
    zmq::pollitem_t item{zap_.handle(), 0, ZMQ_POLLIN, 0};
    try {
      if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) <= 0) continue;
      std::vector<zmq::message_t> req;
      if (!zmq::recv_multipart(zap_, std::back_inserter(req), zmq::recv_flags::dontwait)) continue;
      std::optional<std::string> name;
      if (req.size() == 7 && req[0].to_string() == "1.0" && req[5].to_string() == "CURVE" && req[6].size() == 32)
        name = clients_->name_of(req[6].to_string_view());
      if (name) ++counters_.admitted;
      else ++counters_.refused;
      std::array<zmq::const_buffer, 6> reply{zmq::str_buffer("1.0"),
                                             req.size() > 1 ? zmq::buffer(req[1].data(), req[1].size()) : zmq::const_buffer{},
                                             name ? zmq::str_buffer("200") : zmq::str_buffer("400"),
                                             name ? zmq::str_buffer("OK") : zmq::str_buffer("unknown client key"),
                                             name ? zmq::const_buffer(name->data(), name->size()) : zmq::const_buffer{}, zmq::const_buffer{}};
      (void)zmq::send_multipart(zap_, reply);
    } catch (const zmq::error_t& e) {
      if (e.num() == ETERM) return;
      spdlog::warn("ZAP handler: {}", e.what());
    }
  }
}

void network_listener::start() {
  reader_.start();
  boost::asio::post(io_, [this] { drain(); });
}

void network_listener::drain() { reader_.drain(); }

void network_listener::on_frame(const net::routed& r) {
  const std::string name = insecure_ ? loopback_name : r.user_id;
  if (name.empty()) return;  // cannot happen: ZAP names every CURVE connection it admits
  on_message_(r.peer, name, r.msg);
}

bool network_listener::send(const std::string& routing_id, const proto::message& m) {
  bool sent = false;
  try {
    sent = net::send_to(router_, routing_id, m) == net::send_result::sent;
  } catch (const zmq::error_t& e) {
    spdlog::warn("network send failed: {}", e.what());
  }
  boost::asio::post(io_, [this] { drain(); });  // the send may have taken the edge of a request queued meanwhile
  return sent;
}

}  // namespace cuzk::server
