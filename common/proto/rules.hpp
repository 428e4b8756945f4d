// The field rules decode() applies (docs/protocol.md, "Validation"), public so
// that a client can refuse bad input before it sends anything. Each returns
// nullopt when the value passes, otherwise a reason that starts with `field`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::proto {

using rule_result = std::optional<std::string>;

/* Well-formed UTF-8: no overlong forms, surrogates or code points past U+10FFFF. */
bool is_utf8(std::string_view s) noexcept;

/* 1..63 bytes of visible ASCII (0x21..0x7e) other than '/'. */
rule_result check_job_id(std::string_view field, std::string_view v);
/* UTF-8 without control characters (tab, newline allowed when multiline), at most max bytes. */
rule_result check_text(std::string_view field, std::string_view v, std::size_t max, bool multiline = false);
/* An absolute path: starts with '/', UTF-8, no NUL, at most max_path_bytes. */
rule_result check_path(std::string_view field, std::string_view v);
/* A proving key: an absolute path, or an installed key id (32 lowercase hex digits, shm::is_key_id). */
rule_result check_key(std::string_view field, std::string_view v);
/* 1..max bytes of visible ASCII. */
rule_result check_token(std::string_view field, std::string_view v, std::size_t max, bool may_be_empty = false);
/* 1..max_decimal_digits decimal digits. */
rule_result check_decimal(std::string_view field, std::string_view v);

}  // namespace cuzk::proto
