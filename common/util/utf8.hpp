// Text that crosses a trust boundary: bounded on a character boundary (a
// protobuf string must be valid UTF-8, or the whole message is refused) and
// escaped before it reaches a terminal or the journal (controls, C1 and bidi
// overrides from a client must not rewrite what an operator reads).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk::util {

/* Length (1..4) of the well-formed UTF-8 sequence at s[i], or 0 when s[i] starts none
   (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut short). */
std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t* cp = nullptr) noexcept;

/* Writes s into dst[0..cap) as valid UTF-8, each byte that starts no sequence as U+FFFD,
   stopping before the first character that would not fit whole; returns the bytes written. */
std::size_t copy_utf8(std::string_view s, char* dst, std::size_t cap) noexcept;

/* s as valid UTF-8 of at most max_bytes, cut on a character boundary (see copy_utf8). */
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);

/* s with what a terminal would act on made visible: bytes that are not UTF-8 and the C0
   controls and DEL as \xNN (tab and newline kept when keep_newlines), the C1 controls
   (U+0080..U+009F) and the bidi embeddings, overrides and isolates (U+202A..U+202E,
   U+2066..U+2069) as \u{NNNN}. Everything else, other scripts included, is kept. */
std::string escape_for_terminal(std::string_view s, bool keep_newlines = false);

/* escape_for_terminal, then truncate_utf8: text for a log line or a terminal, bounded. */
std::string printable(std::string_view s, std::size_t max_bytes = 1024, bool keep_newlines = false);

}  // namespace cuzk::util
