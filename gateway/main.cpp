// cuzk-gateway: the HTTP front door (issue 40). This first part serves the
// REST API v1 (gateway/http_api) on a loopback address in plaintext
// (--insecure-loopback; TLS comes with the rest of the issue), one thread per
// connection up to --max-connections, with a deadline on every read.
//   cuzk-gateway --listen 127.0.0.1:8080 --insecure-loopback --endpoint ipc:///run/cuzk/cuzk.sock
//                --api-keys /etc/cuzk/api-keys.d
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <csignal>
#include <thread>

#include "gateway/http_api.hpp"
#include "log/log_setup.hpp"
#include "net/api_keys.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

std::atomic<unsigned> open_connections{0};

void serve(tcp::socket sock, cuzk::gateway::http_api& api, std::chrono::seconds idle) {
  const timeval tv{static_cast<time_t>(idle.count()), 0};
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  beast::flat_buffer buf;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(16 * 1024);
    parser.body_limit(256 * 1024);
    beast::error_code ec;
    http::read(sock, buf, parser, ec);
    if (ec == http::error::end_of_stream || ec == asio::error::connection_reset) return;
    cuzk::gateway::http_reply out;
    bool keep = false;
    http::request<http::string_body> req;
    if (ec) {
      out = cuzk::gateway::problem(ec == http::error::body_limit || ec == http::error::header_limit ? 413 : 400,
                                   "bad request", "the request could not be read: " + ec.message());
    } else {
      req = parser.release();
      keep = req.keep_alive();
      cuzk::gateway::http_request r{std::string(req.method_string()), std::string(req.target()), req.body(),
                                    std::string(req[http::field::authorization]), std::string(req["Idempotency-Key"])};
      out = api.handle(r);
    }
    http::response<http::string_body> res{static_cast<http::status>(out.status), 11};
    res.set(http::field::content_type, out.content_type);
    res.set(http::field::server, "cuzk-gateway");
    for (const auto& [k, v] : out.headers) res.set(k, v);
    res.keep_alive(keep);
    res.body() = std::move(out.body);
    res.prepare_payload();
    http::write(sock, res, ec);
    if (ec || !keep) return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-gateway: the HTTP front door of a cuzk node", "cuzk-gateway"};
  std::string listen = "127.0.0.1:8080", endpoint = "ipc:///run/cuzk/cuzk.sock", keys_dir = "/etc/cuzk/api-keys.d";
  bool insecure = false;
  unsigned max_connections = 256;
  double idle_s = 30;
  app.add_option("--listen", listen, "HOST:PORT to serve on (port 0: any free port, logged)")->capture_default_str();
  app.add_flag("--insecure-loopback", insecure, "plaintext HTTP; refused unless --listen is a loopback address");
  app.add_option("--endpoint", endpoint, "the node's client endpoint")->capture_default_str();
  app.add_option("--api-keys", keys_dir, "directory of API keys (cuzk keygen --api)")->capture_default_str();
  app.add_option("--max-connections", max_connections, "connections at once; more are closed at accept")
      ->check(CLI::Range(1u, 65536u));
  app.add_option("--idle-timeout", idle_s, "seconds a connection may take to send a request")
      ->check(CLI::Range(1.0, 600.0));
  CLI11_PARSE(app, argc, argv);
  cuzk::log::setup("gateway");
  try {
    const auto colon = listen.rfind(':');
    if (colon == std::string::npos) throw std::invalid_argument("--listen expects HOST:PORT");
    const auto address = asio::ip::make_address(listen.substr(0, colon));
    const auto port = static_cast<unsigned short>(std::stoul(listen.substr(colon + 1)));
    if (!address.is_loopback())
      throw std::invalid_argument("--listen " + listen + ": this gateway serves only loopback addresses until TLS");
    if (!insecure) throw std::invalid_argument("plaintext HTTP needs --insecure-loopback (TLS is not built yet)");
    cuzk::net::api_key_store keys(keys_dir);
    cuzk::gateway::http_api api(endpoint, keys);
    asio::io_context io;
    tcp::acceptor acceptor(io, {address, port});
    spdlog::info("gateway on http://{}:{} for {} ({} API keys in {})", address.to_string(),
                 acceptor.local_endpoint().port(), endpoint, keys.size(), keys_dir);
    std::signal(SIGPIPE, SIG_IGN);
    for (;;) {
      tcp::socket sock(io);
      beast::error_code ec;
      acceptor.accept(sock, ec);
      if (ec) {  // out of descriptors, a connection reset before it was taken: the gateway goes on
        spdlog::warn("accept: {}", ec.message());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      if (open_connections.load() >= max_connections) continue;  // closed by its destructor
      ++open_connections;
      std::thread([s = std::move(sock), &api, idle = std::chrono::seconds(static_cast<long>(idle_s))]() mutable {
        try {
          serve(std::move(s), api, idle);
        } catch (const std::exception& e) {
          spdlog::warn("connection: {}", e.what());
        }
        --open_connections;
      }).detach();
    }
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
