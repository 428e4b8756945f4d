// A .wtns uploaded with its request (POST /v1/proofs?key=ID), streamed to
// the node's spool in Upload chunks as it arrives: the gateway never holds
// more than one chunk of it. Its size is the Content-Length, or for a
// chunked body what its own header declares.
#pragma once

#include <string>

#include "client/lib/connection.hpp"
#include "gateway/http_api.hpp"

namespace cuzk::gateway {

/* Throws std::length_error over max_bytes, std::invalid_argument for a body that is not a .wtns of the size it
   declares, client errors from the node (which checks the witness against key_id). */
void stream_witness(client::connection& c, const std::string& upload_id, const std::string& key_id,
                    const http_request& r, std::uint64_t max_bytes);

/* The whole size a .wtns declares in its first bytes (sections 1 then 2), or nullopt if they do not say. */
std::optional<std::uint64_t> wtns_declared_size(std::string_view head);

}  // namespace cuzk::gateway
