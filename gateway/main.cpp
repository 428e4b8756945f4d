// cuzk-gateway: the HTTP front door of a cuzk node or cluster (issue 40).
// TLS 1.3 with the operator's certificate (plaintext only on loopback, with
// --insecure-loopback); API keys from `cuzk keygen --api`; every request
// carried to the node as its key's client through cuzk's own protocol.
//   cuzk-gateway --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem
//                --endpoint ipc:///run/cuzk/cuzk.sock --api-keys /etc/cuzk/api-keys.d
#include <CLI/CLI.hpp>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <csignal>

#include "gateway/listener.hpp"
#include "gateway/webhooks.hpp"
#include "log/log_setup.hpp"
#include "net/api_keys.hpp"

namespace {

template <class Duration>
CLI::Option* seconds_option(CLI::App& app, const std::string& name, Duration& d, const std::string& what) {
  return app
      .add_option_function<long>(
          name, [&d](long s) { d = Duration(s); }, what + " (seconds, default " + std::to_string(d.count()) + ")")
      ->check(CLI::Range(1L, 86400L));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-gateway: the HTTP front door of a cuzk node", "cuzk-gateway"};
  app.set_config("--config", "", "a file of these options (NAME = VALUE lines)");
  cuzk::gateway::listener_options lo;
  cuzk::gateway::bounds b;
  cuzk::gateway::webhook_options wo;
  std::vector<std::string> endpoints{"ipc:///run/cuzk/cuzk.sock"};
  std::string keys_dir = "/etc/cuzk/api-keys.d", anonymous;
  app.add_option("--listen", lo.listen, "HOST:PORT to serve on (port 0: any free port, logged)")->capture_default_str();
  app.add_option("--tls-cert", lo.tls_cert, "the certificate chain (PEM) TLS 1.3 serves");
  app.add_option("--tls-key", lo.tls_key, "its private key (PEM)");
  app.add_flag("--insecure-loopback", lo.insecure_loopback,
               "plaintext HTTP; refused unless --listen is a loopback address");
  app.add_option(
         "--endpoint", endpoints,
         "the node's client endpoint (ipc:// or tcp://); repeat for nodes of one cluster (the next answers when "
         "one does not)")
      ->capture_default_str();
  app.add_option("--api-keys", keys_dir, "directory of API keys (cuzk keygen --api)")->capture_default_str();
  app.add_option("--anonymous-key", anonymous,
                 "requests that carry no key act as this key (clients that cannot send one; its limits apply)");
  app.add_option("--max-connections", b.connections, "connections at once")->capture_default_str();
  app.add_option("--max-connections-per-address", b.connections_per_address, "connections from one source address")
      ->capture_default_str();
  app.add_option("--max-connections-per-key", b.connections_per_key, "connections one API key's requests hold")
      ->capture_default_str();
  seconds_option(app, "--handshake-timeout", b.handshake_timeout, "TCP accept to the end of the TLS handshake");
  seconds_option(app, "--header-timeout", b.header_timeout, "a request's header");
  seconds_option(app, "--body-timeout", b.body_timeout, "a request's body (a witness: each 128 KiB of it)");
  seconds_option(app, "--idle-timeout", b.idle_timeout, "a kept-alive connection between requests");
  seconds_option(app, "--write-timeout", b.write_timeout, "a response taken by its client");
  seconds_option(app, "--max-wait", b.max_wait, "the longest long-poll (?wait=)");
  app.add_option("--max-header-bytes", b.header_bytes, "a request's header")->capture_default_str();
  app.add_option("--max-header-fields", b.header_fields, "a request's header fields")->capture_default_str();
  app.add_option("--max-body-bytes", b.body_bytes, "a JSON request body")->capture_default_str();
  app.add_option("--max-witness-bytes", b.witness_bytes, "a .wtns uploaded with its request")->capture_default_str();
  app.add_option("--max-json-depth", b.json_depth, "nesting of a JSON body")->capture_default_str();
  app.add_option("--max-long-polls-per-key", b.long_polls_per_key, "GET ?wait= open at once per key")
      ->capture_default_str();
  app.add_option("--max-webhooks-per-key", b.webhooks_per_key, "webhooks pending per key")->capture_default_str();
  app.add_option("--requests-per-second", b.requests_per_second, "per key, with a burst of twice that")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 1e6));
  app.add_option("--webhook-allow", wo.allow,
                 "a host name or address range (CIDR) webhooks may be delivered to; repeat. None: no webhooks");
  app.add_option("--webhook-attempts", wo.attempts, "deliveries tried before giving up")->capture_default_str();
  app.add_option_function<double>(
         "--webhook-backoff", [&wo](double s) { wo.backoff = std::chrono::milliseconds(static_cast<long>(s * 1000)); },
         "seconds before the second attempt, doubling after (default 1)")
      ->check(CLI::Range(0.01, 3600.0));
  app.add_option("--webhook-ca", wo.ca_file, "a CA (PEM) trusted for https receivers besides the system's");
  app.add_option("--state-dir", wo.state_dir,
                 "where webhooks not yet delivered are kept, to be delivered by the next gateway after a restart");
  CLI11_PARSE(app, argc, argv);
  cuzk::log::setup("gateway");
  try {
    if (!anonymous.empty()) lo.anonymous_key = anonymous;
    std::signal(SIGPIPE, SIG_IGN);
    cuzk::net::api_key_store keys(keys_dir);
    cuzk::gateway::key_limits limits(b.requests_per_second);
    cuzk::gateway::node_endpoints nodes(endpoints);
    std::optional<cuzk::gateway::webhooks> hooks;
    if (!wo.allow.empty()) hooks.emplace(wo, nodes, limits, b.webhooks_per_key);
    const cuzk::gateway::api_context ctx{&nodes, b, limits, hooks ? &*hooks : nullptr};
    cuzk::gateway::listener l(lo, ctx, keys);
    spdlog::info("gateway on {} for {} ({} API keys in {}{})", l.url(), fmt::join(endpoints, ", "), keys.size(),
                 keys_dir,
                 hooks ? ", webhooks to " + std::to_string(wo.allow.size()) + " allowed host(s), " +
                             std::to_string(hooks->resumed()) + " resumed"
                       : "");
    l.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
