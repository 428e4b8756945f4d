// gateway/openapi.json, the API's contract (OpenAPI 3.1), built into the
// gateway and served at GET /v1/openapi.json.
#pragma once

#include <string>

namespace cuzk::gateway {

const std::string& openapi_document();

}  // namespace cuzk::gateway
