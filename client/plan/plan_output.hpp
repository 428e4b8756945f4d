// A node plan for people (a table) and for tools (JSON: its "pool" object is
// what cuzk-shm create --plan FILE reads, the keys of its --config JSON).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "client/plan/node_plan.hpp"

namespace cuzk::plan {

/* version 1: {"cuzk_plan": 1, "pool": {...}, "shm": {...}, "host": {...},
   "gpus": [...], "keys": [...], "does_not_fit": [...], "notes": [...]} */
nlohmann::json to_json(const node_plan& p);
std::string to_text(const node_plan& p);

}  // namespace cuzk::plan
