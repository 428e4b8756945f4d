// CurveZMQ keys (libzmq's CURVE; RFC 26): a keypair is two Z85 strings of 40
// characters. A secret key file holds both, readable by its owner only; the
// public key file beside it (NAME.pub) holds the public key alone, and is
// what an operator puts in the server's clients directory to authorize a
// client. Both are two-line text an operator can read:
//   public-key = "Z85…"
//   secret-key = "Z85…"        (secret key files only)
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace cuzk::net {

struct curve_keypair {
  std::string public_key;  // Z85, 40 characters
  std::string secret_key;  // Z85, 40 characters; empty in a public key file
};

/* A fresh keypair (zmq_curve_keypair). Throws std::runtime_error when libzmq lacks CURVE. */
curve_keypair make_curve_keypair();
/* A Z85 CURVE key: 40 characters of the Z85 alphabet. */
bool is_curve_key(std::string_view z85);
/* Writes `secret` (mode 0600, never over an existing file) and secret + ".pub" (0644). Throws with a sentence. */
void write_curve_keys(const std::filesystem::path& secret, const curve_keypair& k);
/* Reads a secret key file (both keys) or a public key file (public only). Throws with a sentence naming the file. */
curve_keypair read_curve_secret(const std::filesystem::path& secret);
std::string read_curve_public(const std::filesystem::path& pub);

}  // namespace cuzk::net
