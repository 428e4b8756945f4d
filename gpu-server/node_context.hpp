// What the parts that serve a client's jobs share: the options, the loop's
// state, the pool's job table and slots, the keys, the outbox and the loop.
// A part's own context adds what is only its own.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>

#include "keys/key_store.hpp"
#include "outbox.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

struct node_context {
  const server_options& opt;
  const loop_state& loop;
  shm::job_table& jobs;
  const shm::slot_table& slots;
  key_store& keys;
  outbox& out;
  boost::asio::io_context& io;
};

}  // namespace cuzk::server
