// The requests existing provers' clients send, served unchanged (issue 40,
// item 4), each as its API key's client:
//  - iden3 prover-server: POST /api/v1/proof/generate {circuit_name, inputs}
//    → 200 {proof, pub_signals} when proven (it waits); GET /api/v1/status.
//    Errors as it writes them: {"code":0,"details":…,"error":…}.
//  - rapidsnark proverServer: POST /input/<circuit> (the input JSON; 200,
//    empty, proving starts), GET /status ({"status":"ready|busy|success|
//    failed|aborted"}, on success "proof" and "pubData" as JSON strings),
//    POST /cancel. One job at a time per key, as its server has one: a new
//    input cancels the job before it.
#pragma once

#include <optional>
#include <string>

#include "client/lib/connection.hpp"
#include "gateway/http_api.hpp"

namespace cuzk::gateway {

/* Nullopt: not one of their routes. */
std::optional<http_reply> handle_compat(const api_context& ctx, client::connection& c, const http_request& r,
                                        const std::string& path);

}  // namespace cuzk::gateway
