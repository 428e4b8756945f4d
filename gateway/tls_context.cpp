#include "gateway/tls_context.hpp"

#include <openssl/ssl.h>

#include <stdexcept>

namespace cuzk::gateway {

boost::asio::ssl::context make_tls_context(const std::filesystem::path& cert_chain, const std::filesystem::path& key) {
  namespace ssl = boost::asio::ssl;
  ssl::context ctx(ssl::context::tls_server);
  if (SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_3_VERSION) != 1)
    throw std::runtime_error("this OpenSSL cannot serve TLS 1.3");
  SSL_CTX_set_options(ctx.native_handle(), SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  boost::system::error_code ec;
  ctx.use_certificate_chain_file(cert_chain.string(), ec);
  if (ec) throw std::runtime_error("--tls-cert " + cert_chain.string() + ": " + ec.message());
  ctx.use_private_key_file(key.string(), ssl::context::pem, ec);
  if (ec) throw std::runtime_error("--tls-key " + key.string() + ": " + ec.message());
  if (SSL_CTX_check_private_key(ctx.native_handle()) != 1)
    throw std::runtime_error("--tls-key " + key.string() + " is not the key of --tls-cert " + cert_chain.string());
  return ctx;
}

}  // namespace cuzk::gateway
