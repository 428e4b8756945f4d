// Who a network client is: the name its key file has in the clients
// directory, and the uid its jobs are owned by, from a range no local
// account uses (systemd never allocates uids at or above 2^31).
#pragma once

#include <sys/types.h>

#include <string_view>

namespace cuzk::server {

/* 2^31 plus 31 bits of a hash of the name (two authorized names that meet are refused at load). */
uid_t network_uid(std::string_view name);
inline bool is_network_uid(uid_t uid) { return uid >= (1u << 31); }
/* A client name: 1–64 of [A-Za-z0-9._-], not starting with a dot. */
bool is_client_name(std::string_view name);

}  // namespace cuzk::server
