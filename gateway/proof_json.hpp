// A job as the API shows it: {id, state, error?, phases?, proof?,
// public_signals?, partitions?}, the proof and public signals in snarkjs's
// JSON. GET /v1/proofs/{id} answers it and a webhook delivers it.
#pragma once

#include <nlohmann/json.hpp>

#include "client/lib/connection.hpp"

namespace cuzk::gateway {

nlohmann::json status_json(const proto::job_status& st);
nlohmann::json outcome_json(const client::job_outcome& o);
/* Whether the job has ended (done, failed or cancelled). */
bool finished(const client::job_outcome& o);
/* Parses a request body, refusing one nested deeper than max_depth (json::exception with a sentence). */
nlohmann::json parse_bounded(const std::string& body, int max_depth);

}  // namespace cuzk::gateway
