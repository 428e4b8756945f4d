#include "metrics_http.hpp"

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/spdlog.h>
#include <stdexcept>

namespace cuzk::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct metrics_http::impl : std::enable_shared_from_this<metrics_http::impl> {
  impl(asio::io_context& io, handler h) : acceptor(io), on_get(std::move(h)) {}
  tcp::acceptor acceptor;
  handler on_get;
  std::size_t open = 0;
  bool closed = false;

  void accept();
};

namespace {

class session : public std::enable_shared_from_this<session> {
 public:
  session(tcp::socket s, std::shared_ptr<metrics_http::impl> owner)
      : stream_(std::move(s)), owner_(std::move(owner)) {
    ++owner_->open;
  }
  ~session() { --owner_->open; }

  void read() {
    parser_.body_limit(4096);
    parser_.header_limit(8192);
    stream_.expires_after(metrics_http::timeout);
    http::async_read(stream_, buffer_, parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->close();
      self->answer();
    });
  }

 private:
  void answer() {
    const auto& rq = parser_.get();
    http_reply r;
    if (rq.method() != http::verb::get) {
      r = {405, "text/plain; charset=utf-8", "only GET is served\n"};
    } else {
      std::string_view target(rq.target().data(), rq.target().size());
      target = target.substr(0, target.find('?'));
      try {
        r = owner_->closed ? http_reply{503, "text/plain; charset=utf-8", "stopping\n"} : owner_->on_get(target);
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
    stream_.expires_after(metrics_http::timeout);
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code, std::size_t) { self->close(); });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request_parser<http::string_body> parser_;
  http::response<http::string_body> res_;
  std::shared_ptr<metrics_http::impl> owner_;
};

}  // namespace

void metrics_http::impl::accept() {
  acceptor.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket s) {
    if (ec == asio::error::operation_aborted || self->closed) return;
    if (!ec) {
      if (self->open < max_connections)
        std::make_shared<session>(std::move(s), self)->read();
      else
        s.close(ec);  // too many at once: refused rather than queued
    }
    self->accept();
  });
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
}

void metrics_http::start() { impl_->accept(); }

tcp::endpoint metrics_http::local_endpoint() const { return impl_->acceptor.local_endpoint(); }

}  // namespace cuzk::server
