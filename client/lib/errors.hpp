// What a request can end in besides its reply.
#pragma once

#include <stdexcept>
#include <string>

#include "proto/message.hpp"
#include "proto/names.hpp"

namespace cuzk::client {

/* The server answered with an Error message. */
class server_error : public std::runtime_error {
 public:
  server_error(proto::error_code code, const std::string& message)
      : std::runtime_error(std::string(proto::name(code)) + ": " + message), code_(code), message_(message) {}
  proto::error_code code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

 private:
  proto::error_code code_;
  std::string message_;
};

/* No reply within the timeout, on every attempt (server down, socket
   missing, or too busy to answer). */
class unreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* A reply this client cannot use: undecodable, or of the wrong kind. */
class protocol_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cuzk::client
