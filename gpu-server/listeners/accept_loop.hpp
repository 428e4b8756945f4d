// The accept loop both client listeners run: each accepted socket goes to
// the owner's admit(); running out of descriptors (EMFILE, ENFILE) or memory
// pauses accepting for 100 ms and never fails. The owner holds `accepting`,
// `acceptor`, `retry` (a steady_timer), `counters.accept_errors` and warn().
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/error.hpp>
#include <chrono>
#include <memory>
#include <string>

namespace cuzk::server {

template <class Owner>
void accept_next(const std::shared_ptr<Owner>& self, const char* what) {
  if (!self->accepting) return;
  self->acceptor.async_accept([self, what](const boost::system::error_code& ec, auto s) {
    if (!self->accepting || ec == boost::asio::error::operation_aborted) return;
    if (ec) {
      ++self->counters.accept_errors;
      self->warn(std::string("cannot accept a ") + what + ": " + ec.message() + "; retrying in 100 ms");
      self->retry.expires_after(std::chrono::milliseconds(100));
      self->retry.async_wait([self, what](const boost::system::error_code& e) {
        if (!e) accept_next(self, what);
      });
      return;
    }
    self->admit(std::move(s));
    accept_next(self, what);
  });
}

}  // namespace cuzk::server
