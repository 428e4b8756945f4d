// The gateway's TLS: version 1.3 only (so no renegotiation, no downgrade),
// the operator's certificate chain and key in PEM.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <filesystem>

namespace cuzk::gateway {

boost::asio::ssl::context make_tls_context(const std::filesystem::path& cert_chain, const std::filesystem::path& key);

}  // namespace cuzk::gateway
